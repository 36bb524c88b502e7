/** Failures of the crypto ports. None carries secret material in its message. */

/** The ciphertext was altered, belongs to another encryption context, or was made with another key. */
export class TokenDecryptionError extends Error {
  override readonly name = 'TokenDecryptionError';
  readonly code = 'TOKEN_DECRYPTION';
  constructor(message = 'The encrypted token cannot be decrypted with this key and context') {
    super(message);
  }
}

/** The configured local encryption key is not 32 bytes of base64. */
export class InvalidTokenKeyError extends Error {
  override readonly name = 'InvalidTokenKeyError';
  readonly code = 'INVALID_TOKEN_KEY';
}

/** Neither a KMS key nor a local key is configured, and a token had to be encrypted or decrypted. */
export class TokenEncryptionNotConfiguredError extends Error {
  override readonly name = 'TokenEncryptionNotConfiguredError';
  readonly code = 'TOKEN_ENCRYPTION_NOT_CONFIGURED';
  constructor() {
    super('Upstream token encryption is not configured: set TOKEN_KMS_KEY_ID (AWS) or LOCAL_TOKEN_KEY (local)');
  }
}
