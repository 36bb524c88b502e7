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
 * - Every write through the stores of this process invalidates the entries it changes (revoking
 *   a key, reconnecting or flagging an account, moving a number, changing a plan) before it
 *   returns, and a read that was under way while an entry was invalidated is not stored: the
 *   process that made a change never serves the old record afterwards. Other processes (Lambda
 *   containers) serve it for at most the time to live.
 */
import { TtlLruCache } from '../caching/ttl-lru-cache';
import type { Clock } from '../ports/clock';
import { combinePorts } from '../ports/combine-ports';
import type { ClaimedIdentifierKind } from './errors';
import type { BusinessAccount, Credential, Organization, PhoneNumber } from './tenancy-entities';
import type { AccountDirectory, CredentialStore, IdentifierClaim, OrganizationStore, TenancyStores } from './tenancy-stores';

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

  /**
   * Runs a write with its entry forgotten before and after the store call, so neither a read racing
   * the write nor a failed write can leave the old record served.
   */
  async invalidating<T>(forget: () => void, write: () => Promise<T>): Promise<T> {
    forget();
    try {
      return await write();
    } finally {
      forget();
    }
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
 * The tenancy stores with the read cache in front of the three whose records it holds
 * (organizations, credentials, the account directory); memberships and billing pass through
 * untouched. Every write of those three invalidates the process's cache; with `cachedReads`, the
 * four hot reads of authentication and the wrapper's isolation check are answered from it.
 * Functions that do not opt in read the store as before but still invalidate, so a change an
 * operator makes in any function of the process applies at once to the wrapper of that process.
 *
 * @example
 * const tenancy = withTenancyReadCache(dynamoDbTenancyStores(document, table), processCache, clock, true);
 * await tenancy.getCredentialByHash(hash); // read once per time to live
 */
export function withTenancyReadCache(stores: TenancyStores, cache: TenancyReadCache, clock: Clock, cachedReads: boolean): TenancyStores {
  const reading = { cache, clock, cachedReads };
  const organizations: OrganizationStore = new CachingOrganizationStore(stores, reading);
  const credentials: CredentialStore = new CachingCredentialStore(stores, reading);
  const accounts: AccountDirectory = new CachingAccountDirectory(stores, reading);
  // The caching stores come last: each answers every method of its port.
  return combinePorts(stores, organizations, credentials, accounts);
}

interface CacheReading {
  cache: TenancyReadCache;
  clock: Clock;
  /** Answer the hot reads from the cache (the /upstream wrapper); otherwise writes only invalidate. */
  cachedReads: boolean;
}

// Each caching store lists every method of its port (no generic proxy), so a new write cannot skip
// invalidation without the type checker noticing a missing method.

class CachingOrganizationStore implements OrganizationStore {
  constructor(
    private readonly inner: OrganizationStore,
    private readonly reading: CacheReading,
  ) {}

  getOrganization(organizationId: string): Promise<Organization | undefined> {
    const { cache, clock, cachedReads } = this.reading;
    if (!cachedReads) return this.inner.getOrganization(organizationId);
    return cache.readThrough(cache.organizations, organizationId, clock, () => this.inner.getOrganization(organizationId));
  }

  createOrganization(organization: Organization): Promise<void> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => cache.forgetOrganization(organization.organizationId),
      () => this.inner.createOrganization(organization),
    );
  }

  updateOrganizationPlan(organizationId: string, change: Parameters<OrganizationStore['updateOrganizationPlan']>[1]): Promise<Organization> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => cache.forgetOrganization(organizationId),
      () => this.inner.updateOrganizationPlan(organizationId, change),
    );
  }

  updateOrganizationUsMarketingGuard(
    organizationId: string,
    change: Parameters<OrganizationStore['updateOrganizationUsMarketingGuard']>[1],
  ): Promise<Organization> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => cache.forgetOrganization(organizationId),
      () => this.inner.updateOrganizationUsMarketingGuard(organizationId, change),
    );
  }

  updateOrganizationKeyGeneration(organizationId: string, change: Parameters<OrganizationStore['updateOrganizationKeyGeneration']>[1]): Promise<Organization> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => cache.forgetOrganization(organizationId),
      () => this.inner.updateOrganizationKeyGeneration(organizationId, change),
    );
  }

  setOrganizationSuspension(organizationId: string, change: Parameters<OrganizationStore['setOrganizationSuspension']>[1]): Promise<Organization> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => cache.forgetOrganization(organizationId),
      () => this.inner.setOrganizationSuspension(organizationId, change),
    );
  }
}

class CachingCredentialStore implements CredentialStore {
  constructor(
    private readonly inner: CredentialStore,
    private readonly reading: CacheReading,
  ) {}

  getCredentialByHash(secretHash: string): Promise<Credential | undefined> {
    const { cache, clock, cachedReads } = this.reading;
    if (!cachedReads) return this.inner.getCredentialByHash(secretHash);
    return cache.readThrough(cache.credentials, secretHash, clock, () => this.inner.getCredentialByHash(secretHash));
  }

