import { TtlLruCache } from '../caching/ttl-lru-cache';
import { hashSecret } from '../crypto/secret-generator';

/**
 * Keeps decrypted upstream tokens in memory for a few minutes so a warm Lambda does not call KMS
 * on every request. Entries are keyed by organization, account and a hash of the ciphertext: a
 * re-connected account (a rotated token is a new ciphertext) misses at once instead of serving
 * the old token, so the time to live only bounds how long a plaintext stays in memory.
 */
export class DecryptedTokenCache {
  private readonly entries: TtlLruCache<string>;

  constructor(timeToLiveMs = 5 * 60_000, maxEntries = 500) {
    this.entries = new TtlLruCache({ ttlMs: timeToLiveMs, maxEntries });
  }

  get(organizationId: string, wabaId: string, ciphertext: string, now: Date): string | undefined {
    return this.entries.get(this.keyOf(organizationId, wabaId, ciphertext), now.getTime());
  }

  set(organizationId: string, wabaId: string, ciphertext: string, plaintext: string, now: Date): void {
    this.entries.set(this.keyOf(organizationId, wabaId, ciphertext), plaintext, now.getTime());
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }

  private keyOf(organizationId: string, wabaId: string, ciphertext: string): string {
    return `${organizationId}\u0000${wabaId}\u0000${hashSecret(ciphertext)}`;
  }
}
