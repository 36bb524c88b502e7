/**
 * An in-memory TenancyRepository with the same observable semantics as the DynamoDB adapter
 * (conditional writes, claims, no-overdraft debits), for unit tests of anything that uses tenancy.
 *
 * It records every value written, so tests can assert that secrets never reach storage, and can
 * be told to fail like an unreachable store.
 */
import {
  CredentialNotFoundError,
  IdentifierClaimedByAnotherOrganizationError,
  InsufficientBalanceError,
  OrganizationAlreadyExistsError,
  OrganizationNotFoundError,
  TenancyStoreUnavailableError,
  type ClaimedIdentifierKind,
} from '../../shared/tenancy/errors';
import type {
  BusinessAccount,
  CountryPricing,
  Credential,
  Membership,
  MembershipRemoval,
  Organization,
  PhoneNumber,
  Plan,
  Subscription,
  User,
  Wallet,
} from '../../shared/tenancy/tenancy-entities';
import type { IdentifierClaim, TenancyRepository } from '../../shared/tenancy/tenancy-repository';

/** Deep copy without undefined properties, as DynamoDB with removeUndefinedValues would store it. */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Lists come back in the adapter's sort-key order (a string order on the key the adapter queries by). */
const inKeyOrder =
  <T>(key: (value: T) => string) =>
  (left: T, right: T): number =>
    key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0;

export class InMemoryTenancyRepository implements TenancyRepository {
  readonly organizations = new Map<string, Organization>();
  readonly claims = new Map<string, IdentifierClaim>();
  readonly businessAccounts = new Map<string, BusinessAccount>();
  readonly phoneNumbers = new Map<string, PhoneNumber>();
  readonly credentials = new Map<string, Credential>();
  readonly users = new Map<string, User>();
  readonly memberships = new Map<string, Membership>();
  readonly removals: MembershipRemoval[] = [];
  readonly wallets = new Map<string, Wallet>();
  readonly pricing = new Map<string, CountryPricing>();
  readonly subscriptions = new Map<string, Subscription>();

  /** JSON of every value handed to a write method, in order. */
  readonly writes: string[] = [];
  /** Number of calls per method name. */
  readonly calls = new Map<string, number>();
  /** When set, every call throws this (e.g. a TenancyStoreUnavailableError). */
  failure?: Error;

  private touch(method: string, written?: unknown): void {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    if (this.failure) throw this.failure;
    if (written !== undefined) this.writes.push(JSON.stringify(written));
  }

  callCount(method: keyof TenancyRepository): number {
    return this.calls.get(method) ?? 0;
  }

  /** Everything ever written, as one string to search for leaked secrets. */
  everythingWritten(): string {
    return this.writes.join('\n');
  }

  makeUnavailable(): void {
    this.failure = new TenancyStoreUnavailableError('Tenancy store unavailable: TimeoutError');
  }

  async createOrganization(organization: Organization): Promise<void> {
    this.touch('createOrganization', organization);
    if (this.organizations.has(organization.organizationId)) throw new OrganizationAlreadyExistsError(organization.organizationId);
    this.organizations.set(organization.organizationId, stored(organization));
  }

  async getOrganization(organizationId: string): Promise<Organization | undefined> {
    this.touch('getOrganization');
    const organization = this.organizations.get(organizationId);
    return organization && stored(organization);
  }

  async updateOrganizationPlan(organizationId: string, change: { plan: Plan; apiAddOn: boolean; updatedAt: string }): Promise<Organization> {
    this.touch('updateOrganizationPlan', change);
    const organization = this.organizations.get(organizationId);
    if (!organization) throw new OrganizationNotFoundError(organizationId);
    Object.assign(organization, change);
    return stored(organization);
  }

  async updateOrganizationKeyGeneration(organizationId: string, change: { keyGenerationEnabled: boolean; updatedAt: string }): Promise<Organization> {
    this.touch('updateOrganizationKeyGeneration', change);
    const organization = this.organizations.get(organizationId);
    if (!organization) throw new OrganizationNotFoundError(organizationId);
    Object.assign(organization, change);
    return stored(organization);
  }

  async claimIdentifier(claim: IdentifierClaim): Promise<{ newlyClaimed: boolean }> {
    this.touch('claimIdentifier', claim);
    const key = `${claim.kind}#${claim.value}`;
    const existing = this.claims.get(key);
    if (existing && existing.organizationId !== claim.organizationId) throw new IdentifierClaimedByAnotherOrganizationError(claim.kind, claim.value);
    this.claims.set(key, stored(claim));
    return { newlyClaimed: existing === undefined };
  }

