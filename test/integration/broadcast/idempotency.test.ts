/**
 * Idempotency-Key on POST /broadcast/public/send-template-broadcast, end to end: replays, the
 * in-progress 409, the 422 for a reused key, scope per organization, key lifetime, and that a
 * failed first attempt does not lock its key. Workers run as in the local runtime; the sandbox
 * log is the proof of what was (not) sent.
 */
import { demoIds } from '../../../local/demo-tenant';
import { startTestRuntime, eventually, type TestRuntime } from '../../support/local-runtime';
import {
  BASE,
  kitEnvironment,
  DEMO,
  acceptedByRecipient,
  idempotencyRecords,
  issueKey,
  jobCount,
  keyHeader,
  orderUpdate,
  recipients,
  waitForTerminal,
} from './broadcast-test-kit';

const OTHER_PHONE_NUMBER_ID = demoIds.otherOrg.phoneNumberId;

describe('send-template-broadcast: Idempotency-Key', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let key: string;

  beforeAll(async () => {
    // A short upstream timeout lets one test make the template read fail quickly (502).
    runtime = await startTestRuntime({ environment: { ...kitEnvironment, UPSTREAM_TIMEOUT_MS: '2000' } });
    organizationId = runtime.demo.organizationId;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });
  beforeEach(async () => {
    await runtime.workersIdle();
    runtime.sandbox!.reset();
    // A key per test: the 10/min limit per key and sender stays out of the way.
    key = (await issueKey(organizationId)).secret;
  });

  const send = (body: unknown, idempotencyKey: string | undefined, apiKey = key) =>
    runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: { ...keyHeader(apiKey), ...(idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey }) },
      body,
    });
  const sentCount = () => runtime.sandbox!.acceptedMessages().length;

  it('replays the first 200 answer for the same key and body, and sends nothing again', async () => {
    const body = orderUpdate(recipients(3, { first: 9_000_000_100 }));
    const first = await send(body, 'replay-200');
    expect(first.status).toBe(200);
    await runtime.workersIdle();
    expect(sentCount()).toBe(3);
    const jobs = await jobCount(organizationId);

    // Same body with its keys in another order is the same request.
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    for (const retry of [body, reordered]) {
      const replay = await send(retry, 'replay-200');
      expect(replay.status).toBe(200);
      expect(replay.body).toEqual(first.body);
      // The replay says it is one (the CSV CLI tells a re-run that sent nothing from a fresh send by it).
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
    }
    await runtime.workersIdle();
    expect(sentCount()).toBe(3);
    expect(await jobCount(organizationId)).toBe(jobs);

    // Control: without the key the same body is a new broadcast and is sent again (so the check above can fail).
    expect((await send(body, 'replay-200-other')).status).toBe(200);
    await runtime.workersIdle();
    expect(sentCount()).toBe(6);
  });

  it('replays the first 202 answer (same job id) for a 1,001-recipient job, and each recipient gets one message', async () => {
    const body = orderUpdate(recipients(1_001, { first: 9_000_010_000 }));
    const first = await send(body, 'replay-202');
    expect(first.status).toBe(202);
    const replay = await send(body, 'replay-202');
    expect(replay.status).toBe(202);
    expect(replay.body).toEqual(first.body);
    expect([first.headers.get('idempotent-replayed'), replay.headers.get('idempotent-replayed')]).toEqual([null, 'true']);
    expect(replay.body.data.jobId).toBe(first.body.data.jobId);

    const job = await waitForTerminal(organizationId, first.body.data.jobId);
    await runtime.workersIdle();
    expect(job).toMatchObject({ status: 'COMPLETED', summary: { sent: 1_001, failed: 0, unknown: 0 } });
    const byRecipient = acceptedByRecipient(runtime);
    expect(byRecipient.size).toBe(1_001);
    expect([...byRecipient.values()].filter((messages) => messages.length !== 1)).toEqual([]);
  }, 60_000);

  it('rejects the same key with a different body with 422 and queues nothing', async () => {
    const body = orderUpdate(recipients(2, { first: 9_000_000_200 }));
    expect((await send(body, 'reused')).status).toBe(200);
    await runtime.workersIdle();
    const jobs = await jobCount(organizationId);

    for (const changed of [{ ...body, broadcastName: 'another campaign' }, orderUpdate(recipients(3, { first: 9_000_000_200 }))]) {
      const response = await send(changed, 'reused');
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ status: false, status_code: 422, data: { error: { code: 'IDEMPOTENCY_KEY_REUSED' } } });
      expect(response.body.message).toMatch(/Idempotency-Key was already used with a different request body/);
    }
    await runtime.workersIdle();
    expect(sentCount()).toBe(2);
    expect(await jobCount(organizationId)).toBe(jobs);
  });

  it('answers 409 to a duplicate while the first request is still in progress, then replays once it is done', async () => {
    // The send path reads the template list upstream (cache TTL 1 ms in tests): slow it down.
    runtime.sandbox!.configure({ latencyMs: 1_200 });
    const body = orderUpdate(recipients(2, { first: 9_000_000_300 }));
    const recordsBefore = new Set((await idempotencyRecords()).map((record) => record.pk));
    const firstPromise = send(body, 'in-progress');

    // Wait until the first request holds its claim, then send the duplicate.
    await eventually(idempotencyRecords, (records) => records.some((record) => !recordsBefore.has(record.pk) && record.status === 'INPROGRESS'), 10_000, 20);
    const duplicate = await send(body, 'in-progress');
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({ status: false, status_code: 409, data: { error: { code: 'IDEMPOTENCY_KEY_IN_PROGRESS' } } });
    expect(duplicate.body.message).toMatch(/still being processed/);

    const first = await firstPromise;
    expect(first.status).toBe(200);
    runtime.sandbox!.configure({ latencyMs: 0 });
    const replay = await send(body, 'in-progress');
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);

    await runtime.workersIdle();
    const byRecipient = acceptedByRecipient(runtime);
    expect([...byRecipient.keys()].sort()).toEqual(['919000000300', '919000000301']);
    expect([...byRecipient.values()].every((messages) => messages.length === 1)).toBe(true);
  }, 30_000);

  it('scopes keys per organization: the same key in two organizations names two broadcasts', async () => {
    const sharedKey = 'order-42-campaign';
    const data = recipients(2, { first: 9_000_000_400, params: () => ['Tuesday'] });
    const demoBody = orderUpdate(
      data.map((recipient) => ({ ...recipient, templateParams: ['Ann', 'A-1'] })),
      { broadcastName: 'same key' },
    );
    const otherBody = {
      broadcastName: 'same key',
      fromPhoneNumber: runtime.demo.otherOrg.phoneNumber,
      templateName: 'appointment_reminder',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      data,
    };
    const demoFirst = await send(demoBody, sharedKey);
    const otherFirst = await send(otherBody, sharedKey, runtime.demo.otherOrg.apiKey);
    expect(demoFirst.status).toBe(200);
    expect(otherFirst.status).toBe(200);
    // Each organization's retry replays its own answer; neither is a 422 against the other's body.
    expect((await send(demoBody, sharedKey)).status).toBe(200);
    expect((await send(otherBody, sharedKey, runtime.demo.otherOrg.apiKey)).status).toBe(200);

    await runtime.workersIdle();
    const demoSent = acceptedByRecipient(runtime, DEMO.phoneNumberId1);
    const otherSent = acceptedByRecipient(runtime, OTHER_PHONE_NUMBER_ID);
    expect([...demoSent.keys()].sort()).toEqual(['919000000400', '919000000401']);
    expect([...otherSent.keys()].sort()).toEqual(['919000000400', '919000000401']);
    expect([...demoSent.values(), ...otherSent.values()].every((messages) => messages.length === 1)).toBe(true);
    expect(otherSent.get('919000000400')![0]!.body).toMatchObject({ template: { name: 'appointment_reminder' } });
  });

  it('keeps a key for at least 24 hours', async () => {
    const before = new Set((await idempotencyRecords()).map((record) => record.pk));
    const requestedAt = Date.now() / 1000;
    expect((await send(orderUpdate(recipients(1, { first: 9_000_000_500 })), 'lifetime')).status).toBe(200);
    const created = (await idempotencyRecords()).filter((record) => !before.has(record.pk));
    expect(created).toHaveLength(1);
    expect(created[0]!.status).toBe('COMPLETED');
    expect(Number(created[0]!.expiresAt)).toBeGreaterThanOrEqual(requestedAt + 24 * 3600);
  });

  it('does not lock a key on a failed first attempt: after an upstream 502 the same key and body go through once', async () => {
    const body = orderUpdate(recipients(2, { first: 9_000_000_600 }));
    // Every Graph request goes unanswered: the template read times out (UPSTREAM_TIMEOUT_MS 2 s).
    runtime.sandbox!.configure({ timeoutRate: 1, timeoutHoldMs: 3_000 });
    const failed = await send(body, 'after-failure');
    expect(failed.status).toBe(502);
    expect(failed.body.data.error.code).toBe('UPSTREAM_UNAVAILABLE');
    runtime.sandbox!.configure({ timeoutRate: 0 });

    const retry = await send(body, 'after-failure');
    expect(retry.status).toBe(200);
    await runtime.workersIdle();
    expect([...acceptedByRecipient(runtime).keys()].sort()).toEqual(['919000000600', '919000000601']);
  }, 30_000);

  it.each([
    ['longer than 255 characters', 'k'.repeat(256)],
    ['with a space', 'two words'],
  ])('rejects an Idempotency-Key %s with 400', async (_label, badKey) => {
    const response = await send(orderUpdate(recipients(1, { first: 9_000_000_700 })), badKey);
    expect(response.status).toBe(400);
    expect(response.body.data.error.code).toBe('INVALID_IDEMPOTENCY_KEY');
    expect(response.body.message).toMatch(/1 to 255 printable ASCII/);
    await runtime.workersIdle();
    expect(sentCount()).toBe(0);
  });
});
