import { generateLocalTokenKey, LocalAesTokenCipher } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { bindMetaAppServices } from '../../../shared/meta-app/meta-app-services';
import { MetaAppSecretsCache } from '../../../shared/meta-app/meta-app-settings';
import type { MetaAppSettingsStore, StoredMetaApp } from '../../../shared/meta-app/ports';
import { acceptMetaEvents, verifyMetaSubscription } from '../../../shared/meta-app/webhook-intake';
import { signWebhookBody } from '../../../shared/meta-app/webhook-signature';
import { fixedClock } from '../../../shared/ports/clock';
import { CountingCipher } from '../../support/tenancy-test-ports';

class CountingSettings implements MetaAppSettingsStore {
  stored: StoredMetaApp | undefined;
  reads = 0;
  async read() {
    this.reads += 1;
    await new Promise((resolve) => setImmediate(resolve));
    return this.stored;
  }
  async write(settings: StoredMetaApp) {
    this.stored = { ...settings };
  }
}

const batch = '{"object":"whatsapp_business_account","entry":[]}';

async function floodKit() {
  const settings = new CountingSettings();
  const cipher = new CountingCipher(new LocalAesTokenCipher(generateLocalTokenKey()));
  const clock = fixedClock('2026-11-26T12:00:00.000Z');
  const admin = bindMetaAppServices({ settings, cipher, clock, secretsCache: new MetaAppSecretsCache(), deadLetters: () => undefined });
  await admin.configure({ appSecret: 'the-app-secret', verifyToken: 'the-verify-token' });
  // The endpoint is another process: its own cache, the same store and key.
  const endpoint = bindMetaAppServices({ settings, cipher, clock, secretsCache: new MetaAppSecretsCache(), deadLetters: () => undefined });
  const sent: string[] = [];
  const ports = { metaApp: endpoint.secrets, metaEvents: { send: async (body: string) => void sent.push(body) } };
  settings.reads = 0;
  cipher.decryptions = 0;
  return { settings, cipher, clock, admin, ports, sent };
}

describe('the Meta webhook endpoint under a flood of forged requests', () => {
  it('1,000 bad-signature POSTs over 10 s cost at most 2 KMS decrypts and a read a second; valid deliveries interleaved are all accepted', async () => {
    const { settings, cipher, clock, ports, sent } = await floodKit();
    const outcomes = { accepted: 0, refused: 0 };
    for (let second = 0; second < 10; second += 1) {
      // 100 forged POSTs a second arriving concurrently, with one valid delivery among them.
      const requests = Array.from({ length: 101 }, (_, i) => {
        const signature = i === 50 ? signWebhookBody(batch, 'the-app-secret') : signWebhookBody(batch, `forged-${i}`);
        return acceptMetaEvents(ports, { rawBody: Buffer.from(batch), signature, receivedAt: clock.now() }).then(
          () => (outcomes.accepted += 1),
          () => (outcomes.refused += 1),
        );
      });
      await Promise.all(requests);
      clock.advanceBy(1_000);
    }
    expect(outcomes).toEqual({ accepted: 10, refused: 1_000 });
    expect(sent).toHaveLength(10);
    expect(cipher.decryptions).toBeLessThanOrEqual(2);
    expect(settings.reads).toBeLessThanOrEqual(11);
  });

  it('wrong verify tokens cost no decrypt after the first load; a flood before configuration reads once a second', async () => {
    const { settings, cipher, clock, ports } = await floodKit();
    const handshakes = Array.from({ length: 500 }, (_, i) =>
      verifyMetaSubscription(ports.metaApp, { mode: 'subscribe', verifyToken: `guess-${i}`, challenge: '1' }).catch(() => 'refused'),
    );
    expect(new Set(await Promise.all(handshakes))).toEqual(new Set(['refused']));
    expect(cipher.decryptions).toBe(2);
    expect(settings.reads).toBeLessThanOrEqual(2);

    settings.stored = undefined;
    clock.advanceBy(5 * 60_000 + 1);
    settings.reads = 0;
    const unconfigured = Array.from({ length: 300 }, () =>
      acceptMetaEvents(ports, { rawBody: Buffer.from(batch), signature: signWebhookBody(batch, 'x'), receivedAt: clock.now() }).catch(
        (error: Error) => error.name,
      ),
    );
    expect(new Set(await Promise.all(unconfigured))).toEqual(new Set(['MetaAppNotConfiguredError']));
    expect(settings.reads).toBe(1);
  });

  it('a secret replaced in another process applies on the first request signed with it, once the fresh-read floor allows', async () => {
    const { clock, admin, ports, sent } = await floodKit();
    await acceptMetaEvents(ports, { rawBody: Buffer.from(batch), signature: signWebhookBody(batch, 'the-app-secret'), receivedAt: clock.now() });
    await admin.configure({ appSecret: 'rotated', verifyToken: 'the-verify-token' });
    clock.advanceBy(1_000);
    await acceptMetaEvents(ports, { rawBody: Buffer.from(batch), signature: signWebhookBody(batch, 'rotated'), receivedAt: clock.now() });
    expect(sent).toHaveLength(2);
  });
});
