/**
 * A bounded in-memory cache whose entries expire: least recently used entries go first when it is
 * full, and an entry older than its time to live is never returned.
 *
 * Hand-written on purpose (about 60 lines): the only LRU library in node_modules is lru-cache 5.1.1,
 * a dev-only transitive dependency (not in package.json, untyped, unmaintained major), so a bundle
 * could not rely on it, and adding a package is out of this change's scope. A JavaScript Map keeps
 * insertion order, which is all an LRU needs: a hit is moved to the end, eviction takes the first.
 *
 * The clock is passed in on every call (no hidden `Date.now()`), so tests control expiry.
 */
export interface TtlLruCacheOptions {
  /** How long an entry is served after it was stored. */
  ttlMs: number;
  /** Most entries kept; the least recently used one is dropped to make room. */
  maxEntries: number;
}

export class TtlLruCache<V> {
  private readonly entries = new Map<string, { value: V; expiresAt: number }>();
  readonly ttlMs: number;
  readonly maxEntries: number;

  constructor(options: TtlLruCacheOptions) {
    if (!(options.ttlMs >= 0) || !Number.isInteger(options.maxEntries) || options.maxEntries < 1) {
      throw new RangeError('TtlLruCache needs ttlMs >= 0 and a whole maxEntries >= 1');
    }
    this.ttlMs = options.ttlMs;
    this.maxEntries = options.maxEntries;
  }

  get(key: string, nowMs: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= nowMs) {
      this.entries.delete(key);
      return undefined;
    }
    // Most recently used goes last.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V, nowMs: number): void {
    if (this.ttlMs === 0) return;
    this.entries.delete(key);
    while (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, expiresAt: nowMs + this.ttlMs });
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Drops every entry whose key matches (e.g. all entries of one organization). */
  deleteWhere(matches: (key: string) => boolean): void {
    for (const key of [...this.entries.keys()]) if (matches(key)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  /** Entries held, expired ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }
}
