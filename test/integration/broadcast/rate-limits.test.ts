/**
 * The contract's per-minute limits, through the local gateway and the handlers: broadcasts
 * 10/min per key and fromPhoneNumber, templates 20/min per key and phone_number, status and
 * phone-numbers 30/min per key. Over the limit: 429 with a Retry-After header and
 * retryAfterSeconds in the body.
 *
 * The limits are sliding windows over calendar minutes (docs/BROADCAST.md "Rate limits"); every
 * burst first makes sure enough of the current minute is left (ensureMinuteHeadroom), so a fresh
 * key's requests all fall in one minute and the exact Retry-After is known. Workers are off: accepted broadcasts stay on the queue, which is
 * how the test sees that a refused request queued nothing; the queue is emptied after each test.
 *
 * What counts (shared/http/create-group-handler.ts): the limiter runs after authentication and
 * JSON parsing and before the operation validates the body, so a malformed JSON body does not
 * count, while a body that parses but breaks a rule does (as does a status lookup of an unknown job).
 */
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { expectFreshBucketRetryAfter } from '../../support/rate-limit-expectations';
import {
  BASE,
  kitEnvironment,
  DEMO,
  ensureMinuteHeadroom,
  issueKey,
  keyHeader,
  orderUpdate,
  queueDepth,
  receiveAll,
  recipients,
  remove,
} from './broadcast-test-kit';

