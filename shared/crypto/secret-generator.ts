import { randomBytes } from 'node:crypto';
import { sha256Hex } from './hashing';

/** Randomness as a port, so tests can tell generated secrets apart from what gets stored. */
export interface SecretGenerator {
  /** `prefix` followed by 43 base64url characters encoding 32 random bytes (256 bits). */
  generateSecret(prefix: string): string;
}

export const randomSecretGenerator: SecretGenerator = {
  generateSecret: (prefix) => `${prefix}${randomBytes(32).toString('base64url')}`,
};

/** Characters after the prefix of a generated secret. */
export const secretBodyLength = 43;

/**
 * Lower-case hex SHA-256 of a secret, the only form in which credentials are stored.
 *
 * A fast hash is enough here, unlike for passwords: the secrets carry 256 bits of randomness,
 * so nobody can enumerate candidates to test against a leaked hash, and a slow hash would only
 * add latency to every authenticated request.
 */
export function hashSecret(secret: string): string {
  return sha256Hex(secret);
}
