/**
 * Encrypts upstream access tokens at rest. Every ciphertext is bound to an encryption context
 * (the owning organization and business account): decrypting with another context fails, so a
 * ciphertext copied into another organization's record is useless there.
 *
 * Implementations: KMS on AWS, AES-256-GCM with a configured key locally.
 */
export type EncryptionContext = Readonly<Record<string, string>>;

export interface TokenCipher {
  /** Returns an opaque, self-describing string (`<scheme>:<payload>`) safe to store. */
  encrypt(plaintext: string, context: EncryptionContext): Promise<string>;
  /** Throws TokenDecryptionError when the ciphertext, key or context do not match. */
  decrypt(ciphertext: string, context: EncryptionContext): Promise<string>;
}

/** One canonical byte form of a context, independent of property order (used as AES additional data). */
export function canonicalContext(context: EncryptionContext): string {
  return JSON.stringify(Object.keys(context).sort().map((key) => [key, context[key]]));
}
