/**
 * The tenancy domain: who the customers are, what they connected, and which credentials act for them.
 * Plain data; persistence lives behind the tenancy stores (tenancy-stores.ts).
 */
import type { CredentialAuthKind, V1Plan } from '../../runtime-contract/route-manifest';

export type Plan = V1Plan;
export const plans: readonly Plan[] = ['starter', 'professional', 'enterprise'];

export type OrganizationStatus = 'active' | 'suspended';

export interface Organization {
  /** `org_…` */
  organizationId: string;
  name: string;
  plan: Plan;
  /** Grants the v1 API below the enterprise plan. */
  apiAddOn: boolean;
  /**
   * `suspended`: an operator's kill switch (suspend-organization): every credential of the
   * organization is refused with 403 ORGANIZATION_SUSPENDED until resume-organization.
   */
  status: OrganizationStatus;
  /** While suspended: when it was suspended (the first suspension's time; a repeat keeps it). */
  suspendedAt?: string;
  /** While suspended: the operator's reason, for the record (never shown to the organization's callers). */
  suspensionReason?: string;
  /**
   * The last resume-organization's time (removed by a suspension): what a suspension's later pass
   * reports when it finds the organization resumed (shared/organizations/organization-suspension.ts).
   */
  resumedAt?: string;
  /**
   * Whether the public, unauthenticated generate-key operation may issue keys for this
   * organization's numbers. Off unless an operator turned it on (absent means off).
   */
  keyGenerationEnabled?: boolean;
  /**
   * Whether MARKETING templates to US (+1) numbers and `US.` business-scoped user ids are refused at
   * accept (Meta's US marketing pause; shared/broadcast/us-marketing-guard.ts). On unless an
   * operator turned it off (set-us-marketing-guard); absent means on.
   */
  usMarketingGuard?: boolean;
  createdAt: string;
  updatedAt: string;
}

/** Contract: the v1 API is available on the enterprise plan or with the API add-on. */
export function hasV1ApiAccess(organization: Pick<Organization, 'plan' | 'apiAddOn'>): boolean {
  return organization.plan === 'enterprise' || organization.apiAddOn;
}

export type BusinessAccountStatus = 'active' | 'needs-authorization';

/**
 * Whether the account's MARKETING template broadcasts go through Meta's Marketing Messages API
 * (`/marketing_messages`): `enabled` always, `disabled` never, `auto` when Meta reports the account
 * `ONBOARDED` (docs/BROADCAST.md "Marketing Messages API"). Set by `set-marketing-messages`.
 */
export const marketingMessagesSettings = ['auto', 'enabled', 'disabled'] as const;
export type MarketingMessagesSetting = (typeof marketingMessagesSettings)[number];
/** What an account without the attribute (every record written before it existed) means. */
export const DEFAULT_MARKETING_MESSAGES: MarketingMessagesSetting = 'auto';

/** A WhatsApp Business Account connected to an organization. */
export interface BusinessAccount {
  organizationId: string;
  wabaId: string;
  businessId: string;
  name: string;
  /** Output of TokenCipher.encrypt, bound to { organizationId, wabaId }. Never the plaintext. */
  encryptedAccessToken: string;
  status: BusinessAccountStatus;
  /** Sending pace for the whole account (messages per second); the platform default when absent. */
  messagesPerSecond?: number;
  /** The Marketing Messages API setting; absent: `auto` (DEFAULT_MARKETING_MESSAGES). */
  marketingMessages?: MarketingMessagesSetting;
  connectedAt: string;
  updatedAt: string;
}

export interface PhoneNumber {
  organizationId: string;
  wabaId: string;
  /** International number, digits only (what the public API calls phone_number / fromPhoneNumber). */
  digits: string;
  /** The upstream identifier of the number. */
  phoneNumberId: string;
  addedAt: string;
}

export type CredentialKind = CredentialAuthKind;
export const credentialKinds: readonly CredentialKind[] = ['broadcast-api-key', 'organization-token', 'upstream-access-token', 'v1-api-key'];

/** Visible prefixes make a leaked secret recognizable (secret scanners) and tell the kinds apart. */
export const credentialPrefixes: Record<CredentialKind, string> = {
  'broadcast-api-key': 'wbk_',
  'organization-token': 'wot_',
  'upstream-access-token': 'wat_',
  'v1-api-key': 'wv1_',
};

export interface Credential {
  /** `cred_…`; safe to show and log. */
  credentialId: string;
  kind: CredentialKind;
  /** SHA-256 of the secret (hex). The secret itself is never stored. */
  secretHash: string;
  organizationId: string;
  /** Broadcast keys only: the one sender number the key may use. */
  boundPhoneNumber?: string;
  /** API Gateway key id of a broadcast key registered in a usage plan (AWS only). */
  gatewayApiKeyId?: string;
  /** How the credential came to be: absent for an operator's admin command. */
  origin?: CredentialOrigin;
  /** generate-key only: SHA-256 of the caller's source IP (pseudonymous; see docs/FREEFORM-AND-EARLIER.md). */
  sourceIpHash?: string;
  expiresAt?: string;
  revokedAt?: string;
  createdAt: string;
}

