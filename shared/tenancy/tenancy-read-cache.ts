/**
 * Reads of tenancy records that change rarely, kept in memory for a short while so the /upstream
 * wrapper does not read the same credential, organization, business account and phone number from
 * DynamoDB on every request (docs/UPSTREAM-WRAPPER.md, "Caches").
 *
 * Safety rules, each tested (test/unit/tenancy/tenancy-read-cache.test.ts):
 * - Only records that exist are kept; a miss is always read again, so a credential or an account
 *   created a moment ago works at once.
 * - Keys are what the store is keyed by: the secret's hash (the credential names its own
 *   organization), the organization id, organization + WABA id, the globally claimed phone-number
 *   id (whose record names its organization, checked by the caller on every request). No entry of
 *   one organization can answer a look-up made for another.
 * - Every write through a repository of this process invalidates the entries it changes (revoking
 *   a key, reconnecting or flagging an account, moving a number, changing a plan) before it
 *   returns, and a read that was under way while an entry was invalidated is not stored: the
 *   process that made a change never serves the old record afterwards. Other processes (Lambda
 *   containers) serve it for at most the time to live.
 */
import { TtlLruCache } from '../caching/ttl-lru-cache';
import type { Clock } from '../ports/clock';
import type { ClaimedIdentifierKind } from './errors';
import type { BusinessAccount, Credential, Organization, PhoneNumber } from './tenancy-entities';
import type { IdentifierClaim, TenancyRepository } from './tenancy-repository';

export interface TenancyReadCacheSettings {
  /** Credentials by secret hash: bounds how long a key revoked elsewhere keeps working in this process. */
  credentialTtlMs: number;
  /** Organizations, business accounts, phone numbers. */
  recordTtlMs: number;
  /** Entries per kind of record. */
  maxEntries: number;
}

const key = (...parts: string[]) => parts.join('\u0000');

/** The cached records of one tenancy table in one process. */
export class TenancyReadCache {
  readonly credentials: TtlLruCache<Credential>;
  readonly organizations: TtlLruCache<Organization>;
  readonly businessAccounts: TtlLruCache<BusinessAccount>;
  readonly phoneNumbers: TtlLruCache<PhoneNumber>;
  /** Bumped by every invalidation; a read that saw it change meanwhile is not stored. */
  private generation = 0;

  constructor(settings: TenancyReadCacheSettings) {
    this.credentials = new TtlLruCache({ ttlMs: settings.credentialTtlMs, maxEntries: settings.maxEntries });
    const records = { ttlMs: settings.recordTtlMs, maxEntries: settings.maxEntries };
    this.organizations = new TtlLruCache(records);
    this.businessAccounts = new TtlLruCache(records);
    this.phoneNumbers = new TtlLruCache(records);
  }

  /**
   * The cached value, or the loaded one (stored only if it exists and nothing was invalidated
   * while it was being read).
   */
  async readThrough<V extends object>(cache: TtlLruCache<V>, cacheKey: string, clock: Clock, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const cached = cache.get(cacheKey, clock.now().getTime());
    if (cached !== undefined) return cached;
    const generation = this.generation;
    const loaded = await load();
    if (loaded !== undefined && generation === this.generation) cache.set(cacheKey, Object.freeze(loaded), clock.now().getTime());
    return loaded;
  }

  forgetCredential(secretHash: string): void {
    this.generation += 1;
    this.credentials.delete(secretHash);
  }

  forgetOrganization(organizationId: string): void {
    this.generation += 1;
    this.organizations.delete(organizationId);
  }

  forgetBusinessAccount(organizationId: string, wabaId: string): void {
    this.generation += 1;
    this.businessAccounts.delete(key(organizationId, wabaId));
  }

  forgetPhoneNumber(phoneNumberId: string): void {
    this.generation += 1;
    this.phoneNumbers.delete(phoneNumberId);
  }

  clear(): void {
    this.generation += 1;
    this.credentials.clear();
    this.organizations.clear();
    this.businessAccounts.clear();
    this.phoneNumbers.clear();
  }

  static businessAccountKey(organizationId: string, wabaId: string): string {
    return key(organizationId, wabaId);
  }
}