describe('rate limits', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let nextRecipient = 9_800_000_000;

  beforeAll(async () => {
    runtime = await startTestRuntime({ startWorkers: false, environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });
  afterEach(async () => {
    for (const message of await receiveAll(runtime)) await remove(runtime, message);
  });

  const broadcast = (apiKey: string, overrides: Record<string, unknown> = {}, rawBody?: string) =>
    runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(apiKey),
      ...(rawBody !== undefined ? { rawBody } : { body: orderUpdate(recipients(1, { first: nextRecipient++ }), overrides) }),
    });
  const get = (path: string, apiKey: string) => runtime.call('GET', `${BASE}${path}`, { headers: keyHeader(apiKey) });

  /**
   * A 429 of the application, for a fresh key that spent its limit in the current minute: header and
   * body agree and name the exact wait (until 1/limit of this minute has slid out of the window).
   */
  const expectRateLimited = async (send: () => ReturnType<typeof get>, limitPerMinute: number) => {
    const sentAtMs = Date.now();
    const response = await send();
    expect(response.status).toBe(429);
    const header = response.headers.get('retry-after');
    expect(header).toMatch(/^\d+$/);
    const retryAfter = Number(header);
    expectFreshBucketRetryAfter(retryAfter, limitPerMinute, sentAtMs);
    expect(response.body).toMatchObject({
      status: false,
      status_code: 429,
      retryAfterSeconds: retryAfter,
      data: { error: { code: 'RATE_LIMITED', retryAfterSeconds: retryAfter } },
    });
    expect(response.body.message).toContain(`${limitPerMinute} requests per minute`);
  };

  it('allows 10 broadcasts a minute per key and sender; the 11th is 429 and queues nothing; other senders and keys are unaffected', async () => {
    await ensureMinuteHeadroom(20);
    const key = (await issueKey(organizationId)).secret;
    for (let request = 1; request <= 10; request += 1) expect((await broadcast(key)).status).toBe(200);
    expect(await queueDepth(runtime)).toBe(10);

    await expectRateLimited(() => broadcast(key), 10);
    expect(await queueDepth(runtime)).toBe(10);

    // Same key, the organization's other sender: its own bucket.
    expect((await broadcast(key, { fromPhoneNumber: DEMO.sender2 })).status).toBe(200);
    // Another key of the same organization, same sender: its own bucket.
    expect((await broadcast((await issueKey(organizationId)).secret)).status).toBe(200);
    // Another organization.
    const other = await broadcast(runtime.demo.otherOrg.apiKey, {
      fromPhoneNumber: runtime.demo.otherOrg.phoneNumber,
      templateName: 'appointment_reminder',
      data: recipients(1, { first: nextRecipient++, params: () => ['Friday'] }),
    });
    expect(other.status).toBe(200);
    expect(await queueDepth(runtime)).toBe(13);
    // And the limited bucket stays limited.
    await expectRateLimited(() => broadcast(key), 10);
  }, 45_000);

  it('rotating made-up or foreign senders yields no fresh buckets: they share the key bucket, the real senders keep theirs', async () => {
    await ensureMinuteHeadroom(20);
    const key = (await issueKey(organizationId)).secret;
    // Ten numbers no one owns, each new: without the check each had its own bucket and none was limited.
    for (let request = 0; request < 10; request += 1) {
      const refused = await broadcast(key, { fromPhoneNumber: String(15559990000 + request) });
      expect(refused.status).toBe(401);
      expect(refused.body.data.error.code).toBe('SENDER_NOT_OWNED');
    }
    // Another organization's real number counts in the same bucket.
    await expectRateLimited(() => broadcast(key, { fromPhoneNumber: runtime.demo.otherOrg.phoneNumber }), 10);
    await expectRateLimited(() => broadcast(key, { fromPhoneNumber: '15559990042' }), 10);
    // The organization's own senders were not charged.
    expect((await broadcast(key)).status).toBe(200);
    expect((await broadcast(key, { fromPhoneNumber: DEMO.sender2 })).status).toBe(200);
    expect(await queueDepth(runtime)).toBe(2);

    // The template list's phone_number the same way.
    for (let request = 0; request < 20; request += 1) expect((await get(`/templates?phone_number=${15559990100 + request}`, key)).status).not.toBe(429);
    await expectRateLimited(() => get('/templates?phone_number=15559990200', key), 20);
    expect((await get(`/templates?phone_number=${DEMO.sender1}`, key)).status).toBe(200);
  }, 45_000);

  it('counts requests that fail validation, but not bodies that are not JSON', async () => {
    await ensureMinuteHeadroom(20);
    const key = (await issueKey(organizationId)).secret;
    for (let request = 1; request <= 5; request += 1) {
      const malformed = await broadcast(key, {}, `{"fromPhoneNumber": "${DEMO.sender1}", `);
      expect(malformed.status).toBe(400);
      expect(malformed.body.data.error.code).toBe('MALFORMED_JSON');
    }
    for (let request = 1; request <= 5; request += 1) expect((await broadcast(key, { data: [] })).status).toBe(400);
    // 5 counted so far: had the malformed ones counted too, this would be the 11th.
    expect((await broadcast(key)).status).toBe(200);
    for (let request = 1; request <= 4; request += 1) {
      const invalid = await broadcast(key, { templateName: 'no_such_template' });
      expect(invalid.status).toBe(400);
    }
    // 10 counted: 9 invalid requests and 1 valid one.
    await expectRateLimited(() => broadcast(key), 10);
    expect(await queueDepth(runtime)).toBe(1);
  }, 45_000);

  it('allows 20 template lists a minute per key and phone_number; the 21st is 429; the other number is unaffected', async () => {
    await ensureMinuteHeadroom(20);
    const key = (await issueKey(organizationId)).secret;
    for (let request = 1; request <= 20; request += 1) expect((await get(`/templates?phone_number=${DEMO.sender1}`, key)).status).toBe(200);
    await expectRateLimited(() => get(`/templates?phone_number=${DEMO.sender1}`, key), 20);
    expect((await get(`/templates?phone_number=${DEMO.sender2}`, key)).status).toBe(200);
  }, 45_000);

  it('allows 30 status and 30 phone-number reads a minute per key, each counted on its own; the 31st is 429', async () => {
    await ensureMinuteHeadroom(20);
    const key = (await issueKey(organizationId)).secret;
    // Unknown jobs answer 404: the limiter ran before the lookup, so they count.
    for (let request = 1; request <= 30; request += 1) expect((await get('/status/pub_unknownJob', key)).status).toBe(404);
    await expectRateLimited(() => get('/status/pub_unknownJob', key), 30);

    for (let request = 1; request <= 30; request += 1) expect((await get('/phone-numbers', key)).status).toBe(200);
    await expectRateLimited(() => get('/phone-numbers', key), 30);

    // Per key: another key of the organization, and the other organization, still get answers.
    const fresh = (await issueKey(organizationId)).secret;
    expect((await get('/status/pub_unknownJob', fresh)).status).toBe(404);
    expect((await get('/phone-numbers', fresh)).status).toBe(200);
    expect((await get('/phone-numbers', runtime.demo.otherOrg.apiKey)).status).toBe(200);
  }, 45_000);
});
