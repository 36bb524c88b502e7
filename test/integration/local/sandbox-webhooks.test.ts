/**
 * The local runtime points the embedded sandbox's webhooks at the gateway's Meta webhook endpoint,
 * signed with the demo app secret, and keeps the demo Meta app settings in `.local/demo.json`
 * across restarts.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { metaWebhookPath, startLocalRuntime } from '../../../local/local-runtime';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

describe('sandbox webhooks in the local runtime', () => {
  let runtime: TestRuntime;
  const logged: string[] = [];

  beforeAll(async () => {
    runtime = await startTestRuntime({ sandboxWebhooks: true, sandbox: { log: (line) => logged.push(line) } });
  }, 60_000);
  afterAll(() => runtime?.close());

  it('posts signed statuses of accepted sends to /hooks/meta/whatsapp on the gateway', async () => {
    const { demo, sandbox } = runtime;
    expect(metaWebhookPath).toBe('/hooks/meta/whatsapp');
    expect(runtime.webhookUrl).toBe(`${runtime.baseUrl}/hooks/meta/whatsapp`);
    expect(demo).toMatchObject({
      webhookUrl: runtime.webhookUrl,
      metaAppSecret: expect.stringMatching(/^[0-9a-f]{64}$/),
      webhookVerifyToken: expect.any(String),
    });
    expect(sandbox!.webhooks.settings()).toMatchObject({ url: runtime.webhookUrl, appSecretConfigured: true, active: true });

    const saved = JSON.parse(readFileSync(join(runtime.dataDirectory, 'demo.json'), 'utf8'));
    expect(saved).toMatchObject({ webhookUrl: runtime.webhookUrl, metaAppSecret: demo.metaAppSecret, webhookVerifyToken: demo.webhookVerifyToken });

    sandbox!.webhooks.configure({ sentDelayMs: 0, deliveredDelayMs: 0, readDelayMs: 0, maxAttempts: 1 });
    const sent = await fetch(`${runtime.sandboxUrl}/v25.0/${demo.phoneNumberIds[0]}/messages`, {
      method: 'POST',
      headers: { authorization: 'Bearer sandbox-token-demo-retail', 'content-type': 'application/json' },
      body: JSON.stringify({ messaging_product: 'whatsapp', to: '15551230000', type: 'text', text: { body: 'hi' } }),
    });
    expect(sent.status).toBe(200);
    expect(await sandbox!.webhooks.drain()).toBe(true);

    const deliveries = sandbox!.webhooks.deliveries();
    expect(deliveries.flatMap((delivery) => delivery.events)).toEqual(expect.arrayContaining(['sent', 'delivered']));
    for (const delivery of deliveries) {
      expect(delivery.url).toBe(runtime.webhookUrl);
      expect(delivery.signature).toBe(`sha256=${createHmac('sha256', demo.metaAppSecret).update(delivery.body).digest('hex')}`);
      // Answered by the gateway, whatever the endpoint's state: the emitter reached it.
      expect(delivery.status).not.toBeNull();
    }
    // The runtime goes on serving whatever the endpoint answered.
    expect((await runtime.call('GET', '/prod/api/v2/broadcast/public/health')).status).toBe(200);
  });

  it('can be turned off through the control API', async () => {
    const off = await fetch(`${runtime.sandboxUrl}/_sandbox/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ enabled: false }),
    });
    expect(await off.json()).toMatchObject({ enabled: false, active: false });
    runtime.sandbox!.reset();
    expect(runtime.sandbox!.webhooks.settings()).toMatchObject({ url: runtime.webhookUrl, active: true });
  });
});

describe('demo Meta app settings across restarts', () => {
  it('keeps metaAppSecret and webhookVerifyToken in demo.json when the data persists', async () => {
    const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-webhooks-'));
    try {
      const first = await startLocalRuntime({ port: 0, dataDirectory, persist: true, sandbox: { log: () => undefined } });
      const secret = first.demo!.metaAppSecret;
      const token = first.demo!.webhookVerifyToken;
      await first.stop();
      const second = await startLocalRuntime({ port: 0, dataDirectory, persist: true, sandbox: { log: () => undefined } });
      try {
        expect(second.demo).toMatchObject({ metaAppSecret: secret, webhookVerifyToken: token, webhookUrl: second.webhookUrl });
        expect(second.sandbox!.webhooks.settings()).toMatchObject({ url: second.webhookUrl, active: true });
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDirectory, { recursive: true, force: true });
    }
  }, 120_000);
});
