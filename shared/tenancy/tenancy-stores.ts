/**
 * Persistence ports of the tenancy module, one per aggregate: exactly the access patterns the use
 * cases need (see docs/DATA-MODEL.md for how each maps onto the tenancy table; adapters:
 * shared/adapters/dynamodb/dynamodb-<port>.ts). A use case names the ports it uses
 * (`tenancy: OrganizationStore & CredentialStore`); `TenancyStores` is all of them, as the
 * compositions hand them out (shared/ports/combine-ports.ts).
 *
 * Every method throws TenancyStoreUnavailableError when the store times out or cannot be reached,
 * so the authentication path can answer 503 instead of 500. Writes are single-item and
 * conditional; multi-step operations (claims, then records) are made idempotent by the use cases.
 */
import type { ClaimedIdentifierKind } from './errors';
import type {
  BusinessAccount,
  CountryPricing,
  Credential,
  MarketingMessagesSetting,
  Membership,
  MembershipRemoval,
  Organization,
  Plan,
  PhoneNumber,
  Subscription,
  User,
  Wallet,
} from './tenancy-entities';

/** Global ownership of an identifier that must never belong to two organizations. */
export interface IdentifierClaim {
  kind: ClaimedIdentifierKind;
  value: string;
  organizationId: string;
  /** Phone-number claims carry the whole number, so global look-ups need a single read. */
  phoneNumber?: PhoneNumber;
  claimedAt: string;
}

export interface OrganizationStore {
  /** Throws OrganizationAlreadyExistsError when the id is taken. */
  createOrganization(organization: Organization): Promise<void>;
  getOrganization(organizationId: string): Promise<Organization | undefined>;
  /** Throws OrganizationNotFoundError. */
  updateOrganizationPlan(organizationId: string, change: { plan: Plan; apiAddOn: boolean; updatedAt: string }): Promise<Organization>;
  /** Throws OrganizationNotFoundError. */
  updateOrganizationKeyGeneration(organizationId: string, change: { keyGenerationEnabled: boolean; updatedAt: string }): Promise<Organization>;
  /** Sets the US marketing guard (one attribute); returns the organization as stored. Throws OrganizationNotFoundError. */
  updateOrganizationUsMarketingGuard(organizationId: string, change: { usMarketingGuard: boolean; updatedAt: string }): Promise<Organization>;
  /**
   * Suspends (`suspension` given: status `suspended`, the first `suspendedAt` kept on a repeat, the
   * reason replaced) or resumes (`suspension` undefined: status `active`, both fields removed) the
   * organization; returns it as stored. Throws OrganizationNotFoundError.
   */
  setOrganizationSuspension(
    organizationId: string,
    change: { suspension: { suspendedAt: string; reason: string } | undefined; updatedAt: string },
  ): Promise<Organization>;
}

/** Business accounts and phone numbers, and the global claims that keep each with one organization. */
export interface AccountDirectory {
  // Global identifier claims
  /**
   * Claims an identifier for an organization, or refreshes the claim it already holds.
   * `newlyClaimed` tells a caller whether to release it again if a later step fails.
   * Throws IdentifierClaimedByAnotherOrganizationError.
   */
  claimIdentifier(claim: IdentifierClaim): Promise<{ newlyClaimed: boolean }>;
  /** Removes a claim only if the organization still holds it. */
  releaseIdentifier(kind: ClaimedIdentifierKind, value: string, organizationId: string): Promise<void>;
  getIdentifierClaim(kind: ClaimedIdentifierKind, value: string): Promise<IdentifierClaim | undefined>;

  // Business accounts and phone numbers
  /** Creates or replaces (re-authorization) the organization's record of an account it has claimed. */
  putBusinessAccount(account: BusinessAccount): Promise<void>;
  getBusinessAccount(organizationId: string, wabaId: string): Promise<BusinessAccount | undefined>;
  listBusinessAccounts(organizationId: string): Promise<BusinessAccount[]>;
  /**
   * Sets status `needs-authorization` only while the stored ciphertext is still the one that failed
   * upstream; a no-op otherwise (the account was reconnected, or removed, in the meantime).
   */
  markBusinessAccountNeedsAuthorization(organizationId: string, wabaId: string, failedEncryptedAccessToken: string, at: string): Promise<void>;
  /**
   * Sets the account's Marketing Messages API setting (one attribute: a concurrent reconnection or
   * needs-authorization mark is never undone); returns the account as stored. Throws BusinessAccountNotFoundError.
   */
  setBusinessAccountMarketingMessages(
    organizationId: string,
    wabaId: string,
    change: { marketingMessages: MarketingMessagesSetting; updatedAt: string },
  ): Promise<BusinessAccount>;
  putPhoneNumber(phoneNumber: PhoneNumber): Promise<void>;
  listPhoneNumbers(organizationId: string): Promise<PhoneNumber[]>;
  /** Global, by digits: which organization owns a sender number (key generation). */
  findPhoneNumberByDigits(digits: string): Promise<PhoneNumber | undefined>;
  /** Global, by upstream id: the /upstream wrapper's isolation check. */
  findPhoneNumberById(phoneNumberId: string): Promise<PhoneNumber | undefined>;
}

