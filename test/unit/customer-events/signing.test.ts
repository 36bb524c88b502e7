import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentedSnippet } from '../../support/documented-verifier';
import { customerEventId, newCustomerEvent } from '../../../shared/customer-events/event-envelope';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { signCustomerEvent, verifyCustomerEvent, type ReceivedHeaders } from '../../../shared/customer-events/signing';

const root = join(__dirname, '..', '..', '..');
const secret = 'whsec_test_0123456789';
const now = new Date('2025-05-01T10:00:00.000Z');
const event: CustomerEvent = {
  id: 'evt_abc',
  type: 'message.status',
  createdAt: now.toISOString(),
  data: { jobId: 'pub_1', status: 'delivered', note: 'héllo 👋' },
};

/** Node lower-cases received header names. */
const received = (headers: Record<string, string>): ReceivedHeaders =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

describe('signing customer events', () => {
  it('signs the exact body with a timestamp, and names the event', () => {
    const signed = signCustomerEvent(secret, event, now);
    expect(JSON.parse(signed.body)).toEqual(event);
    expect(signed.headers['X-Webhook-Id']).toBe('evt_abc');
    expect(signed.headers['Content-Type']).toBe('application/json');
    expect(signed.headers['User-Agent']).toMatch(/Webhooks/);
    expect(signed.headers['X-Webhook-Signature']).toMatch(new RegExp(`^t=${now.getTime() / 1000},v1=[0-9a-f]{64}$`));
  });

  it('verifies what it signs, within the tolerance either side', () => {
    const signed = signCustomerEvent(secret, event, now);
    const headers = received(signed.headers);
    expect(verifyCustomerEvent(secret, headers, signed.body, now)).toBe(true);
    expect(verifyCustomerEvent(secret, headers, Buffer.from(signed.body), new Date(now.getTime() + 300_000))).toBe(true);
    expect(verifyCustomerEvent(secret, headers, signed.body, new Date(now.getTime() - 300_000))).toBe(true);
  });

  it('refuses a stale or future timestamp beyond 5 minutes (replay)', () => {
    const signed = signCustomerEvent(secret, event, now);
    const headers = received(signed.headers);
    expect(verifyCustomerEvent(secret, headers, signed.body, new Date(now.getTime() + 301_000))).toBe(false);
    expect(verifyCustomerEvent(secret, headers, signed.body, new Date(now.getTime() - 301_000))).toBe(false);
    expect(verifyCustomerEvent(secret, headers, signed.body, new Date(now.getTime() + 3_600_000), 7_200)).toBe(true);
  });

  it('refuses a tampered body, a changed timestamp, another secret and malformed headers', () => {
    const signed = signCustomerEvent(secret, event, now);
    const headers = received(signed.headers);
    const signature = signed.headers['X-Webhook-Signature']!;
    expect(verifyCustomerEvent(secret, headers, signed.body.replace('delivered', 'read'), now)).toBe(false);
    expect(verifyCustomerEvent('another-secret', headers, signed.body, now)).toBe(false);
    const t = now.getTime() / 1000;
    expect(verifyCustomerEvent(secret, { 'x-webhook-signature': signature.replace(`t=${t}`, `t=${t + 1}`) }, signed.body, now)).toBe(false);
    for (const header of ['', 'v1=abc', `t=${t}`, `t=${t},v1=${'0'.repeat(63)}`, `t=abc,v1=${'0'.repeat(64)}`, `t=-1,v1=${'0'.repeat(64)}`]) {
      expect(verifyCustomerEvent(secret, { 'x-webhook-signature': header }, signed.body, now)).toBe(false);
    }
    expect(verifyCustomerEvent(secret, {}, signed.body, now)).toBe(false);
  });

  it('signs each attempt anew: a later attempt has a later timestamp and the same id', () => {
    const first = signCustomerEvent(secret, event, now);
    const later = signCustomerEvent(secret, event, new Date(now.getTime() + 60_000));
    expect(later.headers['X-Webhook-Id']).toBe(first.headers['X-Webhook-Id']);
    expect(later.body).toBe(first.body);
    expect(later.headers['X-Webhook-Signature']).not.toBe(first.headers['X-Webhook-Signature']);
  });
});

describe('the documented verification snippet', () => {
  it('is, statement for statement, the code the platform runs', () => {
    const statements = (source: string, functionStart: RegExp): string[] => {
      const start = source.search(functionStart);
      const body = source.slice(source.indexOf('{\n', start) + 2);
      return body
        .slice(0, body.indexOf('\n}'))
        .split('\n')
        .map((line) => line.trim());
    };
    const code = readFileSync(join(root, 'shared', 'customer-events', 'signing.ts'), 'utf8');
    const documented = statements(documentedSnippet().source, /function verifyWebhook\(/);
    expect(documented.length).toBeGreaterThan(5);
    expect(statements(code, /export function verifyCustomerEvent\(/)).toEqual(documented);
  });

  it('decides like verifyCustomerEvent on valid, tampered, stale and malformed deliveries', () => {
    const { verifyWebhook } = documentedSnippet();
    const signed = signCustomerEvent(secret, event, now);
    const headers = received(signed.headers);
    const cases: Array<[ReceivedHeaders, string, Date, string]> = [
      [headers, signed.body, now, secret],
      [headers, `${signed.body} `, now, secret],
      [headers, signed.body, new Date(now.getTime() + 301_000), secret],
      [headers, signed.body, now, 'wrong'],
      [{ 'x-webhook-signature': 'garbage' }, signed.body, now, secret],
    ];
    const outcomes = cases.map(([h, body, at, key]) => [verifyWebhook(key, h, body, at), verifyCustomerEvent(key, h, body, at)]);
    expect(outcomes).toEqual([
      [true, true],
      [false, false],
      [false, false],
      [false, false],
      [false, false],
    ]);
  });
});

describe('event ids', () => {
  it('derives the same id from the same source key (a redelivered Meta batch), different ones otherwise', () => {
    const a = customerEventId('message.status', 'pub_1:0:delivered');
    expect(a).toMatch(/^evt_[A-Za-z0-9_-]{27}$/);
    expect(customerEventId('message.status', 'pub_1:0:delivered')).toBe(a);
    expect(customerEventId('message.status', 'pub_1:0:read')).not.toBe(a);
    expect(customerEventId('job.completed', 'pub_1:0:delivered')).not.toBe(a);
  });

  it('is random without a source key', () => {
    const ids = new Set(Array.from({ length: 50 }, () => customerEventId('webhook.test')));
    expect(ids.size).toBe(50);
  });

  it('builds the envelope', () => {
    const built = newCustomerEvent({ type: 'job.completed', data: { jobId: 'pub_9' }, createdAt: now, sourceKey: 'pub_9' });
    expect(built).toEqual({ id: customerEventId('job.completed', 'pub_9'), type: 'job.completed', createdAt: now.toISOString(), data: { jobId: 'pub_9' } });
  });
});
