/**
 * The tenancy use cases bound to their ports: what handlers, the admin CLI and the local runtime
 * call (`services.tenancy.authenticate(kind, secret)`). Built by functions/composition.ts.
 */
import {
  addPhoneNumber,
  connectBusinessAccount,
  decryptBusinessAccountToken,
  decryptUpstreamAccessToken,
  markBusinessAccountNeedsAuthorization,
  setMarketingMessages,
  type AddPhoneNumberInput,
  type ConnectBusinessAccountInput,
  type SetMarketingMessagesInput,
} from './business-account-use-cases';
import { chargeWallet, setCountryPricing, topUpWallet, type SetCountryPricingInput } from './billing-use-cases';
import {
  authenticateCredential,
  issueCredential,
  revokeCredential,
  type AuthenticatedCaller,
  type IssueCredentialInput,
  type IssuedCredential,
} from './credential-use-cases';
import {
  issueBroadcastKeyForPhoneNumber,
  listGeneratedKeys,
  revokeGeneratedKey,
  setKeyGeneration,
  type GeneratedKeySummary,
  type KeyGenerationSetting,
} from './generated-keys';
import { bindOrganizationApiKeys, type OrganizationApiKeys } from './organization-api-keys';
import { addEmployee, removeEmployees, type AddEmployeeInput, type RemoveEmployeesInput, type RemoveEmployeesResult } from './membership-use-cases';
import {
  createOrganization,
  describeOrganization,
  setOrganizationPlan,
  setSubscription,
  type BusinessAccountSummary,
  type CreateOrganizationInput,
  type OrganizationOverview,
  type SetOrganizationPlanInput,
  type SetSubscriptionInput,
} from './organization-use-cases';
import type {
  BusinessAccount,
  CountryPricing,
  CredentialKind,
  CredentialSummary,
  Membership,
  Organization,
  PhoneNumber,
  Subscription,
  Wallet,
} from './tenancy-entities';
import { InvalidCredentialError, OrganizationSuspendedError } from './errors';
import { setUsMarketingGuard } from './us-marketing-guard-setting';
import type { TenancyPorts } from './ports';
import type { TenancyStores } from './tenancy-stores';

export interface TenancyAdministration {
  createOrganization(input: CreateOrganizationInput): Promise<Organization>;
  setOrganizationPlan(input: SetOrganizationPlanInput): Promise<Organization>;
  setSubscription(input: SetSubscriptionInput): Promise<Subscription>;
  /**
   * Allows (or stops) the public generate-key operation for the organization's numbers; off by
   * default. Turning it off revokes every live minted key (their ids in `revokedGeneratedKeys`).
   */
  setKeyGeneration(input: { organizationId: string; enabled: boolean }): Promise<KeyGenerationSetting>;
  /** Turns the refusal of MARKETING templates to US (+1) recipients on (the default) or off. */
  setUsMarketingGuard(input: { organizationId: string; enabled: boolean }): Promise<Organization>;
  /** Keys minted by generate-key: id, bound number, created time, source IP hash; nothing secret. */
  listGeneratedKeys(input: { organizationId: string }): Promise<GeneratedKeySummary[]>;
  /** Revokes a key minted by generate-key (any other credential id is "not found"). */
  revokeGeneratedKey(input: { organizationId: string; credentialId: string }): Promise<GeneratedKeySummary>;
  connectBusinessAccount(input: ConnectBusinessAccountInput): Promise<BusinessAccountSummary>;
  addPhoneNumber(input: AddPhoneNumberInput): Promise<PhoneNumber>;
  /** Whether the account's MARKETING broadcasts go through Meta's Marketing Messages API (`auto` | `enabled` | `disabled`). */
  setMarketingMessages(input: SetMarketingMessagesInput): Promise<BusinessAccountSummary>;
  issueCredential(input: IssueCredentialInput): Promise<IssuedCredential>;
  revokeCredential(input: { organizationId: string; credentialId: string }): Promise<CredentialSummary>;
  addEmployee(input: AddEmployeeInput): Promise<Membership>;
  topUpWallet(input: { organizationId: string; amountMicros: number }): Promise<Wallet>;
  setCountryPricing(input: SetCountryPricingInput): Promise<CountryPricing>;
  describeOrganization(organizationId: string): Promise<OrganizationOverview>;
}