  async releaseIdentifier(kind: ClaimedIdentifierKind, value: string, organizationId: string): Promise<void> {
    this.touch('releaseIdentifier');
    const key = `${kind}#${value}`;
    if (this.claims.get(key)?.organizationId === organizationId) this.claims.delete(key);
  }

  async getIdentifierClaim(kind: ClaimedIdentifierKind, value: string): Promise<IdentifierClaim | undefined> {
    this.touch('getIdentifierClaim');
    const claim = this.claims.get(`${kind}#${value}`);
    return claim && stored(claim);
  }

  async putBusinessAccount(account: BusinessAccount): Promise<void> {
    this.touch('putBusinessAccount', account);
    this.businessAccounts.set(`${account.organizationId}#${account.wabaId}`, stored(account));
  }

  async getBusinessAccount(organizationId: string, wabaId: string): Promise<BusinessAccount | undefined> {
    this.touch('getBusinessAccount');
    const account = this.businessAccounts.get(`${organizationId}#${wabaId}`);
    return account && stored(account);
  }

  async listBusinessAccounts(organizationId: string): Promise<BusinessAccount[]> {
    this.touch('listBusinessAccounts');
    return [...this.businessAccounts.values()]
      .filter((account) => account.organizationId === organizationId)
      .sort(inKeyOrder((account) => account.wabaId))
      .map(stored);
  }

  async markBusinessAccountNeedsAuthorization(organizationId: string, wabaId: string, failedEncryptedAccessToken: string, at: string): Promise<void> {
    this.touch('markBusinessAccountNeedsAuthorization', { organizationId, wabaId, at });
    const account = this.businessAccounts.get(`${organizationId}#${wabaId}`);
    if (account?.encryptedAccessToken === failedEncryptedAccessToken) Object.assign(account, { status: 'needs-authorization', updatedAt: at });
  }

  async putPhoneNumber(phoneNumber: PhoneNumber): Promise<void> {
    this.touch('putPhoneNumber', phoneNumber);
    this.phoneNumbers.set(`${phoneNumber.organizationId}#${phoneNumber.digits}`, stored(phoneNumber));
  }

  async listPhoneNumbers(organizationId: string): Promise<PhoneNumber[]> {
    this.touch('listPhoneNumbers');
    return [...this.phoneNumbers.values()]
      .filter((phone) => phone.organizationId === organizationId)
      .sort(inKeyOrder((phone) => phone.digits))
      .map(stored);
  }

  async findPhoneNumberByDigits(digits: string): Promise<PhoneNumber | undefined> {
    this.touch('findPhoneNumberByDigits');
    const phone = this.claims.get(`phone-number-digits#${digits}`)?.phoneNumber;
    return phone && stored(phone);
  }

  async findPhoneNumberById(phoneNumberId: string): Promise<PhoneNumber | undefined> {
    this.touch('findPhoneNumberById');
    const phone = this.claims.get(`phone-number-id#${phoneNumberId}`)?.phoneNumber;
    return phone && stored(phone);
  }

  async putCredential(credential: Credential): Promise<void> {
    this.touch('putCredential', credential);
    if (this.credentials.has(credential.secretHash)) throw new Error('ConditionalCheckFailedException');
    this.credentials.set(credential.secretHash, stored(credential));
  }

  async getCredentialByHash(secretHash: string): Promise<Credential | undefined> {
    this.touch('getCredentialByHash');
    const credential = this.credentials.get(secretHash);
    return credential && stored(credential);
  }

  async listCredentials(organizationId: string): Promise<Credential[]> {
    this.touch('listCredentials');
    return [...this.credentials.values()]
      .filter((credential) => credential.organizationId === organizationId)
      .sort(inKeyOrder((credential) => credential.credentialId))
      .map(stored);
  }

  async findCredentialById(organizationId: string, credentialId: string): Promise<Credential | undefined> {
    this.touch('findCredentialById');
    const credential = [...this.credentials.values()].find(
      (candidate) => candidate.organizationId === organizationId && candidate.credentialId === credentialId,
    );
    return credential && stored(credential);
  }

