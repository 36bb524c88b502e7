/**
 * The records the in-memory tenancy stores keep (one map per kind of item), with what tests inspect
 * and inject: every value written (so tests can assert that secrets never reach storage), call
 * counts, and a failure like an unreachable store's.
 */
import { TenancyStoreUnavailableError } from '../../../shared/tenancy/errors';
import type {
  BusinessAccount,
  CountryPricing,
  Credential,
  Membership,
  MembershipRemoval,
  Organization,
  PhoneNumber,
  Subscription,
  User,
  Wallet,
} from '../../../shared/tenancy/tenancy-entities';
import type { IdentifierClaim, TenancyStores } from '../../../shared/tenancy/tenancy-stores';

/** Deep copy without undefined properties, as DynamoDB with removeUndefinedValues would store it. */
export const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** Lists come back in the adapter's sort-key order (a string order on the key the adapter queries by). */
export const inKeyOrder =
  <T>(key: (value: T) => string) =>
  (left: T, right: T): number =>
    key(left) < key(right) ? -1 : key(left) > key(right) ? 1 : 0;

export class InMemoryTenancyState {
  readonly organizations = new Map<string, Organization>();
  readonly claims = new Map<string, IdentifierClaim>();
  readonly businessAccounts = new Map<string, BusinessAccount>();
  readonly phoneNumbers = new Map<string, PhoneNumber>();
  readonly credentials = new Map<string, Credential>();
  /** Holders of each organization's slots for minted keys. */
  readonly generatedKeySlots = new Map<string, Set<string>>();
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

  /** Counts a store call, throws the failure when one is set, and records what a write hands in. */
  touch(method: keyof TenancyStores, written?: unknown): void {
    this.calls.set(method, (this.calls.get(method) ?? 0) + 1);
    if (this.failure) throw this.failure;
    if (written !== undefined) this.writes.push(JSON.stringify(written));
  }

  callCount(method: keyof TenancyStores): number {
    return this.calls.get(method) ?? 0;
  }

  /** Everything ever written, as one string to search for leaked secrets. */
  everythingWritten(): string {
    return this.writes.join('\n');
  }

  makeUnavailable(): void {
    this.failure = new TenancyStoreUnavailableError('Tenancy store unavailable: TimeoutError');
  }
}