export interface TenancyServices {
  /** Throws InvalidCredentialError, OrganizationSuspendedError, PlanDoesNotIncludeFeatureError or CredentialStoreUnavailableError. */
  authenticate(kind: CredentialKind, presentedSecret: string | undefined | null): Promise<AuthenticatedCaller>;
  /** Plaintext upstream token of one of the organization's accounts (KMS calls cached ~5 minutes). */
  decryptUpstreamAccessToken(organizationId: string, wabaId: string): Promise<string>;
  /** Same, for an account the caller has already loaded. */
  decryptBusinessAccountToken(account: BusinessAccount): Promise<string>;
  markBusinessAccountNeedsAuthorization(account: Pick<BusinessAccount, 'organizationId' | 'wabaId' | 'encryptedAccessToken'>): Promise<void>;
  /**
   * The local gateway's stand-in for API Gateway's key list: is this a live broadcast key?
   * False for any refusal; store outages are thrown. A key of a suspended organization stays
   * enabled, as its API Gateway key does on AWS: the function answers it 403 ORGANIZATION_SUSPENDED.
   */
  isBroadcastApiKeyEnabled(apiKey: string): Promise<boolean>;
  /** The earlier public `generate-key` operation (`sourceIp` is kept only as a hash). */
  issueBroadcastKeyForPhoneNumber(input: { phoneNumber: string; sourceIp?: string }): Promise<IssuedCredential>;
  removeEmployees(input: RemoveEmployeesInput): Promise<RemoveEmployeesResult>;
  /** Throws InsufficientBalanceError instead of overdrawing. */
  chargeWallet(input: { organizationId: string; amountMicros: number }): Promise<Wallet>;
  /** The organization's own broadcast keys: list, issue, revoke (docs/PEOPLE.md "API keys"). */
  organizationApiKeys: OrganizationApiKeys;
  /** Read access for handlers (phone numbers of an organization, pricing, subscription, …). */
  repository: TenancyStores;
  /** Operator actions (admin CLI, demo seed). */
  admin: TenancyAdministration;
}

/**
 * Ports are read at call time, not at bind time, so a composition root can hand in lazy getters:
 * binding costs nothing, and e.g. the KMS client is only built by the first decryption.
 */
export function bindTenancyServices(ports: TenancyPorts): TenancyServices {
  return {
    authenticate: (kind, secret) => authenticateCredential(ports, kind, secret),
    decryptUpstreamAccessToken: (organizationId, wabaId) => decryptUpstreamAccessToken(ports, { organizationId, wabaId }),
    decryptBusinessAccountToken: (account) => decryptBusinessAccountToken(ports, account),
    markBusinessAccountNeedsAuthorization: (account) => markBusinessAccountNeedsAuthorization(ports, account),
    isBroadcastApiKeyEnabled: (apiKey) =>
      authenticateCredential(ports, 'broadcast-api-key', apiKey).then(
        () => true,
        (error: unknown) => {
          if (error instanceof OrganizationSuspendedError) return true;
          if (error instanceof InvalidCredentialError) return false;
          throw error;
        },
      ),
    issueBroadcastKeyForPhoneNumber: (input) => issueBroadcastKeyForPhoneNumber(ports, input),
    removeEmployees: (input) => removeEmployees(ports, input),
    chargeWallet: (input) => chargeWallet(ports, input),
    organizationApiKeys: bindOrganizationApiKeys(ports),
    get repository() {
      return ports.tenancy;
    },
    admin: {
      createOrganization: (input) => createOrganization(ports, input),
      setOrganizationPlan: (input) => setOrganizationPlan(ports, input),
      setSubscription: (input) => setSubscription(ports, input),
      setKeyGeneration: (input) => setKeyGeneration(ports, input),
      setUsMarketingGuard: (input) => setUsMarketingGuard(ports, input),
      listGeneratedKeys: (input) => listGeneratedKeys(ports, input),
      revokeGeneratedKey: (input) => revokeGeneratedKey(ports, input),
      connectBusinessAccount: (input) => connectBusinessAccount(ports, input),
      addPhoneNumber: (input) => addPhoneNumber(ports, input),
      setMarketingMessages: (input) => setMarketingMessages(ports, input),
      issueCredential: (input) => issueCredential(ports, input),
      revokeCredential: (input) => revokeCredential(ports, input),
      addEmployee: (input) => addEmployee(ports, input),
      topUpWallet: (input) => topUpWallet(ports, input),
      setCountryPricing: (input) => setCountryPricing(ports, input),
      describeOrganization: (organizationId) => describeOrganization(ports, organizationId),
    },
  };
}