export interface CredentialStore {
  /** Throws if a credential with the same hash exists (a 256-bit collision would be a bug, not luck). */
  putCredential(credential: Credential): Promise<void>;
  /** Strongly consistent: a credential works immediately after it is issued. */
  getCredentialByHash(secretHash: string): Promise<Credential | undefined>;
  /** Through the index; may lag a freshly issued credential by a moment. Ordered by credential id. */
  listCredentials(organizationId: string): Promise<Credential[]>;
  findCredentialById(organizationId: string, credentialId: string): Promise<Credential | undefined>;
  /** Sets revokedAt unless already revoked; returns the credential as stored afterwards. */
  revokeCredential(secretHash: string, organizationId: string, revokedAt: string): Promise<Credential>;

  // The organization's slots for keys minted by generate-key (the cap: shared/tenancy/generated-keys.ts)
  /**
   * Takes one of the organization's `limit` slots for `holder`, in one conditional write of one
   * item: true when the holder has a slot (taken now, or already held: an SDK retry of an applied
   * write finds its own holder), false when all `limit` are held by others.
   */
  holdGeneratedKeySlot(organizationId: string, holder: string, limit: number): Promise<boolean>;
  /** Gives the holder's slot back; a no-op when it holds none. */
  releaseGeneratedKeySlot(organizationId: string, holder: string): Promise<void>;
  /** The holders of the organization's slots (strongly consistent), sorted. */
  listGeneratedKeySlots(organizationId: string): Promise<string[]>;
}

/** Users, their memberships of organizations (employees) and the audit of removals. */
export interface MembershipStore {
  /** Creates the user unless one with that e-mail exists. */
  putUserIfAbsent(user: User): Promise<void>;
  getUser(email: string): Promise<User | undefined>;
  /** Creates or updates (role change) a membership. */
  putMembership(membership: Membership): Promise<void>;
  /** Creates the membership unless the organization already has one for that e-mail (single-item conditional write); false when it had. */
  putMembershipIfAbsent(membership: Membership): Promise<boolean>;
  getMembership(organizationId: string, email: string): Promise<Membership | undefined>;
  listMembershipsOfOrganization(organizationId: string): Promise<Membership[]>;
  /** Through the index: the organizations a user belongs to. */
  listMembershipsOfUser(email: string): Promise<Membership[]>;
  /**
   * Writes the audit record, then deletes the membership. Returns undefined (and writes nothing)
   * when there was no membership. The audit record is written first so that a failure in between
   * leaves an audit entry too many rather than a removal without one.
   */
  removeMembership(organizationId: string, email: string, audit: { removedAt: string; removedBy: string }): Promise<MembershipRemoval | undefined>;
  listMembershipRemovals(organizationId: string): Promise<MembershipRemoval[]>;
}

/** Wallets, country pricing and subscriptions. */
export interface BillingStore {
  // Wallet
  getWallet(organizationId: string): Promise<Wallet | undefined>;
  /** Adds to the balance, creating the wallet at zero first if needed. */
  creditWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet>;
  /**
   * Subtracts only if the balance covers the amount, in one conditional update, so concurrent
   * debits can never overdraw. Throws InsufficientBalanceError.
   */
  debitWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet>;

  // Pricing
  putCountryPricing(pricing: CountryPricing): Promise<void>;
  getCountryPricing(countryCallingCode: string): Promise<CountryPricing | undefined>;
  listCountryPricing(): Promise<CountryPricing[]>;

  // Subscriptions
  putSubscription(subscription: Subscription): Promise<void>;
  getSubscription(organizationId: string): Promise<Subscription | undefined>;
}

/** Every tenancy store: what the tenancy services hold (`TenancyPorts.tenancy`, `TenancyServices.repository`). */
export type TenancyStores = OrganizationStore & AccountDirectory & CredentialStore & MembershipStore & BillingStore;
