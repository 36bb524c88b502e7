import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import { TokenDecryptionError } from '../../crypto/errors';
import type { EncryptionContext } from '../../crypto/token-cipher';
import type { LegacyCapableCipher } from '../../crypto/legacy-context-fallback';
import { classifyStoreFaults } from '../dynamodb/dynamodb-errors';

const scheme = 'kms.v1';

/** KMS errors that mean "this ciphertext does not open with this key and context", not an outage. */
const undecryptableErrorNames = new Set(['InvalidCiphertextException', 'IncorrectKeyException', 'InvalidKeyUsageException']);

/**
 * Encrypts with a KMS key directly (tokens are far below the 4 KB Encrypt limit, so no envelope
 * encryption is needed). The encryption context is passed to KMS, which binds it cryptographically,
 * checks it against the caller's IAM conditions (`kms:EncryptionContext:purpose`: each function may
 * use only its own purposes) and records it in CloudTrail, so every decryption is attributable to a
 * purpose and an owner.
 *
 * Format: `kms.v1:<base64 ciphertext blob>`.
 */
export class KmsTokenCipher implements LegacyCapableCipher {
  constructor(
    private readonly client: KMSClient,
    private readonly keyId: string,
  ) {
    classifyStoreFaults(this.client);
  }

  async encrypt(plaintext: string, context: EncryptionContext): Promise<string> {
    const result = await this.client.send(
      new EncryptCommand({ KeyId: this.keyId, Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: { ...context } }),
    );
    if (!result.CiphertextBlob) throw new Error('KMS Encrypt returned no ciphertext');
    return `${scheme}:${Buffer.from(result.CiphertextBlob).toString('base64')}`;
  }

  /** Any context, the legacy ones included (shared/crypto/legacy-context-fallback.ts). */
  async decrypt(ciphertext: string, context: EncryptionContext | Readonly<Record<string, string>>): Promise<string> {
    if (!ciphertext.startsWith(`${scheme}:`)) throw new TokenDecryptionError('Not a KMS-encrypted token');
    try {
      const result = await this.client.send(
        new DecryptCommand({
          // Naming the key makes KMS refuse ciphertexts produced under any other key.
          KeyId: this.keyId,
          CiphertextBlob: Buffer.from(ciphertext.slice(scheme.length + 1), 'base64'),
          EncryptionContext: { ...context },
        }),
      );
      if (!result.Plaintext) throw new TokenDecryptionError();
      return Buffer.from(result.Plaintext).toString('utf8');
    } catch (error) {
      if (error instanceof Error && undecryptableErrorNames.has(error.name)) throw new TokenDecryptionError();
      throw error;
    }
  }
}