  putCredential(credential: Credential): Promise<void> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => cache.forgetCredential(credential.secretHash),
      () => this.inner.putCredential(credential),
    );
  }

  revokeCredential(secretHash: string, organizationId: string, revokedAt: string): Promise<Credential> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => cache.forgetCredential(secretHash),
      () => this.inner.revokeCredential(secretHash, organizationId, revokedAt),
    );
  }

  // Listings by organization and the minted keys' slots: no cache holds them.
  listCredentials: CredentialStore['listCredentials'] = (organizationId) => this.inner.listCredentials(organizationId);
  findCredentialById: CredentialStore['findCredentialById'] = (organizationId, credentialId) => this.inner.findCredentialById(organizationId, credentialId);
  holdGeneratedKeySlot: CredentialStore['holdGeneratedKeySlot'] = (organizationId, holder, limit) =>
    this.inner.holdGeneratedKeySlot(organizationId, holder, limit);
  releaseGeneratedKeySlot: CredentialStore['releaseGeneratedKeySlot'] = (organizationId, holder) => this.inner.releaseGeneratedKeySlot(organizationId, holder);
  listGeneratedKeySlots: CredentialStore['listGeneratedKeySlots'] = (organizationId) => this.inner.listGeneratedKeySlots(organizationId);
}

class CachingAccountDirectory implements AccountDirectory {
  constructor(
    private readonly inner: AccountDirectory,
    private readonly reading: CacheReading,
  ) {}

  getBusinessAccount(organizationId: string, wabaId: string): Promise<BusinessAccount | undefined> {
    const { cache, clock, cachedReads } = this.reading;
    if (!cachedReads) return this.inner.getBusinessAccount(organizationId, wabaId);
    return cache.readThrough(cache.businessAccounts, TenancyReadCache.businessAccountKey(organizationId, wabaId), clock, () =>
      this.inner.getBusinessAccount(organizationId, wabaId),
    );
  }

  findPhoneNumberById(phoneNumberId: string): Promise<PhoneNumber | undefined> {
    const { cache, clock, cachedReads } = this.reading;
    if (!cachedReads) return this.inner.findPhoneNumberById(phoneNumberId);
    return cache.readThrough(cache.phoneNumbers, phoneNumberId, clock, () => this.inner.findPhoneNumberById(phoneNumberId));
  }

  claimIdentifier(claim: IdentifierClaim): Promise<{ newlyClaimed: boolean }> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => forgetClaimed(cache, claim.kind, claim.value, claim.organizationId),
      () => this.inner.claimIdentifier(claim),
    );
  }

  releaseIdentifier(kind: ClaimedIdentifierKind, value: string, organizationId: string): Promise<void> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => forgetClaimed(cache, kind, value, organizationId),
      () => this.inner.releaseIdentifier(kind, value, organizationId),
    );
  }

  putBusinessAccount(account: BusinessAccount): Promise<void> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => cache.forgetBusinessAccount(account.organizationId, account.wabaId),
      () => this.inner.putBusinessAccount(account),
    );
  }

  markBusinessAccountNeedsAuthorization(organizationId: string, wabaId: string, failedEncryptedAccessToken: string, at: string): Promise<void> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => cache.forgetBusinessAccount(organizationId, wabaId),
      () => this.inner.markBusinessAccountNeedsAuthorization(organizationId, wabaId, failedEncryptedAccessToken, at),
    );
  }

  setBusinessAccountMarketingMessages(
    organizationId: string,
    wabaId: string,
    change: Parameters<AccountDirectory['setBusinessAccountMarketingMessages']>[2],
  ): Promise<BusinessAccount> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => cache.forgetBusinessAccount(organizationId, wabaId),
      () => this.inner.setBusinessAccountMarketingMessages(organizationId, wabaId, change),
    );
  }

  putPhoneNumber(phoneNumber: PhoneNumber): Promise<void> {
    const { cache } = this.reading;
    return cache.invalidating(
      () => cache.forgetPhoneNumber(phoneNumber.phoneNumberId),
      () => this.inner.putPhoneNumber(phoneNumber),
    );
  }

  // Listings and the look-up by digits: no cache holds them.
  getIdentifierClaim: AccountDirectory['getIdentifierClaim'] = (kind, value) => this.inner.getIdentifierClaim(kind, value);
  listBusinessAccounts: AccountDirectory['listBusinessAccounts'] = (organizationId) => this.inner.listBusinessAccounts(organizationId);
  listPhoneNumbers: AccountDirectory['listPhoneNumbers'] = (organizationId) => this.inner.listPhoneNumbers(organizationId);
  findPhoneNumberByDigits: AccountDirectory['findPhoneNumberByDigits'] = (digits) => this.inner.findPhoneNumberByDigits(digits);
}

/** A claim moving changes which organization a cached phone number or business account answers for. */
function forgetClaimed(cache: TenancyReadCache, kind: ClaimedIdentifierKind, value: string, organizationId: string): void {
  if (kind === 'phone-number-id') cache.forgetPhoneNumber(value);
  if (kind === 'waba-id') cache.forgetBusinessAccount(organizationId, value);
}