  async revokeCredential(secretHash: string, organizationId: string, revokedAt: string): Promise<Credential> {
    this.touch('revokeCredential', { secretHash, revokedAt });
    const credential = this.credentials.get(secretHash);
    if (credential?.organizationId !== organizationId) throw new CredentialNotFoundError('(by hash)');
    credential.revokedAt ??= revokedAt;
    return stored(credential);
  }

  async putUserIfAbsent(user: User): Promise<void> {
    this.touch('putUserIfAbsent', user);
    if (!this.users.has(user.email)) this.users.set(user.email, stored(user));
  }

  async getUser(email: string): Promise<User | undefined> {
    this.touch('getUser');
    const user = this.users.get(email);
    return user && stored(user);
  }

  async putMembership(membership: Membership): Promise<void> {
    this.touch('putMembership', membership);
    this.memberships.set(`${membership.organizationId}#${membership.email}`, stored(membership));
  }

  async getMembership(organizationId: string, email: string): Promise<Membership | undefined> {
    this.touch('getMembership');
    const membership = this.memberships.get(`${organizationId}#${email}`);
    return membership && stored(membership);
  }

  async listMembershipsOfOrganization(organizationId: string): Promise<Membership[]> {
    this.touch('listMembershipsOfOrganization');
    return [...this.memberships.values()]
      .filter((membership) => membership.organizationId === organizationId)
      .sort(inKeyOrder((membership) => membership.email))
      .map(stored);
  }

  async listMembershipsOfUser(email: string): Promise<Membership[]> {
    this.touch('listMembershipsOfUser');
    return [...this.memberships.values()]
      .filter((membership) => membership.email === email)
      .sort(inKeyOrder((membership) => membership.organizationId))
      .map(stored);
  }

  async removeMembership(organizationId: string, email: string, audit: { removedAt: string; removedBy: string }): Promise<MembershipRemoval | undefined> {
    this.touch('removeMembership', { organizationId, email, ...audit });
    const membership = this.memberships.get(`${organizationId}#${email}`);
    if (!membership) return undefined;
    const removal: MembershipRemoval = { ...membership, ...audit };
    this.removals.push(stored(removal));
    this.memberships.delete(`${organizationId}#${email}`);
    return removal;
  }

  async listMembershipRemovals(organizationId: string): Promise<MembershipRemoval[]> {
    this.touch('listMembershipRemovals');
    return this.removals
      .filter((removal) => removal.organizationId === organizationId)
      .sort(inKeyOrder((removal) => `${removal.removedAt}#${removal.email}`))
      .map(stored);
  }

  async getWallet(organizationId: string): Promise<Wallet | undefined> {
    this.touch('getWallet');
    const wallet = this.wallets.get(organizationId);
    return wallet && stored(wallet);
  }

  async creditWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet> {
    this.touch('creditWallet', { organizationId, amountMicros, at });
    const wallet = this.wallets.get(organizationId) ?? { organizationId, balanceMicros: 0, currency: 'USD' as const, updatedAt: at };
    wallet.balanceMicros += amountMicros;
    wallet.updatedAt = at;
    this.wallets.set(organizationId, wallet);
    return stored(wallet);
  }

  async debitWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet> {
    this.touch('debitWallet', { organizationId, amountMicros, at });
    const wallet = this.wallets.get(organizationId);
    if (!wallet || wallet.balanceMicros < amountMicros) throw new InsufficientBalanceError(organizationId, amountMicros);
    wallet.balanceMicros -= amountMicros;
    wallet.updatedAt = at;
    return stored(wallet);
  }

  async putCountryPricing(pricing: CountryPricing): Promise<void> {
    this.touch('putCountryPricing', pricing);
    this.pricing.set(pricing.countryCallingCode, stored(pricing));
  }

  async getCountryPricing(countryCallingCode: string): Promise<CountryPricing | undefined> {
    this.touch('getCountryPricing');
    const pricing = this.pricing.get(countryCallingCode);
    return pricing && stored(pricing);
  }

  async listCountryPricing(): Promise<CountryPricing[]> {
    this.touch('listCountryPricing');
    return [...this.pricing.values()].sort(inKeyOrder((pricing) => pricing.countryCallingCode)).map(stored);
  }

  async putSubscription(subscription: Subscription): Promise<void> {
    this.touch('putSubscription', subscription);
    this.subscriptions.set(subscription.organizationId, stored(subscription));
  }

  async getSubscription(organizationId: string): Promise<Subscription | undefined> {
    this.touch('getSubscription');
    const subscription = this.subscriptions.get(organizationId);
    return subscription && stored(subscription);
  }
}
