/**
 * Reading secrets stored before contexts named their purpose (token-cipher.ts `legacyContextKeys`):
 * decrypt with the purpose's context first; only when that fails as a context mismatch, and the
 * purpose had a legacy form, once more with the legacy context. Encryption always uses the new
 * context, so every secret written or rewritten since is bound to its purpose; docs/OPERATIONS.md
 * "KMS" says when the fallback (and the legacy IAM statements) can go.
 */
import { TokenDecryptionError } from './errors';
import { legacyContextOf, type EncryptionContext, type TokenCipher } from './token-cipher';

/** What a cipher needs to try a legacy context: a decrypt taking any context (the adapters do). */
export interface LegacyCapableCipher extends TokenCipher {
  decrypt(ciphertext: string, context: EncryptionContext | Readonly<Record<string, string>>): Promise<string>;
}

/**
 * The cipher, reading legacy ciphertexts too.
 *
 * @example
 * const cipher = withLegacyContextFallback(new KmsTokenCipher(kms, keyId));
 * await cipher.decrypt(storedBeforePurposes, upstreamTokenContext(organizationId, wabaId)); // still opens
 */
export function withLegacyContextFallback(cipher: LegacyCapableCipher): TokenCipher {
  return {
    encrypt: (plaintext, context) => cipher.encrypt(plaintext, context),
    async decrypt(ciphertext, context) {
      try {
        return await cipher.decrypt(ciphertext, context);
      } catch (error) {
        const legacy = legacyContextOf(context);
        // Outages and denials are not a context mismatch: they surface as they are.
        if (!(error instanceof TokenDecryptionError) || !legacy) throw error;
        return cipher.decrypt(ciphertext, legacy);
      }
    },
  };
}
