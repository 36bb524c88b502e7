/**
 * The operators' commands, independent of how they are invoked: the admin CLI parses flags and
 * prints what these return; the local demo seed calls them directly. Inputs are flag strings
 * (`--org org_…` → `{ org: 'org_…' }`), outputs are JSON-ready and never contain hashes or
 * encrypted tokens. Issued secrets appear only in the output of the issuing command.
 */
import type { IssuedCredential } from './credential-use-cases';
import { InvalidTenancyInputError } from './errors';
import { formatMicros, parseDecimalToMicros } from './money';
import type { OrganizationOverview } from './organization-use-cases';
import {
  membershipRoles,
  type CountryPricing,
  type CredentialKind,
  type MarketingMessagesSetting,
  type MembershipRole,
  type SubscriptionStatus,
  type Wallet,
} from './tenancy-entities';
import {
  defineCommand,
  optionalBoolean,
  optionalWholeNumber,
  required,
  requiredBoolean,
  type AdminCommand,
  type AdminFlag,
  type AdminFlagValues,
} from './admin-flags';
import { requireOneOf, requirePlan } from './tenancy-input';
import type { TenancyServices } from './tenancy-services';

export type { AdminCommand, AdminFlag, AdminFlagValues } from './admin-flags';

/** `--enabled true | false | auto` as the account's setting (tenancy-entities.ts `MarketingMessagesSetting`). */
function marketingMessagesSettingOf(value: string): MarketingMessagesSetting {
  const setting = ({ true: 'enabled', false: 'disabled', auto: 'auto' } as const)[value.toLowerCase() as 'true' | 'false' | 'auto'];
  if (setting === undefined) throw new InvalidTenancyInputError('--enabled must be true, false or auto');
  return setting;
}

const organizationFlag: AdminFlag = { name: 'org', description: 'Organization id (org_…)', required: true };
const planFlag: AdminFlag = { name: 'plan', description: 'starter | professional | enterprise', required: true };

export interface IssuedCredentialOutput {
  credentialId: string;
  kind: CredentialKind;
  organizationId: string;
  boundPhoneNumber?: string;
  expiresAt?: string;
  createdAt: string;
  /** The plaintext; shown once, never retrievable again. */
  secret: string;
  notice: string;
}

function presentIssued({ credential, secret }: IssuedCredential): IssuedCredentialOutput {
  return {
    credentialId: credential.credentialId,
    kind: credential.kind,
    organizationId: credential.organizationId,
    ...(credential.boundPhoneNumber !== undefined ? { boundPhoneNumber: credential.boundPhoneNumber } : {}),
    ...(credential.expiresAt !== undefined ? { expiresAt: credential.expiresAt } : {}),
    createdAt: credential.createdAt,
    secret,
    notice: 'Store this secret now: only its hash is kept, it cannot be shown again.',
  };
}

export interface WalletOutput {
  organizationId: string;
  balance: string;
  balanceMicros: number;
  currency: string;
  updatedAt: string;
}

const presentWallet = (wallet: Wallet): WalletOutput => ({
  organizationId: wallet.organizationId,
  balance: formatMicros(wallet.balanceMicros),
  balanceMicros: wallet.balanceMicros,
  currency: wallet.currency,
  updatedAt: wallet.updatedAt,
});

const presentPricing = (pricing: CountryPricing) => ({
  countryCallingCode: pricing.countryCallingCode,
  currency: pricing.currency,
  prices: {
    MARKETING: formatMicros(pricing.pricesMicros.MARKETING),
    UTILITY: formatMicros(pricing.pricesMicros.UTILITY),
    AUTHENTICATION: formatMicros(pricing.pricesMicros.AUTHENTICATION),
  },
  pricesMicros: pricing.pricesMicros,
  updatedAt: pricing.updatedAt,
});

const issueCommand = (kind: CredentialKind, summary: string, extraFlags: readonly AdminFlag[], extraInput: (flags: AdminFlagValues) => object) =>
  defineCommand({
    summary,
    flags: [organizationFlag, ...extraFlags],
    run: async (tenancy, flags) => presentIssued(await tenancy.admin.issueCredential({ organizationId: required(flags, 'org'), kind, ...extraInput(flags) })),
  });

