/**
 * Secrets stored before encryption contexts named their purpose stay readable through their
 * purpose's legacy context, and only through it: nothing else falls back, and every new
 * ciphertext is bound to its purpose.
 */
import { LocalAesTokenCipher, generateLocalTokenKey } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { TokenDecryptionError } from '../../../shared/crypto/errors';
import { withLegacyContextFallback } from '../../../shared/crypto/legacy-context-fallback';
import { legacyContextOf, type EncryptionContext } from '../../../shared/crypto/token-cipher';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { upstreamTokenContext } from '../../../shared/tenancy/business-account-use-cases';
import { webhookSecretContext } from '../../../shared/adapters/dynamodb/dynamodb-webhook-endpoint-registry';

const counting = (inner: LocalAesTokenCipher) => {
  const contexts: Array<Readonly<Record<string, string>>> = [];
  return {
    contexts,
    cipher: {
      encrypt: (plaintext: string, context: EncryptionContext) => inner.encrypt(plaintext, context),
      decrypt: (ciphertext: string, context: Readonly<Record<string, string>>) => {
        contexts.push(context);
        return inner.decrypt(ciphertext, context);
      },
    },
  };
};

describe('the legacy context fallback', () => {
  const raw = new LocalAesTokenCipher(generateLocalTokenKey());

  it('knows the legacy form of upstream tokens and webhook secrets only, by their exact fields', () => {
    expect(legacyContextOf(upstreamTokenContext('org_1', '1001'))).toEqual({ organizationId: 'org_1', wabaId: '1001' });
    expect(legacyContextOf(webhookSecretContext('org_1', 'whk_1'))).toEqual({ organizationId: 'org_1', webhookEndpointId: 'whk_1' });
    expect(legacyContextOf({ purpose: 'meta-app', field: 'app-secret' })).toBeUndefined();
    expect(legacyContextOf({ purpose: 'upstream-token', organizationId: 'org_1', webhookEndpointId: 'whk_1' })).toBeUndefined();
  });

  it('opens a token stored under the legacy context, after the new one fails', async () => {
    const legacy = await raw.encrypt('EAAG-old-token', { organizationId: 'org_1', wabaId: '1001' } as unknown as EncryptionContext);
    const { cipher, contexts } = counting(raw);
    await expect(withLegacyContextFallback(cipher).decrypt(legacy, upstreamTokenContext('org_1', '1001'))).resolves.toBe('EAAG-old-token');
    expect(contexts).toEqual([upstreamTokenContext('org_1', '1001'), { organizationId: 'org_1', wabaId: '1001' }]);
  });

  it('opens a new ciphertext with one decryption, and binds every new one to its purpose', async () => {
    const { cipher, contexts } = counting(raw);
    const fallback = withLegacyContextFallback(cipher);
    const fresh = await fallback.encrypt('EAAG-new-token', upstreamTokenContext('org_1', '1001'));
    await expect(fallback.decrypt(fresh, upstreamTokenContext('org_1', '1001'))).resolves.toBe('EAAG-new-token');
    expect(contexts).toHaveLength(1);
    await expect(raw.decrypt(fresh, { organizationId: 'org_1', wabaId: '1001' })).rejects.toBeInstanceOf(TokenDecryptionError);
  });

  it("never opens another owner's or another purpose's secret", async () => {
    const fallback = withLegacyContextFallback(raw);
    const legacyToken = await raw.encrypt('EAAG-old-token', { organizationId: 'org_1', wabaId: '1001' } as unknown as EncryptionContext);
    const legacySecret = await raw.encrypt('whsec_old', { organizationId: 'org_1', webhookEndpointId: '1001' } as unknown as EncryptionContext);
    await expect(fallback.decrypt(legacyToken, upstreamTokenContext('org_2', '1001'))).rejects.toBeInstanceOf(TokenDecryptionError);
    await expect(fallback.decrypt(legacySecret, upstreamTokenContext('org_1', '1001'))).rejects.toBeInstanceOf(TokenDecryptionError);
    await expect(fallback.decrypt(legacyToken, webhookSecretContext('org_1', '1001'))).rejects.toBeInstanceOf(TokenDecryptionError);
    // Meta app settings always named their purpose: a context without it is no legacy form of theirs.
    const unnamed = await raw.encrypt('app-secret', { field: 'app-secret' } as unknown as EncryptionContext);
    await expect(fallback.decrypt(unnamed, { purpose: 'meta-app', field: 'app-secret' })).rejects.toBeInstanceOf(TokenDecryptionError);
  });

  it('does not retry an outage with the legacy context', async () => {
    const outage = new StoreUnavailableError('KMS unavailable');
    const decrypt = jest.fn(async () => {
      throw outage;
    });
    const fallback = withLegacyContextFallback({ encrypt: jest.fn(), decrypt });
    await expect(fallback.decrypt('kms.v1:AAAA', upstreamTokenContext('org_1', '1001'))).rejects.toBe(outage);
    expect(decrypt).toHaveBeenCalledTimes(1);
  });
});
