import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { InvalidTokenKeyError, TokenDecryptionError } from '../../crypto/errors';
import { canonicalContext, type EncryptionContext } from '../../crypto/token-cipher';
import type { LegacyCapableCipher } from '../../crypto/legacy-context-fallback';

const scheme = 'aes256gcm.v1';
const ivBytes = 12;
const tagBytes = 16;

/**
 * AES-256-GCM with a key from configuration, for local runs where no KMS exists.
 * The encryption context is the GCM additional authenticated data: it is not stored in the
 * ciphertext, it has to be presented again, and a different one fails authentication.
 *
 * Format: `aes256gcm.v1:<iv>.<ciphertext>.<tag>` (base64url parts).
 */
export class LocalAesTokenCipher implements LegacyCapableCipher {
  private readonly key: Buffer;

  constructor(keyBase64: string) {
    const key = Buffer.from(keyBase64, 'base64');
    if (key.length !== 32) throw new InvalidTokenKeyError('LOCAL_TOKEN_KEY must be 32 bytes, base64-encoded');
    this.key = key;
  }

  async encrypt(plaintext: string, context: EncryptionContext): Promise<string> {
    const iv = randomBytes(ivBytes);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: tagBytes });
    cipher.setAAD(Buffer.from(canonicalContext(context), 'utf8'));
    const encrypted = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    return `${scheme}:${[iv, encrypted, tag].map((part) => part.toString('base64url')).join('.')}`;
  }

  /** Any context, the legacy ones included (shared/crypto/legacy-context-fallback.ts). */
  async decrypt(ciphertext: string, context: EncryptionContext | Readonly<Record<string, string>>): Promise<string> {
    if (!ciphertext.startsWith(`${scheme}:`)) throw new TokenDecryptionError('Not a locally encrypted token');
    const parts = ciphertext.slice(scheme.length + 1).split('.');
    if (parts.length !== 3) throw new TokenDecryptionError();
    const [iv, encrypted, tag] = parts.map((part) => Buffer.from(part, 'base64url')) as [Buffer, Buffer, Buffer];
    if (iv.length !== ivBytes || tag.length !== tagBytes) throw new TokenDecryptionError();
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: tagBytes });
      decipher.setAAD(Buffer.from(canonicalContext(context), 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(encrypted), decipher.final()]).toString('utf8');
    } catch {
      // GCM reports every mismatch (tampering, wrong key, wrong context) the same way, on purpose.
      throw new TokenDecryptionError();
    }
  }
}

/** A fresh random key in the form LOCAL_TOKEN_KEY expects (for the local runtime and tests). */
export function generateLocalTokenKey(): string {
  return randomBytes(32).toString('base64');
}
