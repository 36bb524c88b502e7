import { createGroupHandler } from '../../../shared/http/create-group-handler';
import { decodeMetaEventMessage } from '../../../shared/meta-app/meta-event-message';
import type { MetaAppSecrets, MetaEventQueue } from '../../../shared/meta-app/ports';
import { MAX_META_EVENT_MESSAGE_BYTES, MAX_WEBHOOK_BODY_BYTES } from '../../../shared/meta-app/webhook-intake';
import { signWebhookBody } from '../../../shared/meta-app/webhook-signature';
import { serviceRoutesOf } from '../../../runtime-contract/route-manifest';
import { receiveMetaEvents } from '../../../functions/meta-webhook/receive-meta-events.handler';
import { verifyMetaSubscription } from '../../../functions/meta-webhook/verify-meta-subscription.handler';
import { lambdaContext, proxyEventFor } from '../../support/api-gateway-event';
import { WebhookSourceGuard, sourceRangesOf } from '../../../shared/meta-app/webhook-source-guard';
import { routeGuards } from '../../../runtime-contract/route-guards';

const routeOf = (method: 'GET' | 'POST') => serviceRoutesOf('meta-webhook').find((route) => route.method === method)!;
const getRoute = routeOf('GET');
const postRoute = routeOf('POST');
const secrets: MetaAppSecrets = { appSecret: 'the-app-secret', verifyToken: 'the-verify-token' };
const receivedAt = new Date('2025-03-01T12:00:00.000Z');

class RecordingQueue implements MetaEventQueue {
  sent: string[] = [];
  tenants: string[] = [];
  failure: Error | undefined;
  async send(body: string, tenant: string) {
    if (this.failure) throw this.failure;
    this.sent.push(body);
    this.tenants.push(tenant);
  }
}

function endpoint(configured: MetaAppSecrets | null = secrets, sourceRanges: readonly string[] = []) {
  const queue = new RecordingQueue();
  let now = receivedAt;
  const handler = createGroupHandler({
    group: 'meta-webhook',
    operations: { verifyMetaSubscription, receiveMetaEvents },
    dependencies: () => ({
      metaApp: { load: async () => configured ?? undefined },
      metaEvents: queue,
      authenticate: () => Promise.reject(new Error('no credential routes')),
      rateLimiter: { consume: () => Promise.reject(new Error('no rate class')) },
      clock: { now: () => now },
      webhookSources,
    }),
  });
  const webhookSources = new WebhookSourceGuard({ refusals: routeGuards['meta-webhook'].perSourceRefusals, sourceRanges });
  const get = (query: Record<string, string>) => handler(proxyEventFor(getRoute, { query }), lambdaContext());
  const post = (body: string, headers: Record<string, string>, sourceIp?: string) =>
    handler(proxyEventFor(postRoute, { body, headers, sourceIp }), lambdaContext());
  const advance = (ms: number) => (now = new Date(now.getTime() + ms));
  return { queue, handler, get, post, advance };
}

const batch = '{"object":"whatsapp_business_account","entry":[{"id":"102290129340398","changes":[{"field":"messages","value":{"statuses":[]}}]}]}';

describe('the verification handshake (GET)', () => {
  const handshake = { 'hub.mode': 'subscribe', 'hub.verify_token': 'the-verify-token', 'hub.challenge': '1158201444' };

  it('echoes hub.challenge as text/plain for subscribe with the stored verify token', async () => {
    const answer = await endpoint().get(handshake);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toBe('1158201444');
    expect(answer.headers?.['Content-Type']).toMatch(/^text\/plain/);
  });

  it.each([
    ['a wrong token', { ...handshake, 'hub.verify_token': 'the-verify-toke' }],
    ['another mode', { ...handshake, 'hub.mode': 'unsubscribe' }],
    ['no token', { 'hub.mode': 'subscribe', 'hub.challenge': '1' }],
    ['no challenge', { 'hub.mode': 'subscribe', 'hub.verify_token': 'the-verify-token' }],
  ])('answers 403 for %s, never echoing the challenge', async (_name, query) => {
    const answer = await endpoint().get(query);
    expect(answer.statusCode).toBe(403);
    expect(JSON.parse(answer.body)).toEqual({ error: { code: 'VERIFICATION_FAILED', message: 'Webhook verification failed', requestId: expect.any(String) } });
  });

  it('answers 403 when no Meta app is configured', async () => {
    expect((await endpoint(null).get(handshake)).statusCode).toBe(403);
  });
});

