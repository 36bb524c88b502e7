/**
 * The decrypted Meta app settings of this process. The webhook endpoint is internet-facing and
 * every request with a bad signature or verify token asks for a fresh read (a replaced secret must
 * apply at once), so without bounds each forged request would cost a consistent table read and two
 * KMS decrypts: a cheap amplifier. The cache bounds that work whatever the request rate:
 *
 * - values are kept `timeToLiveMs` (5 minutes), then read and decrypted again (a key whose use was
 *   revoked stops working within that time);
 * - "not configured" is kept `missTimeToLiveMs` (1 s), so a flood before `set-meta-app` costs one
 *   read a second, not one per request;
 * - fresh reads (after a failed check) happen at most once per `freshReadIntervalMs` (1 s); the
 *   others answer from the last read;
 * - a fresh read that finds the same ciphertexts reuses the decrypted values: KMS is called only
 *   when the stored settings changed (or the entry expired);
 * - concurrent loads share one read (single flight).
 *
 * `clear()` (called by `set-meta-app` in this process) drops everything.
 */
import type { MetaAppSecrets, StoredMetaApp } from './ports';

/** What one read of the store left: the ciphertexts it decrypted (none: not configured) and when. */
export interface CachedMetaApp {
  stored: Pick<StoredMetaApp, 'encryptedAppSecret' | 'encryptedVerifyToken'> | undefined;
  secrets: MetaAppSecrets | undefined;
  readAt: number;
}

export interface MetaAppSecretsCacheSettings {
  timeToLiveMs: number;
  missTimeToLiveMs: number;
  freshReadIntervalMs: number;
}

const defaults: MetaAppSecretsCacheSettings = { timeToLiveMs: 5 * 60_000, missTimeToLiveMs: 1_000, freshReadIntervalMs: 1_000 };

/**
 * @example
 * const cache = new MetaAppSecretsCache();
 * const secrets = await cache.load(now, { fresh: false }, () => readAndDecrypt(cache.last()));
 */
export class MetaAppSecretsCache {
  private entry: CachedMetaApp | undefined;
  private lastFreshReadAt = Number.NEGATIVE_INFINITY;
  private inFlight: Promise<CachedMetaApp> | undefined;
  private readonly settings: MetaAppSecretsCacheSettings;

  /** `timeToLiveMs` first, as before; the other bounds default to one second. */
  constructor(timeToLiveMs = defaults.timeToLiveMs, settings: Partial<Omit<MetaAppSecretsCacheSettings, 'timeToLiveMs'>> = {}) {
    this.settings = { ...defaults, ...settings, timeToLiveMs };
  }

  /** The last read's result, whatever its age (a fresh read compares ciphertexts with it). */
  last(): CachedMetaApp | undefined {
    return this.entry;
  }

  /**
   * The cached answer when the bounds allow it, else `read()` (shared with concurrent callers) and
   * its result kept.
   */
  async load(now: Date, options: { fresh?: boolean }, read: () => Promise<CachedMetaApp>): Promise<MetaAppSecrets | undefined> {
    const at = now.getTime();
    if (this.entry && this.answersFromCache(at, options.fresh === true)) return this.entry.secrets;
    if (options.fresh) this.lastFreshReadAt = at;
    return (await this.readOnce(read)).secrets;
  }

  clear(): void {
    this.entry = undefined;
    this.lastFreshReadAt = Number.NEGATIVE_INFINITY;
  }

  private answersFromCache(at: number, fresh: boolean): boolean {
    const entry = this.entry!;
    if (fresh) return at - this.lastFreshReadAt < this.settings.freshReadIntervalMs;
    const timeToLive = entry.secrets ? this.settings.timeToLiveMs : this.settings.missTimeToLiveMs;
    return at - entry.readAt < timeToLive;
  }

  private async readOnce(read: () => Promise<CachedMetaApp>): Promise<CachedMetaApp> {
    if (!this.inFlight) {
      this.inFlight = read()
        .then((entry) => (this.entry = entry))
        .finally(() => (this.inFlight = undefined));
    }
    return this.inFlight;
  }
}