/**
 * A tenancy repository that invalidates the process's cache on every write and, with
 * `cachedReads`, answers the four hot reads of authentication and the wrapper's isolation check
 * from it. Functions that do not opt in read the store as before but still invalidate, so a change
 * an operator makes in any function of the process applies at once to the wrapper of that process.
 * Every method of the port is listed (no generic proxy) so a new write cannot skip invalidation
 * without the type checker noticing a missing method.
 */
export class CachingTenancyRepository implements TenancyRepository {
  constructor(
    private readonly inner: TenancyRepository,
    private readonly cache: TenancyReadCache,
    private readonly clock: Clock,
    private readonly cachedReads: boolean,
  ) {}

  // Cached reads.
  getCredentialByHash(secretHash: string): Promise<Credential | undefined> {
    if (!this.cachedReads) return this.inner.getCredentialByHash(secretHash);
    return this.cache.readThrough(this.cache.credentials, secretHash, this.clock, () => this.inner.getCredentialByHash(secretHash));
  }

  getOrganization(organizationId: string): Promise<Organization | undefined> {
    if (!this.cachedReads) return this.inner.getOrganization(organizationId);
    return this.cache.readThrough(this.cache.organizations, organizationId, this.clock, () => this.inner.getOrganization(organizationId));
  }

  getBusinessAccount(organizationId: string, wabaId: string): Promise<BusinessAccount | undefined> {
    if (!this.cachedReads) return this.inner.getBusinessAccount(organizationId, wabaId);
    return this.cache.readThrough(this.cache.businessAccounts, TenancyReadCache.businessAccountKey(organizationId, wabaId), this.clock, () =>
      this.inner.getBusinessAccount(organizationId, wabaId),
    );
  }

  findPhoneNumberById(phoneNumberId: string): Promise<PhoneNumber | undefined> {
    if (!this.cachedReads) return this.inner.findPhoneNumberById(phoneNumberId);
    return this.cache.readThrough(this.cache.phoneNumbers, phoneNumberId, this.clock, () => this.inner.findPhoneNumberById(phoneNumberId));
  }

  // Writes: the entry is forgotten before and after the store call, so neither a read racing the
  // write nor a failed write can leave the old record served.
  private async changing<T>(forget: () => void, write: () => Promise<T>): Promise<T> {
    forget();
    try {
      return await write();
    } finally {
      forget();
    }
  }

  createOrganization(organization: Organization): Promise<void> {
    return this.changing(() => this.cache.forgetOrganization(organization.organizationId), () => this.inner.createOrganization(organization));
  }

  updateOrganizationPlan(organizationId: string, change: Parameters<TenancyRepository['updateOrganizationPlan']>[1]): Promise<Organization> {
    return this.changing(() => this.cache.forgetOrganization(organizationId), () => this.inner.updateOrganizationPlan(organizationId, change));
  }

  updateOrganizationKeyGeneration(organizationId: string, change: Parameters<TenancyRepository['updateOrganizationKeyGeneration']>[1]): Promise<Organization> {
    return this.changing(() => this.cache.forgetOrganization(organizationId), () => this.inner.updateOrganizationKeyGeneration(organizationId, change));
  }

  claimIdentifier(claim: IdentifierClaim): Promise<{ newlyClaimed: boolean }> {
    return this.changing(() => this.forgetClaimed(claim.kind, claim.value, claim.organizationId), () => this.inner.claimIdentifier(claim));
  }

  releaseIdentifier(kind: ClaimedIdentifierKind, value: string, organizationId: string): Promise<void> {
    return this.changing(() => this.forgetClaimed(kind, value, organizationId), () => this.inner.releaseIdentifier(kind, value, organizationId));
  }

  private forgetClaimed(kind: ClaimedIdentifierKind, value: string, organizationId: string): void {
    if (kind === 'phone-number-id') this.cache.forgetPhoneNumber(value);
    if (kind === 'waba-id') this.cache.forgetBusinessAccount(organizationId, value);
  }

  putBusinessAccount(account: BusinessAccount): Promise<void> {
    return this.changing(() => this.cache.forgetBusinessAccount(account.organizationId, account.wabaId), () => this.inner.putBusinessAccount(account));
  }