describe('event batches (POST)', () => {
  it('stores the exact raw body with its arrival time and answers {"received":true}; the header name is case-insensitive', async () => {
    const { queue, post } = endpoint();
    const raw = `${batch}\n`;
    const answer = await post(raw, { 'X-HUB-Signature-256': signWebhookBody(raw, secrets.appSecret), 'Content-Type': 'application/json' });
    expect([answer.statusCode, JSON.parse(answer.body)]).toEqual([200, { received: true }]);
    expect(queue.sent.map(decodeMetaEventMessage)).toEqual([{ version: 1, receivedAt: receivedAt.toISOString(), body: raw }]);
    expect(JSON.parse(queue.sent[0]!)).toEqual({ version: 1, receivedAt: '2025-03-01T12:00:00.000Z', body: raw });
  });

  it.each([
    ['missing', {}],
    ['malformed', { 'x-hub-signature-256': 'sha256=xyz' }],
    ['signed with another secret', { 'x-hub-signature-256': signWebhookBody(batch, 'another-secret') }],
    ['signed over another body', { 'x-hub-signature-256': signWebhookBody(`${batch} `, 'the-app-secret') }],
  ])('a %s signature answers 401 and stores nothing', async (_name, headers: Record<string, string>) => {
    const { queue, post } = endpoint();
    const answer = await post(batch, headers);
    expect(answer.statusCode).toBe(401);
    expect(JSON.parse(answer.body).error.code).toBe('INVALID_SIGNATURE');
    expect(queue.sent).toEqual([]);
  });

  it("caps the body at 4 MiB (413, before any signature work); a body not of Meta's shape must fit one queue message once escaped", async () => {
    const { queue, post } = endpoint();
    const padding = (size: number, char: string) => `{"object":"whatsapp_business_account","pad":"${char.repeat(size)}"}`;
    const over = padding(MAX_WEBHOOK_BODY_BYTES, 'a');
    expect((await post(over, { 'x-hub-signature-256': signWebhookBody(over, secrets.appSecret) })).statusCode).toBe(413);
    // Under the message cap as bytes, over it once every quote is escaped in the queue message, and nothing to split along.
    const quoted = padding(MAX_META_EVENT_MESSAGE_BYTES - 1000, '"');
    expect(Buffer.byteLength(quoted)).toBeLessThanOrEqual(MAX_META_EVENT_MESSAGE_BYTES);
    const answer = await post(quoted, { 'x-hub-signature-256': signWebhookBody(quoted, secrets.appSecret) });
    expect([answer.statusCode, JSON.parse(answer.body).error.code]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    // Exactly at the message cap is accepted as it is.
    const atCap = padding(MAX_META_EVENT_MESSAGE_BYTES - padding(0, 'a').length - 100, 'a');
    expect((await post(atCap, { 'x-hub-signature-256': signWebhookBody(atCap, secrets.appSecret) })).statusCode).toBe(200);
    expect(queue.sent).toHaveLength(1);
    expect(decodeMetaEventMessage(queue.sent[0]!)?.body).toBe(atCap);
  });

  it('answers 503 with nothing internal when the queue fails, and when no Meta app is configured', async () => {
    const { queue, post } = endpoint();
    queue.failure = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9324 (AWS.SimpleQueueService)'), { name: 'NetworkingError' });
    const failed = await post(batch, { 'x-hub-signature-256': signWebhookBody(batch, secrets.appSecret) });
    expect(failed.statusCode).toBe(503);
    expect(failed.body).not.toMatch(/ECONNREFUSED|SimpleQueueService|queue/i);
    expect(JSON.parse(failed.body).error.code).toBe('SERVICE_UNAVAILABLE');

    const unconfigured = await endpoint(null).post(batch, { 'x-hub-signature-256': signWebhookBody(batch, secrets.appSecret) });
    expect([unconfigured.statusCode, JSON.parse(unconfigured.body).error.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
  });

  it('checks a failing signature once more against freshly read settings (a replaced secret applies at once), and only then refuses', async () => {
    const { acceptMetaEvents } = await import('../../../shared/meta-app/webhook-intake');
    const queue = new RecordingQueue();
    const loads: Array<boolean | undefined> = [];
    const rotated: MetaAppSecrets = { ...secrets, appSecret: 'rotated-secret' };
    const metaApp = { load: async (options?: { fresh?: boolean }) => (loads.push(options?.fresh), options?.fresh ? rotated : secrets) };
    await acceptMetaEvents({ metaApp, metaEvents: queue }, { rawBody: Buffer.from(batch), signature: signWebhookBody(batch, 'rotated-secret'), receivedAt });
    expect(queue.sent).toHaveLength(1);
    loads.length = 0;
    await acceptMetaEvents({ metaApp, metaEvents: queue }, { rawBody: Buffer.from(batch), signature: signWebhookBody(batch, secrets.appSecret), receivedAt });
    expect(loads.filter(Boolean)).toEqual([]);
    await expect(
      acceptMetaEvents({ metaApp, metaEvents: queue }, { rawBody: Buffer.from(batch), signature: signWebhookBody(batch, 'nobody'), receivedAt }),
    ).rejects.toThrow('Missing or invalid X-Hub-Signature-256');
    expect(queue.sent).toHaveLength(2);
  });

  it('checks the signature over the decoded bytes of a base64 body (a binary media type)', async () => {
    const { queue, handler } = endpoint();
    const raw = Buffer.from(batch, 'utf8');
    const event = proxyEventFor(postRoute, { body: raw.toString('base64'), headers: { 'x-hub-signature-256': signWebhookBody(raw, secrets.appSecret) } });
    event.isBase64Encoded = true;
    expect((await handler(event, lambdaContext())).statusCode).toBe(200);
    expect(decodeMetaEventMessage(queue.sent[0]!)?.body).toBe(batch);
  });

  it("names the POST's business account as its queue tenant (the fair-queue group), on every part of a split batch", async () => {
    const { queue, post } = endpoint();
    const statuses = Array.from({ length: 4_000 }, (_, index) => ({ id: `wamid.${index}${'x'.repeat(60)}`, status: 'delivered', recipient_id: '15551234567' }));
    const large = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: '102290129340398', changes: [{ field: 'messages', value: { statuses } }] }],
    });
    expect((await post(batch, { 'x-hub-signature-256': signWebhookBody(batch, secrets.appSecret) })).statusCode).toBe(200);
    expect((await post(large, { 'x-hub-signature-256': signWebhookBody(large, secrets.appSecret) })).statusCode).toBe(200);
    expect(queue.sent.length).toBeGreaterThan(2);
    expect(new Set(queue.tenants)).toEqual(new Set(['102290129340398']));
  });
});

