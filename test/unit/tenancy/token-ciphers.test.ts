import { DecryptCommand, EncryptCommand, KMSClient, KMSInternalException, KMSInvalidStateException } from '@aws-sdk/client-kms';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { LocalAesTokenCipher, generateLocalTokenKey } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { KmsTokenCipher } from '../../../shared/adapters/kms/kms-token-cipher';
import { InvalidTokenKeyError, TokenDecryptionError, TokenEncryptionNotConfiguredError } from '../../../shared/crypto/errors';
import { hashSecret, randomSecretGenerator } from '../../../shared/crypto/secret-generator';
import { unconfiguredTokenCipher } from '../../../shared/crypto/unconfigured-token-cipher';

const context = { purpose: 'upstream-token', organizationId: 'org_1', wabaId: '1001' } as const;

describe('local AES-256-GCM token cipher', () => {
  const cipher = new LocalAesTokenCipher(generateLocalTokenKey());

  test('round trip; ciphertexts differ each time and do not contain the plaintext', async () => {
    const first = await cipher.encrypt('EAAG-secret-token', context);
    const second = await cipher.encrypt('EAAG-secret-token', context);
    expect(first).not.toBe(second);
    expect(first).not.toContain('EAAG');
    await expect(cipher.decrypt(first, context)).resolves.toBe('EAAG-secret-token');
    await expect(cipher.decrypt(second, { wabaId: '1001', organizationId: 'org_1', purpose: 'upstream-token' })).resolves.toBe('EAAG-secret-token');
  });

  test('tampering with any part is detected', async () => {
    const ciphertext = await cipher.encrypt('EAAG-secret-token', context);
    const [scheme, payload] = ciphertext.split(':') as [string, string];
    const parts = payload.split('.');
    for (let index = 0; index < parts.length; index += 1) {
      const bytes = Buffer.from(parts[index]!, 'base64url');
      bytes[0] = bytes[0]! ^ 0x01;
      const tampered = [...parts];
      tampered[index] = bytes.toString('base64url');
      await expect(cipher.decrypt(`${scheme}:${tampered.join('.')}`, context)).rejects.toBeInstanceOf(TokenDecryptionError);
    }
    await expect(cipher.decrypt('aes256gcm.v1:garbage', context)).rejects.toBeInstanceOf(TokenDecryptionError);
    await expect(cipher.decrypt('kms.v1:AAAA', context)).rejects.toBeInstanceOf(TokenDecryptionError);
  });

  test('a different encryption context or key fails', async () => {
    const ciphertext = await cipher.encrypt('EAAG-secret-token', context);
    await expect(cipher.decrypt(ciphertext, { ...context, organizationId: 'org_2' })).rejects.toBeInstanceOf(TokenDecryptionError);
    await expect(cipher.decrypt(ciphertext, { ...context, wabaId: '1002' })).rejects.toBeInstanceOf(TokenDecryptionError);
    await expect(cipher.decrypt(ciphertext, { purpose: 'upstream-token', organizationId: 'org_1' })).rejects.toBeInstanceOf(TokenDecryptionError);
    await expect(new LocalAesTokenCipher(generateLocalTokenKey()).decrypt(ciphertext, context)).rejects.toBeInstanceOf(TokenDecryptionError);
  });

  test('the key must be 32 bytes', () => {
    expect(() => new LocalAesTokenCipher(Buffer.alloc(16).toString('base64'))).toThrow(InvalidTokenKeyError);
  });
});

describe('KMS token cipher', () => {
  function stubKms() {
    const sent: Array<EncryptCommand | DecryptCommand> = [];
    const client = {
      send: jest.fn(async (command: EncryptCommand | DecryptCommand) => {
        sent.push(command);
        if (command instanceof EncryptCommand) {
          // A fake "ciphertext" that remembers the context, so decrypt can check it like KMS does.
          const blob = Buffer.from(JSON.stringify({ p: Buffer.from(command.input.Plaintext!).toString(), c: command.input.EncryptionContext }));
          return { CiphertextBlob: new Uint8Array(blob) };
        }
        const parsed = JSON.parse(Buffer.from(command.input.CiphertextBlob!).toString()) as { p: string; c: unknown };
        if (JSON.stringify(parsed.c) !== JSON.stringify(command.input.EncryptionContext)) {
          throw Object.assign(new Error('InvalidCiphertextException'), { name: 'InvalidCiphertextException' });
        }
        return { Plaintext: new Uint8Array(Buffer.from(parsed.p)) };
      }),
    };
    return { client: client as unknown as KMSClient, sent };
  }

  test('passes the key id and encryption context to KMS and round-trips', async () => {
    const { client, sent } = stubKms();
    const cipher = new KmsTokenCipher(client, 'alias/tokens');
    const ciphertext = await cipher.encrypt('EAAG-token', context);
    expect(ciphertext).toMatch(/^kms\.v1:/);
    await expect(cipher.decrypt(ciphertext, context)).resolves.toBe('EAAG-token');
    expect(sent[0]!.input).toMatchObject({ KeyId: 'alias/tokens', EncryptionContext: context });
    expect(sent[1]!.input).toMatchObject({ KeyId: 'alias/tokens', EncryptionContext: context });
  });

  test('a context mismatch reported by KMS becomes TokenDecryptionError', async () => {
    const { client } = stubKms();
    const cipher = new KmsTokenCipher(client, 'alias/tokens');
    const ciphertext = await cipher.encrypt('EAAG-token', context);
    await expect(cipher.decrypt(ciphertext, { ...context, organizationId: 'org_2' })).rejects.toBeInstanceOf(TokenDecryptionError);
    await expect(cipher.decrypt('aes256gcm.v1:x.y.z', context)).rejects.toBeInstanceOf(TokenDecryptionError);
  });
});

describe('KMS faults (a real KMSClient; a middleware answers in place of the network)', () => {
  /** A client whose every call fails with `fault` after the SDK's own retries (none here). */
  const failingKms = (fault: Error) => {
    const client = new KMSClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' }, maxAttempts: 1 });
    client.middlewareStack.add(
      () => async () => {
        throw fault;
      },
      { step: 'finalizeRequest', name: 'networkStandIn' },
    );
    return client;
  };

  test('a fault a retry can mend (KMS internal error) becomes StoreUnavailableError: a 503 with Retry-After', async () => {
    const cipher = new KmsTokenCipher(failingKms(new KMSInternalException({ message: 'internal', $metadata: { httpStatusCode: 500 } })), 'alias/tokens');
    await expect(cipher.encrypt('EAAG-token', context)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(cipher.decrypt('kms.v1:AAAA', context)).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  test('a fault no retry mends (the key is disabled) stays what it is: a plain 500', async () => {
    const disabled = new KMSInvalidStateException({ message: 'key is disabled', $metadata: { httpStatusCode: 400 } });
    const cipher = new KmsTokenCipher(failingKms(disabled), 'alias/tokens');
    await expect(cipher.encrypt('EAAG-token', context)).rejects.toBe(disabled);
  });
});

test('the unconfigured cipher explains what to configure', async () => {
  await expect(unconfiguredTokenCipher.encrypt('x', context)).rejects.toBeInstanceOf(TokenEncryptionNotConfiguredError);
});

test('secret generation and hashing', () => {
  const secret = randomSecretGenerator.generateSecret('wbk_');
  expect(secret).toMatch(/^wbk_[A-Za-z0-9_-]{43}$/);
  expect(hashSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
  expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
