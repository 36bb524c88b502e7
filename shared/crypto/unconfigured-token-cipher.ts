import { TokenEncryptionNotConfiguredError } from './errors';
import type { TokenCipher } from './token-cipher';

/**
 * Stands in when no key is configured, so services that never touch upstream tokens still start;
 * the first encryption or decryption explains what is missing.
 */
export const unconfiguredTokenCipher: TokenCipher = {
  encrypt: async () => {
    throw new TokenEncryptionNotConfiguredError();
  },
  decrypt: async () => {
    throw new TokenEncryptionNotConfiguredError();
  },
};