describe('the source guard (a route WAF cannot guard)', () => {
  const signed = (raw: string, secret = secrets.appSecret) => ({ 'X-Hub-Signature-256': signWebhookBody(raw, secret) });

  it("holds back a source after 10 refused POSTs in a minute, unheard (429, Retry-After), even signed; Meta's address and others are unaffected", async () => {
    const { queue, post, advance } = endpoint();
    const forger = '198.51.100.7';
    for (let attempt = 0; attempt < 10; attempt += 1) expect((await post(batch, signed(batch, 'forged'), forger)).statusCode).toBe(401);
    const held = await post(batch, signed(batch), forger);
    expect(held.statusCode).toBe(429);
    expect(JSON.parse(held.body).error.code).toBe('THROTTLED');
    expect(held.headers?.['Retry-After']).toBe('60');
    // Another address (Meta's), signed, is heard; its POSTs never count.
    for (let attempt = 0; attempt < 20; attempt += 1) expect((await post(batch, signed(batch), '157.240.1.10')).statusCode).toBe(200);
    expect(queue.sent).toHaveLength(20);
    // Once the oldest refusal has left the window, the source is heard again.
    advance(59_000);
    expect((await post(batch, signed(batch), forger)).headers?.['Retry-After']).toBe('1');
    advance(1_000);
    expect((await post(batch, signed(batch), forger)).statusCode).toBe(200);
  });

  it('with source ranges configured, any other address is refused 403 before its signature is checked', async () => {
    const { queue, post } = endpoint(secrets, ['157.240.0.0/16', '2a03:2880::/32']);
    expect((await post(batch, signed(batch), '157.240.22.35')).statusCode).toBe(200);
    expect((await post(batch, signed(batch), '2a03:2880:f10c:83:face:b00c::25de')).statusCode).toBe(200);
    const outside = await post(batch, signed(batch), '203.0.113.5');
    expect(outside.statusCode).toBe(403);
    expect(JSON.parse(outside.body).error.code).toBe('FORBIDDEN');
    expect(queue.sent).toHaveLength(2);
  });

  it('reads CIDR ranges strictly, naming the entry that is not one', () => {
    expect(sourceRangesOf(['10.0.0.0/8']).check('10.1.2.3', 'ipv4')).toBe(true);
    for (const bad of ['10.0.0.0', '10.0.0.0/33', '::1/129', 'meta.com/16', '10.0.0.0/8/1', '10.0.0.0/x']) {
      expect(() => sourceRangesOf([bad])).toThrow(bad);
    }
  });
});
