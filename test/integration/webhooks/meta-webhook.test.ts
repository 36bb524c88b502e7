/**
 * Meta's webhook endpoint through the local runtime: real HTTP to /hooks/meta/whatsapp, the
 * metaEvents queue read back with the SQS client, the Meta app settings in the tenancy table.
 * No consumer runs (startWorkers: false), so the queue holds exactly what the endpoint stored.
 */
import { DeleteMessageBatchCommand, PurgeQueueCommand, ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { getServices } from '../../../functions/composition';
import { runMetaAppAdminCommand } from '../../../shared/meta-app/meta-app-admin-commands';
import { REPLAYED_ATTRIBUTE } from '../../../shared/meta-app/meta-event-message';
import { signWebhookBody } from '../../../shared/meta-app/webhook-signature';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { expectNothingInternal } from '../hardening/surface-shapes';

jest.setTimeout(120_000);

const path = '/hooks/meta/whatsapp';
const appSecret = 'integration-app-secret-7f3a';
const verifyToken = 'integration-verify-token';
const batch = (id: string) =>
  `{"object":"whatsapp_business_account","entry":[{"id":"102290129340398","changes":[{"value":{"messaging_product":"whatsapp","metadata":{"display_phone_number":"15550100001","phone_number_id":"110000000000001"},"statuses":[{"id":"wamid.${id}","status":"delivered","timestamp":"1700000000","recipient_id":"15551234567"}]},"field":"messages"}]}]}`;

let runtime: TestRuntime;

beforeAll(async () => {
  // No demo seed: the app starts unconfigured whatever the seed provisions.
  runtime = await startTestRuntime({ seedDemo: false, startWorkers: false });
});
afterAll(async () => runtime?.close());

async function drain(queueUrl: string, attributes: Array<string | undefined> = []): Promise<string[]> {
  const bodies: string[] = [];
  for (;;) {
    const received = await runtime.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, VisibilityTimeout: 30, MessageAttributeNames: ['All'] }),
    );
    const messages = received.Messages ?? [];
    if (messages.length === 0) return bodies;
    bodies.push(...messages.map((message) => message.Body!));
    attributes.push(...messages.map((message) => message.MessageAttributes?.[REPLAYED_ATTRIBUTE]?.StringValue));
    await runtime.sqs.send(
      new DeleteMessageBatchCommand({
        QueueUrl: queueUrl,
        Entries: messages.map((message, index) => ({ Id: String(index), ReceiptHandle: message.ReceiptHandle! })),
      }),
    );
  }
}

const post = (raw: string, headers: Record<string, string> = {}) => runtime.call('POST', path, { rawBody: raw, headers });
const signed = (raw: string, secret = appSecret) => ({ 'X-Hub-Signature-256': signWebhookBody(raw, secret) });
const handshake = (token: string, mode = 'subscribe') =>
  runtime.call('GET', `${path}?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`);

describe('before any Meta app is configured', () => {
  it('refuses the handshake (403) and answers POSTs 503 so Meta keeps them; nothing is stored', async () => {
    const get = await handshake(verifyToken);
    expect(get.status).toBe(403);
    expect(get.body).toEqual({ error: { code: 'VERIFICATION_FAILED', message: 'Webhook verification failed', requestId: expect.any(String) } });

    const raw = batch('unconfigured');
    const answer = await post(raw, signed(raw));
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('SERVICE_UNAVAILABLE');
    expectNothingInternal(answer);
    expect(await drain(runtime.queueUrls.metaEvents)).toEqual([]);
    expect(await getServices().metaApp.describe()).toEqual({ configured: false });
  });
});