export const adminCommands = {
  'create-organization': defineCommand({
    summary: 'Create an organization',
    flags: [
      { name: 'name', description: 'Display name', required: true },
      planFlag,
      { name: 'api-add-on', description: 'Grant the v1 API below the enterprise plan (default false)', boolean: true },
    ],
    run: (tenancy, flags) =>
      tenancy.admin.createOrganization({
        name: required(flags, 'name'),
        plan: requirePlan(required(flags, 'plan')),
        apiAddOn: optionalBoolean(flags, 'api-add-on') ?? false,
      }),
  }),

  'connect-business-account': defineCommand({
    summary: 'Connect a WhatsApp Business Account (the access token is encrypted at rest)',
    flags: [
      organizationFlag,
      { name: 'waba-id', description: 'Business account id', required: true },
      { name: 'business-id', description: 'Business (portfolio) id', required: true },
      { name: 'name', description: 'Display name', required: true },
      { name: 'access-token', description: 'Upstream access token', required: true, acceptsStdin: true },
      { name: 'messages-per-second', description: 'Sending pace of the whole account, 1-1000 (default: the platform default, 30)' },
    ],
    run: (tenancy, flags) =>
      tenancy.admin.connectBusinessAccount({
        organizationId: required(flags, 'org'),
        wabaId: required(flags, 'waba-id'),
        businessId: required(flags, 'business-id'),
        name: required(flags, 'name'),
        accessToken: required(flags, 'access-token'),
        messagesPerSecond: flags['messages-per-second'] === undefined ? undefined : Number(flags['messages-per-second']),
      }),
  }),

  'set-marketing-messages': defineCommand({
    summary:
      "Send the account's MARKETING template broadcasts through Meta's Marketing Messages API: true (always), false (never: Cloud API), auto (when Meta reports the account ONBOARDED; the default)",
    flags: [
      { name: 'waba', description: 'Business account id (WABA id)', required: true },
      { name: 'enabled', description: 'true | false | auto', required: true },
    ],
    run: (tenancy, flags) =>
      tenancy.admin.setMarketingMessages({ wabaId: required(flags, 'waba'), setting: marketingMessagesSettingOf(required(flags, 'enabled')) }),
  }),

  'add-phone-number': defineCommand({
    summary: 'Add a sender number to a connected business account',
    flags: [
      organizationFlag,
      { name: 'waba-id', description: 'Business account id', required: true },
      { name: 'phone-number', description: 'Digits only, country code included', required: true },
      { name: 'phone-number-id', description: 'Upstream phone number id', required: true },
    ],
    run: (tenancy, flags) =>
      tenancy.admin.addPhoneNumber({
        organizationId: required(flags, 'org'),
        wabaId: required(flags, 'waba-id'),
        digits: required(flags, 'phone-number'),
        phoneNumberId: required(flags, 'phone-number-id'),
      }),
  }),

  'issue-broadcast-key': issueCommand(
    'broadcast-api-key',
    'Issue a broadcast API key (x-api-key), optionally bound to one sender number',
    [{ name: 'phone-number', description: 'Bind the key to this sender number' }],
    (flags) => (flags['phone-number'] !== undefined ? { boundPhoneNumber: required(flags, 'phone-number') } : {}),
  ),
  'issue-organization-token': issueCommand('organization-token', 'Issue an organization token (organization administration)', [], () => ({})),
  'issue-upstream-token': issueCommand(
    'upstream-access-token',
    'Issue an access token for the /upstream wrapper',
    [{ name: 'expires-in-days', description: 'Days until it expires (default: no expiry)' }],
    (flags) => ({ expiresInDays: optionalWholeNumber(flags, 'expires-in-days') }),
  ),
  'issue-v1-key': issueCommand('v1-api-key', 'Issue a v1 API key (enterprise plan or API add-on)', [], () => ({})),

  'revoke-credential': defineCommand({
    summary: 'Revoke a credential',
    flags: [organizationFlag, { name: 'credential-id', description: 'cred_…', required: true }],
    run: (tenancy, flags) => tenancy.admin.revokeCredential({ organizationId: required(flags, 'org'), credentialId: required(flags, 'credential-id') }),
  }),

  'set-key-generation': defineCommand({
    summary:
      "Allow (true) or stop (false) the public generate-key operation for the organization's numbers (off by default); false also revokes every key it minted",
    flags: [organizationFlag, { name: 'enabled', description: 'true | false', required: true, boolean: true }],
    run: (tenancy, flags) => tenancy.admin.setKeyGeneration({ organizationId: required(flags, 'org'), enabled: requiredBoolean(flags, 'enabled') }),
  }),

  'set-us-marketing-guard': defineCommand({
    summary: "Refuse (true, the default) or allow (false) MARKETING templates to US (+1) numbers and US. user ids at accept (Meta's US marketing pause)",
    flags: [organizationFlag, { name: 'enabled', description: 'true | false', required: true, boolean: true }],
    run: (tenancy, flags) => tenancy.admin.setUsMarketingGuard({ organizationId: required(flags, 'org'), enabled: requiredBoolean(flags, 'enabled') }),
  }),

  'list-generated-keys': defineCommand({
    summary: 'List the keys minted by generate-key (id, bound number, created, source IP hash, revoked; no secrets)',
    flags: [organizationFlag],
    run: (tenancy, flags) => tenancy.admin.listGeneratedKeys({ organizationId: required(flags, 'org') }),
  }),

  'revoke-generated-key': defineCommand({
    summary: 'Revoke a key minted by generate-key (its gateway key is deleted too)',
    flags: [organizationFlag, { name: 'credential-id', description: 'cred_… (from list-generated-keys)', required: true }],
    run: (tenancy, flags) => tenancy.admin.revokeGeneratedKey({ organizationId: required(flags, 'org'), credentialId: required(flags, 'credential-id') }),
  }),

  'add-employee': defineCommand({
    summary: 'Add a user to an organization (or change their role)',
    flags: [
      organizationFlag,
      { name: 'email', description: 'E-mail address', required: true },
      { name: 'role', description: 'admin | member (default member)' },
    ],
    run: (tenancy, flags) =>
      tenancy.admin.addEmployee({
        organizationId: required(flags, 'org'),
        email: required(flags, 'email'),
        role: requireOneOf<MembershipRole>(flags.role ?? 'member', membershipRoles, 'role'),
      }),
  }),

  'top-up-wallet': defineCommand({
    summary: 'Add credit to the wallet (USD)',
    flags: [organizationFlag, { name: 'amount', description: 'Decimal amount, e.g. 500.00', required: true }],
    run: async (tenancy, flags) =>
      presentWallet(await tenancy.admin.topUpWallet({ organizationId: required(flags, 'org'), amountMicros: parseDecimalToMicros(required(flags, 'amount')) })),
  }),

  'set-pricing': defineCommand({
    summary: 'Set the per-message price for a destination country calling code (USD)',
    flags: [
      { name: 'country', description: 'Country calling code, digits (1, 44, 971)', required: true },
      { name: 'marketing', description: 'Price per MARKETING message', required: true },
      { name: 'utility', description: 'Price per UTILITY message', required: true },
      { name: 'authentication', description: 'Price per AUTHENTICATION message', required: true },
    ],
    run: async (tenancy, flags) =>
      presentPricing(
        await tenancy.admin.setCountryPricing({
          countryCallingCode: required(flags, 'country'),
          pricesMicros: {
            MARKETING: parseDecimalToMicros(required(flags, 'marketing'), 'marketing'),
            UTILITY: parseDecimalToMicros(required(flags, 'utility'), 'utility'),
            AUTHENTICATION: parseDecimalToMicros(required(flags, 'authentication'), 'authentication'),
          },
        }),
      ),
  }),

  'set-subscription': defineCommand({
    summary: 'Set the broadcast subscription of an organization',
    flags: [
      organizationFlag,
      { name: 'status', description: 'active | inactive', required: true },
      planFlag,
      { name: 'period-end', description: 'End of the current period (ISO 8601)', required: true },
    ],
    run: (tenancy, flags) =>
      tenancy.admin.setSubscription({
        organizationId: required(flags, 'org'),
        status: requireOneOf<SubscriptionStatus>(required(flags, 'status'), ['active', 'inactive'], 'status'),
        plan: requirePlan(required(flags, 'plan')),
        currentPeriodEnd: required(flags, 'period-end'),
      }),
  }),

  'set-plan': defineCommand({
    summary: 'Change the plan (and optionally the API add-on) of an organization',
    flags: [organizationFlag, planFlag, { name: 'api-add-on', description: 'true | false (unchanged when omitted)', boolean: true }],
    run: (tenancy, flags) =>
      tenancy.admin.setOrganizationPlan({
        organizationId: required(flags, 'org'),
        plan: requirePlan(required(flags, 'plan')),
        apiAddOn: optionalBoolean(flags, 'api-add-on'),
      }),
  }),

  'show-organization': defineCommand({
    summary: 'Show an organization: accounts, numbers, credentials (no secrets), members, wallet, subscription',
    flags: [organizationFlag],
    run: async (tenancy, flags) => {
      const overview: OrganizationOverview = await tenancy.admin.describeOrganization(required(flags, 'org'));
      return { ...overview, wallet: overview.wallet ? presentWallet(overview.wallet) : undefined };
    },
  }),
} as const;

export type AdminCommandName = keyof typeof adminCommands;

export class UnknownAdminCommandError extends Error {
  override readonly name = 'UnknownAdminCommandError';
}

export function isAdminCommandName(name: string): name is AdminCommandName {
  return Object.hasOwn(adminCommands, name);
}

/** Runs a command by name, refusing flags it does not know (a typo must not be silently ignored). */
export async function runAdminCommand(tenancy: TenancyServices, name: string, flags: AdminFlagValues): Promise<unknown> {
  if (!isAdminCommandName(name)) throw new UnknownAdminCommandError(`Unknown command "${name}"; see --help`);
  const command: AdminCommand<unknown> = adminCommands[name];
  const known = new Set(command.flags.map((flag) => flag.name));
  const unknown = Object.keys(flags).filter((flag) => !known.has(flag));
  if (unknown.length > 0) throw new InvalidTenancyInputError(`Unknown flag(s) for ${name}: ${unknown.map((flag) => `--${flag}`).join(', ')}`);
  return command.run(tenancy, flags);
}
