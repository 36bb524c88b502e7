import { generateLocalTokenKey, LocalAesTokenCipher } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { InvalidMetaAppInputError } from '../../../shared/meta-app/errors';
import { bindMetaAppServices } from '../../../shared/meta-app/meta-app-services';
import type { MetaAppSettingsStore, StoredMetaApp } from '../../../shared/meta-app/ports';
import { fixedClock } from '../../../shared/ports/clock';
import { MetaAppSecretsCache } from '../../../shared/meta-app/meta-app-settings';
import { CountingCipher } from '../../support/tenancy-test-ports';

class InMemoryMetaAppSettings implements MetaAppSettingsStore {
  stored: StoredMetaApp | undefined;
  async read() {
    return this.stored;
  }
  async write(settings: StoredMetaApp) {
    this.stored = { ...settings };
  }
}

function kit() {
  const settings = new InMemoryMetaAppSettings();
  const cipher = new CountingCipher(new LocalAesTokenCipher(generateLocalTokenKey()));
  const clock = fixedClock('2025-03-01T12:00:00.000Z');
  const metaApp = bindMetaAppServices({ settings, cipher, clock, secretsCache: new MetaAppSecretsCache(), deadLetters: () => undefined });
  return { settings, cipher, clock, metaApp };
}

describe('Meta app settings', () => {
  it('are stored encrypted and read back decrypted; describe shows only whether and when', async () => {
    const { settings, metaApp } = kit();
    expect(await metaApp.describe()).toEqual({ configured: false });
    expect(await metaApp.secrets.load()).toBeUndefined();

    expect(await metaApp.configure({ appSecret: ' s3cret-app ', verifyToken: 'verify-123' })).toEqual({
      configured: true,
      updatedAt: '2025-03-01T12:00:00.000Z',
    });
    expect(JSON.stringify(settings.stored)).not.toMatch(/s3cret-app|verify-123/);
    expect(await metaApp.secrets.load()).toEqual({ appSecret: 's3cret-app', verifyToken: 'verify-123' });
    expect(await metaApp.describe()).toEqual({ configured: true, updatedAt: '2025-03-01T12:00:00.000Z' });
  });

  it('bind each ciphertext to its field: swapped ciphertexts do not decrypt', async () => {
    const { settings, metaApp } = kit();
    await metaApp.configure({ appSecret: 'app-secret', verifyToken: 'verify-token' });
    const stored = settings.stored!;
    settings.stored = { ...stored, encryptedAppSecret: stored.encryptedVerifyToken, encryptedVerifyToken: stored.encryptedAppSecret };
    await expect(metaApp.secrets.load()).rejects.toThrow();
  });

  it('keep decrypted values five minutes without reading the store; fresh reads and a new configuration bypass them', async () => {
    const { settings, cipher, clock, metaApp } = kit();
    await metaApp.configure({ appSecret: 'first', verifyToken: 'token' });
    const reads = jest.spyOn(settings, 'read');
    await metaApp.secrets.load();
    await metaApp.secrets.load();
    expect([reads.mock.calls.length, cipher.decryptions]).toEqual([1, 2]);
    clock.advanceBy(5 * 60_000 + 1);
    await metaApp.secrets.load();
    expect([reads.mock.calls.length, cipher.decryptions]).toEqual([2, 4]);
    await metaApp.secrets.load({ fresh: true });
    expect(reads.mock.calls.length).toBe(3);

    await metaApp.configure({ appSecret: 'second', verifyToken: 'token' });
    expect((await metaApp.secrets.load())?.appSecret).toBe('second');
  });

  it('refuse empty, spaced or over-long values, naming the flag and the rule', async () => {
    const { settings, metaApp } = kit();
    await expect(metaApp.configure({ appSecret: '', verifyToken: 'ok' })).rejects.toThrow(new InvalidMetaAppInputError('--app-secret is required'));
    await expect(metaApp.configure({ appSecret: 'ok', verifyToken: 'two words' })).rejects.toThrow(/--verify-token must be printable ASCII without spaces/);
    await expect(metaApp.configure({ appSecret: 'x'.repeat(513), verifyToken: 'ok' })).rejects.toThrow(/--app-secret must be at most 512 characters/);
    expect(settings.stored).toBeUndefined();
  });

  it('replay needs the dead-letter queue URL', async () => {
    await expect(kit().metaApp.replayDeadLetters(10)).rejects.toThrow(/META_EVENTS_DEAD_LETTER_QUEUE_URL/);
  });
});