  markBusinessAccountNeedsAuthorization(organizationId: string, wabaId: string, failedEncryptedAccessToken: string, at: string): Promise<void> {
    return this.changing(
      () => this.cache.forgetBusinessAccount(organizationId, wabaId),
      () => this.inner.markBusinessAccountNeedsAuthorization(organizationId, wabaId, failedEncryptedAccessToken, at),
    );
  }

  putPhoneNumber(phoneNumber: PhoneNumber): Promise<void> {
    return this.changing(() => this.cache.forgetPhoneNumber(phoneNumber.phoneNumberId), () => this.inner.putPhoneNumber(phoneNumber));
  }

  putCredential(credential: Credential): Promise<void> {
    return this.changing(() => this.cache.forgetCredential(credential.secretHash), () => this.inner.putCredential(credential));
  }

  revokeCredential(secretHash: string, organizationId: string, revokedAt: string): Promise<Credential> {
    return this.changing(() => this.cache.forgetCredential(secretHash), () => this.inner.revokeCredential(secretHash, organizationId, revokedAt));
  }

  // Everything else reads or writes records no cache holds.
  getIdentifierClaim: TenancyRepository['getIdentifierClaim'] = (kind, value) => this.inner.getIdentifierClaim(kind, value);
  listBusinessAccounts: TenancyRepository['listBusinessAccounts'] = (organizationId) => this.inner.listBusinessAccounts(organizationId);
  listPhoneNumbers: TenancyRepository['listPhoneNumbers'] = (organizationId) => this.inner.listPhoneNumbers(organizationId);
  findPhoneNumberByDigits: TenancyRepository['findPhoneNumberByDigits'] = (digits) => this.inner.findPhoneNumberByDigits(digits);
  listCredentials: TenancyRepository['listCredentials'] = (organizationId) => this.inner.listCredentials(organizationId);
  findCredentialById: TenancyRepository['findCredentialById'] = (organizationId, credentialId) => this.inner.findCredentialById(organizationId, credentialId);
  putUserIfAbsent: TenancyRepository['putUserIfAbsent'] = (user) => this.inner.putUserIfAbsent(user);
  getUser: TenancyRepository['getUser'] = (email) => this.inner.getUser(email);
  putMembership: TenancyRepository['putMembership'] = (membership) => this.inner.putMembership(membership);
  getMembership: TenancyRepository['getMembership'] = (organizationId, email) => this.inner.getMembership(organizationId, email);
  listMembershipsOfOrganization: TenancyRepository['listMembershipsOfOrganization'] = (organizationId) => this.inner.listMembershipsOfOrganization(organizationId);
  listMembershipsOfUser: TenancyRepository['listMembershipsOfUser'] = (email) => this.inner.listMembershipsOfUser(email);
  removeMembership: TenancyRepository['removeMembership'] = (organizationId, email, audit) => this.inner.removeMembership(organizationId, email, audit);
  listMembershipRemovals: TenancyRepository['listMembershipRemovals'] = (organizationId) => this.inner.listMembershipRemovals(organizationId);
  getWallet: TenancyRepository['getWallet'] = (organizationId) => this.inner.getWallet(organizationId);
  creditWallet: TenancyRepository['creditWallet'] = (organizationId, amountMicros, at) => this.inner.creditWallet(organizationId, amountMicros, at);
  debitWallet: TenancyRepository['debitWallet'] = (organizationId, amountMicros, at) => this.inner.debitWallet(organizationId, amountMicros, at);
  putCountryPricing: TenancyRepository['putCountryPricing'] = (pricing) => this.inner.putCountryPricing(pricing);
  getCountryPricing: TenancyRepository['getCountryPricing'] = (countryCallingCode) => this.inner.getCountryPricing(countryCallingCode);
  listCountryPricing: TenancyRepository['listCountryPricing'] = () => this.inner.listCountryPricing();
  putSubscription: TenancyRepository['putSubscription'] = (subscription) => this.inner.putSubscription(subscription);
  getSubscription: TenancyRepository['getSubscription'] = (organizationId) => this.inner.getSubscription(organizationId);
}
