/**
 * The platform's link key: 32 random bytes made on first use, kept encrypted by the TokenCipher
 * under the purpose `click-link` (so only the functions granted that purpose can read it), and kept
 * in memory for the container's life once read: a send or a click costs no key read after the first.
 */
import { randomBytes } from 'node:crypto';
import type { EncryptionContext, TokenCipher } from '../crypto/token-cipher';
import type { ClickLinkKeyStore } from './ports';

const CONTEXT: EncryptionContext = { purpose: 'click-link', key: 'platform' };
const KEY_BYTES = 32;

/**
 * The link key, read once per container. `signingKey` makes it when none exists (the chunk worker,
 * the first tracked send); `verifyingKey` never does (the redirect: without a key no token is valid).
 *
 * @example
 * const keys = new ClickLinkKeys(store, cipher);
 * const key = await keys.signingKey(); // Buffer(32)
 */
export class ClickLinkKeys {
  private cached: Promise<Buffer | undefined> | undefined;

  constructor(
    private readonly store: ClickLinkKeyStore,
    private readonly cipher: TokenCipher,
    private readonly random: (bytes: number) => Buffer = randomBytes,
  ) {}

  async signingKey(): Promise<Buffer> {
    const known = await this.verifyingKey();
    if (known) return known;
    const encrypted = await this.cipher.encrypt(this.random(KEY_BYTES).toString('base64'), CONTEXT);
    const stored = await this.store.createIfAbsent(encrypted);
    const key = await this.decrypt(stored);
    this.cached = Promise.resolve(key);
    return key;
  }

  async verifyingKey(): Promise<Buffer | undefined> {
    this.cached ??= this.load();
    const key = await this.cached.catch((error: unknown) => {
      this.cached = undefined;
      throw error;
    });
    // Not made yet: asked again next time (the first send makes it).
    if (!key) this.cached = undefined;
    return key;
  }

  private async load(): Promise<Buffer | undefined> {
    const stored = await this.store.read();
    return stored === undefined ? undefined : this.decrypt(stored);
  }

  private async decrypt(stored: string): Promise<Buffer> {
    const key = Buffer.from(await this.cipher.decrypt(stored, CONTEXT), 'base64');
    if (key.length !== KEY_BYTES) throw new TypeError('The stored click link key is not 32 bytes');
    return key;
  }
}
