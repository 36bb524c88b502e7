import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import { OrganizationNotFoundError } from './errors';
import {
  DEFAULT_MARKETING_MESSAGES,
  summarizeCredential,
  type BusinessAccount,
  type CredentialSummary,
  type Membership,
  type Organization,
  type PhoneNumber,
  type Plan,
  type Subscription,
  type SubscriptionStatus,
  type Wallet,
} from './tenancy-entities';
import { requireInstant, requireOneOf, requirePlan, requireText } from './tenancy-input';
import type { AccountDirectory, BillingStore, CredentialStore, MembershipStore, OrganizationStore } from './tenancy-stores';

export interface CreateOrganizationInput {
  name: string;
  plan: Plan;
  apiAddOn?: boolean;
}

export async function createOrganization(
  ports: { tenancy: OrganizationStore; clock: Clock; ids: IdGenerator },
  input: CreateOrganizationInput,
): Promise<Organization> {
  const now = ports.clock.now().toISOString();
  const organization: Organization = {
    organizationId: ports.ids.newId('org'),
    name: requireText(input.name, 'name'),
    plan: requirePlan(input.plan),
    apiAddOn: input.apiAddOn ?? false,
    status: 'active',
    createdAt: now,
    updatedAt: now,
  };
  await ports.tenancy.createOrganization(organization);
  return organization;
}

export async function requireOrganization(tenancy: Pick<OrganizationStore, 'getOrganization'>, organizationId: string): Promise<Organization> {
  const organization = await tenancy.getOrganization(organizationId);
  if (!organization) throw new OrganizationNotFoundError(organizationId);
  return organization;
}

export interface SetOrganizationPlanInput {
  organizationId: string;
  plan: Plan;
  /** Left unchanged when omitted. */
  apiAddOn?: boolean;
}

export async function setOrganizationPlan(ports: { tenancy: OrganizationStore; clock: Clock }, input: SetOrganizationPlanInput): Promise<Organization> {
  const plan = requirePlan(input.plan);
  const apiAddOn = input.apiAddOn ?? (await requireOrganization(ports.tenancy, input.organizationId)).apiAddOn;
  return ports.tenancy.updateOrganizationPlan(input.organizationId, { plan, apiAddOn, updatedAt: ports.clock.now().toISOString() });
}

/**
 * The tenancy half of the kill switch (the whole command: shared/organizations/organization-suspension.ts):
 * marks the organization suspended, after which authentication refuses every credential of it with
 * OrganizationSuspendedError on every surface. Suspending again keeps the first `suspendedAt` and
 * records the new reason. Throws OrganizationNotFoundError, InvalidTenancyInputError (no reason).
 *
 * @example
 * await suspendOrganizationRecord(ports, { organizationId: 'org_1', reason: 'Unpaid invoices' });
 */
export async function suspendOrganizationRecord(
  ports: { tenancy: OrganizationStore; clock: Clock },
  input: { organizationId: string; reason: string },
): Promise<Organization> {
  const reason = requireText(input.reason, 'reason');
  const now = ports.clock.now().toISOString();
  return ports.tenancy.setOrganizationSuspension(input.organizationId, { suspension: { suspendedAt: now, reason }, updatedAt: now });
}

/**
 * Lifts a suspension: the organization's credentials work again. Jobs the suspension cancelled stay
 * cancelled. Resuming an active organization changes nothing but `updatedAt`.
 *
 * @example
 * await resumeOrganizationRecord(ports, { organizationId: 'org_1' });
 */
export async function resumeOrganizationRecord(ports: { tenancy: OrganizationStore; clock: Clock }, input: { organizationId: string }): Promise<Organization> {
  return ports.tenancy.setOrganizationSuspension(input.organizationId, { suspension: undefined, updatedAt: ports.clock.now().toISOString() });
}

export interface SetSubscriptionInput {
  organizationId: string;
  status: SubscriptionStatus;
  plan: Plan;
  /** ISO 8601; broadcasts stop being allowed at this instant even if status stays `active`. */
  currentPeriodEnd: string;
}

export async function setSubscription(ports: { tenancy: OrganizationStore & BillingStore; clock: Clock }, input: SetSubscriptionInput): Promise<Subscription> {
  await requireOrganization(ports.tenancy, input.organizationId);
  const subscription: Subscription = {
    organizationId: input.organizationId,
    status: requireOneOf(input.status, ['active', 'inactive'] as const, 'status'),
    plan: requirePlan(input.plan),
    currentPeriodEnd: requireInstant(input.currentPeriodEnd, 'currentPeriodEnd'),
    updatedAt: ports.clock.now().toISOString(),
  };
  await ports.tenancy.putSubscription(subscription);
  return subscription;
}

/** A business account as it may be shown: without the encrypted token. */
export type BusinessAccountSummary = Omit<BusinessAccount, 'encryptedAccessToken' | 'marketingMessages'> & Required<Pick<BusinessAccount, 'marketingMessages'>>;

/** An account as operators see it: no token, and its Marketing Messages API setting spelled out (`auto` when never set). */
export function summarizeBusinessAccount({ encryptedAccessToken: _token, ...summary }: BusinessAccount): BusinessAccountSummary {
  return { ...summary, marketingMessages: summary.marketingMessages ?? DEFAULT_MARKETING_MESSAGES };
}

export interface OrganizationOverview {
  organization: Organization;
  businessAccounts: BusinessAccountSummary[];
  phoneNumbers: PhoneNumber[];
  credentials: CredentialSummary[];
  members: Membership[];
  wallet?: Wallet;
  subscription?: Subscription;
}

/** Everything an operator may see about an organization; no hashes, no tokens, encrypted or not. */
export async function describeOrganization(
  ports: { tenancy: OrganizationStore & AccountDirectory & CredentialStore & MembershipStore & BillingStore },
  organizationId: string,
): Promise<OrganizationOverview> {
  const organization = await requireOrganization(ports.tenancy, organizationId);
  const [businessAccounts, phoneNumbers, credentials, members, wallet, subscription] = await Promise.all([
    ports.tenancy.listBusinessAccounts(organizationId),
    ports.tenancy.listPhoneNumbers(organizationId),
    ports.tenancy.listCredentials(organizationId),
    ports.tenancy.listMembershipsOfOrganization(organizationId),
    ports.tenancy.getWallet(organizationId),
    ports.tenancy.getSubscription(organizationId),
  ]);
  return {
    organization,
    businessAccounts: businessAccounts.map(summarizeBusinessAccount),
    phoneNumbers,
    credentials: credentials.map(summarizeCredential),
    members,
    wallet,
    subscription,
  };
}