describe('with the Meta app configured', () => {
  beforeAll(async () => {
    const shown = await runMetaAppAdminCommand(getServices().metaApp, 'set-meta-app', { 'app-secret': appSecret, 'verify-token': verifyToken });
    expect(JSON.stringify(shown)).not.toContain(appSecret);
    // The endpoint keeps "not configured" (seen by the test above) for one second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
  });
  afterEach(async () => drain(runtime.queueUrls.metaEvents));

  it('shows whether and when it was configured, never the secret or the token', async () => {
    const shown = await runMetaAppAdminCommand(getServices().metaApp, 'show-meta-app', {});
    expect(shown).toEqual({ configured: true, updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(JSON.stringify(shown)).not.toMatch(new RegExp(`${appSecret}|${verifyToken}`));
  });

  it('answers the handshake with the challenge as text/plain, and 403 for a wrong token or mode', async () => {
    const ok = await handshake(verifyToken);
    expect([ok.status, ok.body]).toEqual([200, 1158201444]);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await handshake(`${verifyToken}x`)).status).toBe(403);
    expect((await handshake(verifyToken, 'unsubscribe')).status).toBe(403);
  });

  it('stores a signed batch as exactly the raw bytes received and answers {"received":true}', async () => {
    // Odd spacing, key order and escapes: any re-serialization would change the bytes (and the signature).
    const raw = `{ "entry" :[{"id":"1","changes":[]}],\n  "object":"whatsapp_business_account", "note":"caf\\u00e9 ☕ \\/"}`;
    const before = Date.now();
    const answer = await post(raw, signed(raw));
    expect([answer.status, answer.body]).toEqual([200, { received: true }]);
    const stored = await drain(runtime.queueUrls.metaEvents);
    expect(stored).toHaveLength(1);
    const message = JSON.parse(stored[0]!);
    expect(message).toEqual({ version: 1, receivedAt: expect.any(String), body: raw });
    expect(Date.parse(message.receivedAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('takes the signature header in any letter case', async () => {
    const raw = batch('case');
    const answer = await post(raw, { 'x-hub-signature-256': signWebhookBody(raw, appSecret) });
    expect(answer.status).toBe(200);
    expect((await drain(runtime.queueUrls.metaEvents)).map((body) => JSON.parse(body).body)).toEqual([raw]);
  });

  it.each([
    ['missing', () => ({})],
    ['malformed', () => ({ 'X-Hub-Signature-256': 'sha256=not-hex' })],
    ['made with another secret', (raw: string) => signed(raw, 'someone-elses-secret')],
    ['made over another body', (raw: string) => signed(`${raw} `)],
  ])('a %s signature answers 401 and the queue stays empty', async (_name, headers: (raw: string) => Record<string, string>) => {
    const raw = batch('unsigned');
    const answer = await post(raw, headers(raw));
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('INVALID_SIGNATURE');
    expect(await drain(runtime.queueUrls.metaEvents)).toEqual([]);
  });

  it('answers 413 above 256 KiB and stores nothing', async () => {
    const raw = `{"object":"whatsapp_business_account","pad":"${'a'.repeat(256 * 1024)}"}`;
    const answer = await post(raw, signed(raw));
    expect([answer.status, answer.body.error?.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    expect(await drain(runtime.queueUrls.metaEvents)).toEqual([]);
  });

  it('accepts a validly signed 1 MB batch (200) and queues it as parts that each fit one message and together hold every status', async () => {
    const statuses = Array.from({ length: 6_000 }, (_, i) => ({
      id: `wamid.large-${String(i).padStart(30, '0')}`,
      status: 'delivered',
      timestamp: '1700000000',
      recipient_id: `1555${String(i).padStart(7, '0')}`,
      biz_opaque_callback_data: `b1:pub_large:${Math.floor(i / 1000)}:${i % 1000}`,
    }));
    const raw = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          id: '102290129340398',
          changes: [
            {
              field: 'messages',
              value: { messaging_product: 'whatsapp', metadata: { display_phone_number: '15550100001', phone_number_id: '110000000000001' }, statuses },
            },
          ],
        },
      ],
    });
    expect(Buffer.byteLength(raw)).toBeGreaterThan(1_000_000);
    const answer = await post(raw, signed(raw));
    expect([answer.status, answer.body]).toEqual([200, { received: true }]);
    const stored = await drain(runtime.queueUrls.metaEvents);
    expect(stored.length).toBeGreaterThan(3);
    expect(stored.every((body) => Buffer.byteLength(body) <= 256 * 1024)).toBe(true);
    const ids = stored.flatMap((body) => JSON.parse(JSON.parse(body).body).entry[0].changes[0].value.statuses.map((status: { id: string }) => status.id));
    expect(ids.sort()).toEqual(statuses.map((status) => status.id).sort());
  });

  it('accepts a replaced app secret on the next request (warm processes keep the previous one for at most five minutes)', async () => {
    const replaced = `${appSecret}-rotated`;
    const raw = batch('rotated');
    expect((await post(raw, signed(raw, replaced))).status).toBe(401);
    await getServices().metaApp.configure({ appSecret: replaced, verifyToken });
    // A failed check reads the settings again at most once a second (a flood of forged requests
    // must not reach the table and KMS per request): the next request after that applies it.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    try {
      expect((await post(raw, signed(raw, replaced))).status).toBe(200);
      expect((await drain(runtime.queueUrls.metaEvents)).map((body) => JSON.parse(body).body)).toEqual([raw]);
    } finally {
      await getServices().metaApp.configure({ appSecret, verifyToken });
    }
  });
});

describe('replay-meta-events', () => {
  it('moves every dead-lettered batch back to the queue, unchanged, and empties the dead-letter queue', async () => {
    const deadLetter = runtime.queueUrls.metaEventsDeadLetter!;
    expect(runtime.environment.META_EVENTS_DEAD_LETTER_QUEUE_URL).toBe(deadLetter);
    await runtime.sqs.send(new PurgeQueueCommand({ QueueUrl: runtime.queueUrls.metaEvents })).catch(() => undefined);
    const bodies = Array.from({ length: 13 }, (_, index) => JSON.stringify({ version: 1, receivedAt: new Date().toISOString(), body: batch(`dlq${index}`) }));
    for (const body of bodies) await runtime.sqs.send(new SendMessageCommand({ QueueUrl: deadLetter, MessageBody: body }));

    expect(await runMetaAppAdminCommand(getServices().metaApp, 'replay-meta-events', { limit: '5' })).toEqual({ moved: 5 });
    expect(await runMetaAppAdminCommand(getServices().metaApp, 'replay-meta-events', {})).toEqual({ moved: 8 });
    const replayed: Array<string | undefined> = [];
    expect((await drain(runtime.queueUrls.metaEvents, replayed)).sort()).toEqual([...bodies].sort());
    // Marked as replays: the processor applies them like redeliveries (docs/DELIVERY-STATUS.md).
    expect(replayed).toEqual(bodies.map(() => 'true'));
    expect(await drain(deadLetter)).toEqual([]);
    await expect(runMetaAppAdminCommand(getServices().metaApp, 'replay-meta-events', { limit: '0' })).rejects.toThrow(/--limit must be a whole number/);
  });
});
