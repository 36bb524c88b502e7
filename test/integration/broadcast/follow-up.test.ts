/**
 * Follow-ups through the local runtime (docs/BROADCAST.md "Follow-ups"): a broadcast whose
 * recipients the sandbox fails asynchronously (131049 and 131026 by signed webhook), then
 * POST /broadcasts/{jobId}/follow-up to FAILED + [131049]. The runtime's clock is the wall clock,
 * so the 131049 failures are minutes old: without `force` the follow-up is refused (the 24-hour
 * rule), with it the sandbox receives exactly the 131049 recipients not opted out, once each, with
 * the values they were first sent; a replay with the same Idempotency-Key sends nothing more.
 */
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, bodyParameters, issueKey, keyHeader, kitEnvironment, orderUpdate, recipients, waitForTerminal } from './broadcast-test-kit';
import { callSandbox } from '../../support/sandbox-control';

jest.setTimeout(240_000);

describe('follow-ups to asynchronous failures', () => {
  let runtime: TestRuntime;
  let key: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment } });
    key = (await issueKey(runtime.demo.organizationId)).secret;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const sandbox = (method: string, path: string, body?: unknown) => callSandbox(runtime.sandboxUrl, method, path, body);
  const settle = async () => {
    await runtime.workersIdle();
    expect((await sandbox('POST', '/webhooks/drain?timeoutMs=60000')).status).toBe(200);
    await runtime.workersIdle();
  };
  const get = (path: string) => runtime.call('GET', `${BASE}${path}`, { headers: keyHeader(key) });
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    runtime.call('POST', `${BASE}${path}`, { headers: { ...keyHeader(key), ...headers }, body });
  const sentTo = (numbers: readonly string[]) => runtime.sandbox!.acceptedMessages().filter((message) => numbers.includes(message.recipient));

  it('reaches exactly the 131049 failures once (opted-out left out and counted), refuses them within 24 h unless force', async () => {
    const data = recipients(8, { first: 9_430_000_000 });
    const number = (index: number) => `91${data[index]!.toPhoneNumber}`;
    const perUserLimit = [1, 3, 6];
    const failures: Record<string, { code: number }> = { [number(5)]: { code: 131026 } };
    for (const index of perUserLimit) failures[number(index)] = { code: 131049 };
    await sandbox('POST', '/webhooks', { duplicateRate: 0, reorderRate: 0, recipientFailures: failures });

    const accepted = await post('/send-template-broadcast', orderUpdate(data));
    expect(accepted.status).toBe(200);
    const parentId = accepted.headers.get('x-broadcast-job-id')!;
    await waitForTerminal(runtime.demo.organizationId, parentId, 60_000);
    await settle();
    // Item 4: the webhook failures make the finished job COMPLETED_WITH_FAILURES (the worker sent everyone).
    const parent = (await get(`/status/${parentId}`)).body.data;
    expect(parent).toMatchObject({ status: 'COMPLETED_WITH_FAILURES', summary: { sent: 4, failed: 4, failuresByReason: { '131049': 3, '131026': 1 } } });
    await sandbox('POST', '/webhooks', { recipientFailures: Object.fromEntries(Object.keys(failures).map((to) => [to, null])) });

    // One of the 131049 recipients opts out before the follow-up.
    const optedOut = await runtime.call('POST', '/v1/opt-outs', {
      headers: { authorization: `Bearer ${runtime.demo.v1ApiKey}` },
      body: { phoneNumber: number(3) },
    });
    expect(optedOut.status).toBeLessThan(300);

    const body = {
      broadcastName: 'follow-up 131049',
      fromPhoneNumber: DEMO.sender1,
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      audience: { statuses: ['FAILED'], failureCodes: [131049] },
    };
    const tooSoon = await post(`/broadcasts/${parentId}/follow-up`, body, { 'Idempotency-Key': 'fu-too-soon' });
    expect(tooSoon.status).toBe(422);
    expect(tooSoon.body.data.error).toMatchObject({
      code: 'FOLLOW_UP_TOO_SOON',
      message: expect.stringMatching(/3 recipients that failed with 131049 .*force: true/),
    });

    const before = runtime.sandbox!.acceptedMessages().length;
    const followUp = await post(`/broadcasts/${parentId}/follow-up`, { ...body, force: true }, { 'Idempotency-Key': 'fu-1' });
    expect(followUp.status).toBe(202);
    expect(followUp.body.data).toMatchObject({ status: 'PROCESSING', totalRecipients: 2, followUpOf: parentId, audience: { matched: 3, optedOut: 1 } });
    const jobId = followUp.body.data.jobId as string;
    expect(followUp.headers.get('x-broadcast-job-id')).toBe(jobId);
    expect(await waitForTerminal(runtime.demo.organizationId, jobId, 60_000)).toMatchObject({ status: 'COMPLETED' });
    await settle();

    const reached = runtime.sandbox!.acceptedMessages().slice(before);
    expect(reached.map((message) => message.recipient).sort()).toEqual([number(1), number(6)]);
    // Each with the values it had in the parent broadcast.
    for (const message of reached) {
      const index = [1, 6].find((candidate) => number(candidate) === message.recipient)!;
      expect(bodyParameters(message)).toEqual(data[index]!.templateParams);
    }
    expect(sentTo([number(3)])).toHaveLength(1); // the parent's send only

    const replay = await post(`/broadcasts/${parentId}/follow-up`, { ...body, force: true }, { 'Idempotency-Key': 'fu-1' });
    expect(replay.status).toBe(202);
    expect(replay.body.data.jobId).toBe(jobId);
    await settle();
    expect(runtime.sandbox!.acceptedMessages().length).toBe(before + 2);

    expect((await get(`/status/${jobId}`)).body.data).toMatchObject({ followUpOf: parentId, totalRecipients: 2 });
    const listed = (await get('/broadcasts?limit=5')).body.data.broadcasts as Array<{ jobId: string; followUpOf?: string }>;
    expect(listed.find((entry) => entry.jobId === jobId)?.followUpOf).toBe(parentId);
    expect(listed.find((entry) => entry.jobId === parentId)).not.toHaveProperty('followUpOf');
  });

  it('answers an unknown job 404 and a body without an audience 400 naming the rule', async () => {
    const body = { broadcastName: 'x', fromPhoneNumber: DEMO.sender1, templateName: 'order_update', templateLanguage: 'en_US', templateType: 'UTILITY' };
    const unknown = await post('/broadcasts/pub_unknownjob/follow-up', { ...body, audience: { statuses: ['FAILED'] } });
    expect(unknown.status).toBe(404);
    const empty = await post('/broadcasts/pub_unknownjob/follow-up', { ...body, audience: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/audience must give at least one of statuses, failureCodes, notReadAfterHours/);
  });
});