/**
 * `generate-key`: minted by the public earlier operation, without any credential of the organization;
 * `organization-admin`: issued by the organization itself (an admin's sign-in or its own key, `POST /api-keys`).
 */
export type CredentialOrigin = 'generate-key' | 'organization-admin';

/**
 * What a key minted by generate-key holds its organization's slot as (CredentialStore's slots, the
 * cap of shared/tenancy/generated-keys.ts): its creation time first, so a slot whose key was never
 * stored (the minting died in between) can be told old enough to take back.
 *
 * @example
 * generatedKeySlotHolder({ createdAt: '2026-03-01T09:00:00.000Z', credentialId: 'cred_1' }); // '2026-03-01T09:00:00.000Z cred_1'
 */
export function generatedKeySlotHolder(credential: Pick<Credential, 'createdAt' | 'credentialId'>): string {
  return `${credential.createdAt} ${credential.credentialId}`;
}

/**
 * What a credential may act on. Derived from the stored credential at every authentication, so a
 * rule change applies to keys that already exist. The broadcast module decides what each scope may
 * call (shared/broadcast/key-scope.ts).
 *
 * - `organization`: every sender and operation of the organization (unbound keys, other kinds);
 * - `sender`: one sender number, every broadcast operation (an operator bound the key);
 * - `earlier-sender`: one sender number, only the earlier operations (a key minted by generate-key).
 */
export type KeyScope = { kind: 'organization' } | { kind: 'sender'; phoneNumber: string } | { kind: 'earlier-sender'; phoneNumber: string };

export function scopeOfCredential(credential: Pick<Credential, 'boundPhoneNumber' | 'origin'>): KeyScope {
  // Origin first: a minted key never widens to the organization, even if its number went missing
  // (an empty number matches no sender, so such a key can do nothing).
  if (credential.origin === 'generate-key') return { kind: 'earlier-sender', phoneNumber: credential.boundPhoneNumber ?? '' };
  if (credential.boundPhoneNumber === undefined) return { kind: 'organization' };
  return { kind: 'sender', phoneNumber: credential.boundPhoneNumber };
}

/** A credential as it may be shown to operators: everything but the hash. */
export type CredentialSummary = Omit<Credential, 'secretHash'>;

export function summarizeCredential({ secretHash: _hash, ...summary }: Credential): CredentialSummary {
  return summary;
}

export interface User {
  /** Normalized: trimmed, lower case. */
  email: string;
  createdAt: string;
}

export type MembershipRole = 'admin' | 'member';
export const membershipRoles: readonly MembershipRole[] = ['admin', 'member'];

/** A person's console role (shared/people/person-role.ts `PersonRole`), spelled here: the people module builds on tenancy, not the reverse. */
export type ConsoleRole = 'viewer' | 'campaign-manager' | 'admin';

export interface Membership {
  organizationId: string;
  email: string;
  role: MembershipRole;
  joinedAt: string;
  /**
   * The person's role in the console and the broadcast API (shared/people/person.ts `consoleRoleOf`:
   * absent reads as `admin` for an `admin` employee, `viewer` otherwise).
   */
  consoleRole?: ConsoleRole;
  /**
   * The API Gateway usage-plan key that meters this person's requests (created when they are
   * invited; docs/PEOPLE.md "Metering"). Not a credential: the gateway's authorizer names it as the
   * usage identifier after checking the person's token; presented as `x-api-key` it authenticates nothing.
   */
  usagePlanKey?: { id: string; value: string };
}

/** Audit trail of a removal; kept after the membership itself is gone. */
export interface MembershipRemoval {
  organizationId: string;
  email: string;
  role: MembershipRole;
  joinedAt: string;
  removedAt: string;
  /** Credential (or operator) that asked for the removal. */
  removedBy: string;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Deliberately loose: one @, something on each side, no spaces. Delivery is what proves an address. */
export function isPlausibleEmail(email: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email);
}

export type Currency = 'USD';

export interface Wallet {
  organizationId: string;
  /** Integer micro-units (1 USD = 1,000,000) so sums of per-message prices stay exact. */
  balanceMicros: number;
  currency: Currency;
  updatedAt: string;
}

export type MessageCategory = 'MARKETING' | 'UTILITY' | 'AUTHENTICATION';
export const messageCategories: readonly MessageCategory[] = ['MARKETING', 'UTILITY', 'AUTHENTICATION'];

/** Price per message sent to a destination country, by template category. */
export interface CountryPricing {
  /** Country calling code, digits only (`1`, `44`, `971`). */
  countryCallingCode: string;
  pricesMicros: Record<MessageCategory, number>;
  currency: Currency;
  updatedAt: string;
}

export type SubscriptionStatus = 'active' | 'inactive';

export interface Subscription {
  organizationId: string;
  status: SubscriptionStatus;
  plan: Plan;
  currentPeriodEnd: string;
  updatedAt: string;
}

/** Broadcasts need an active subscription whose period has not ended (checked here, not by a status flip job). */
export function isSubscriptionActive(subscription: Subscription | undefined, now: Date): boolean {
  return subscription?.status === 'active' && Date.parse(subscription.currentPeriodEnd) > now.getTime();
}
