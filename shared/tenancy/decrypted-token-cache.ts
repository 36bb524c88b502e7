import { hashSecret } from '../crypto/secret-generator';

/**
 * Keeps decrypted upstream tokens in memory for a few minutes so a warm Lambda does not call KMS
 * on every request. Entries are keyed by organization, account and a hash of the ciphertext: a
 * re-connected account (new ciphertext) misses immediately instead of serving the old token.
 */
export class DecryptedTokenCache {
  private readonly entries = new Map<string, { plaintext: string; expiresAt: number }>();

  constructor(
    private readonly timeToLiveMs = 5 * 60_000,
    private readonly maxEntries = 500,
  ) {}

  get(organizationId: string, wabaId: string, ciphertext: string, now: Date): string | undefined {
    const key = this.keyOf(organizationId, wabaId, ciphertext);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now.getTime()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.plaintext;
  }

  set(organizationId: string, wabaId: string, ciphertext: string, plaintext: string, now: Date): void {
    // Maps iterate in insertion order, so the first key is the oldest entry.
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(this.keyOf(organizationId, wabaId, ciphertext), { plaintext, expiresAt: now.getTime() + this.timeToLiveMs });
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
