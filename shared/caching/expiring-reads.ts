/**
 * Reads of a slow upstream value (a Graph API field) shared per key for a short time: the first
 * caller's read is kept, in flight or done, and every caller until it expires gets the same
 * promise, so concurrent accepts cost one read. A read that fails is dropped at once, so the next
 * caller reads again instead of being served the failure for the whole time to live.
 *
 * One place for this pattern: the messaging tier of a number (shared/broadcast/messaging-tiers.ts)
 * and the Marketing Messages API onboarding of a business account
 * (shared/broadcast/marketing-messages-onboarding.ts). Bounded by TtlLruCache.
 */
import { TtlLruCache } from './ttl-lru-cache';

/** Keys kept at most: far more numbers or accounts than one container ever sends for. */
export const EXPIRING_READS_MAX_ENTRIES = 10_000;

export class ExpiringReads<V> {
  private readonly reads: TtlLruCache<Promise<V>>;

  constructor(ttlMs: number, maxEntries = EXPIRING_READS_MAX_ENTRIES) {
    this.reads = new TtlLruCache({ ttlMs, maxEntries });
  }

  /**
   * The value read for `key` within its time to live, else `load()`'s, kept from `nowMs` on.
   *
   * @example
   * const tiers = new ExpiringReads<string>(300_000);
   * await tiers.read('pn_1', Date.now(), () => client.messagingLimitOf('pn_1', call)); // one Graph call
   * await tiers.read('pn_1', Date.now(), () => client.messagingLimitOf('pn_1', call)); // the same answer, no call
   */
  read(key: string, nowMs: number, load: () => Promise<V>): Promise<V> {
    const cached = this.reads.get(key, nowMs);
    if (cached) return cached;
    const pending = load();
    this.reads.set(key, pending, nowMs);
    // A failed read must not be served from the cache (and a newer read of the key stays).
    pending.catch(() => {
      if (this.reads.get(key, nowMs) === pending) this.reads.delete(key);
    });
    return pending;
  }
}
