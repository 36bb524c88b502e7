/**
 * Customer events from real platform activity, end to end through the local runtime: an endpoint
 * registered through `POST /webhooks` (real registry, secret encrypted), a broadcast whose sends the
 * sandbox answers with Meta's signed webhooks, the delivery-events function applying them and
 * publishing, the chunk worker announcing the job's completion, the dispatcher POSTing signed events
 * to a loopback receiver (local mode). Every delivery is checked with the documented snippet.
 */
import { DEMO, issueKey, keyHeader, kitEnvironment, orderUpdate, recipients, waitForTerminal, BASE } from '../broadcast/broadcast-test-kit';
import { documentedSnippet } from '../../support/documented-verifier';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver';

jest.setTimeout(180_000);

describe('customer events of a broadcast, an inbound message and a template change', () => {
  let runtime: TestRuntime;
  let receiver: ScriptedReceiver;
  let secret: string;
  let key: string;
  const { verifyWebhook } = documentedSnippet();

  const sandbox = (path: string, body: unknown) =>
    fetch(`${runtime.sandboxUrl}/_sandbox${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
      (response) => response.status,
    );
  const events = () => receiver.requests.map((request) => JSON.parse(request.rawBody) as { id: string; type: string; data: Record<string, unknown> });

  beforeAll(async () => {
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment } });
    receiver = await startScriptedReceiver(() => 200);
    key = (await issueKey(runtime.demo.organizationId)).secret;
    const registered = await runtime.call('POST', `${BASE}/webhooks`, {
      headers: keyHeader(key),
      body: { url: receiver.url, events: ['message.status', 'job.completed', 'message.received', 'template.status'] },
    });
    expect(registered.status).toBe(201);
    secret = registered.body.data.secret;
    await sandbox('/webhooks', { sentDelayMs: 0, deliveredDelayMs: 50, readDelayMs: 100, readRate: 1, duplicateRate: 1 });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await runtime?.close();
  });

  it("tells the receiver each recipient's progress in order-proof sequence, and the job's completion, all signed", async () => {
    const data = recipients(3, { first: 9_450_000_000 });
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body: orderUpdate(data) });
    const jobId = accepted.headers.get('x-broadcast-job-id')!;
    await waitForTerminal(runtime.demo.organizationId, jobId, 60_000);

    const ofJob = () => events().filter((event) => event.data.jobId === jobId);
    // sent, delivered and read for each of three recipients, and the completion.
    await eventually(
      async () => ofJob(),
      (received) =>
        new Set(received.filter((event) => event.type === 'message.status').map((event) => event.id)).size === 9 &&
        received.some((event) => event.type === 'job.completed'),
      60_000,
    );

    for (const request of receiver.requests) expect(verifyWebhook(secret, request.headers, request.rawBody)).toBe(true);
    const statuses = ofJob().filter((event) => event.type === 'message.status');
    const latest = new Map<unknown, { sequence: number; status: unknown }>();
    for (const event of statuses) {
      const previous = latest.get(event.data.recipientIndex);
      if (!previous || (event.data.sequence as number) > previous.sequence)
        latest.set(event.data.recipientIndex, { sequence: event.data.sequence as number, status: event.data.status });
    }
    expect([...latest.values()].map((value) => value.status)).toEqual(['READ', 'READ', 'READ']);
    // Duplicated Meta webhooks give the same event id, never a second kind of event.
    const byId = new Map(statuses.map((event) => [event.id, JSON.stringify(event)]));
    for (const event of statuses) expect(JSON.stringify(event)).toBe(byId.get(event.id));
    const completed = ofJob().filter((event) => event.type === 'job.completed');
    expect(new Set(completed.map((event) => event.id)).size).toBe(1);
    expect(completed[0]!.data).toMatchObject({ jobId, status: 'COMPLETED', totalRecipients: 3, summary: expect.objectContaining({ sent: 3, failed: 0 }) });
    expect(JSON.stringify(events())).not.toContain(secret);
  });

  it('tells the receiver about an inbound message and a template status change', async () => {
    expect(await sandbox('/webhooks/inbound', { phoneNumberId: DEMO.phoneNumberId1, from: '447700900555', text: 'Hello there', profileName: 'Ada' })).toBe(200);
    expect(await sandbox('/webhooks/template-status', { name: 'order_update', language: 'en_US', status: 'APPROVED' })).toBe(200);
    const received = await eventually(
      async () => events(),
      (all) => all.some((event) => event.type === 'message.received') && all.some((event) => event.type === 'template.status'),
      60_000,
    );
    expect(received.find((event) => event.type === 'message.received')!.data).toMatchObject({
      from: '447700900555',
      text: 'Hello there',
      profileName: 'Ada',
      phoneNumberId: DEMO.phoneNumberId1,
    });
    expect(received.find((event) => event.type === 'template.status')!.data).toMatchObject({
      templateName: 'order_update',
      language: 'en_US',
      status: 'APPROVED',
    });
  });

  it('POST /webhooks/{id}/test reaches the receiver through the real publisher', async () => {
    const listed = await runtime.call('GET', `${BASE}/webhooks`, { headers: keyHeader(key) });
    const id = listed.body.data.webhooks[0].id as string;
    const before = receiver.requests.length;
    const tested = await runtime.call('POST', `${BASE}/webhooks/${id}/test`, { headers: keyHeader(key) });
    expect(tested.status).toBe(202);
    const [request] = (
      await eventually(
        async () => receiver.requests.slice(before),
        (requests) => requests.some((entry) => JSON.parse(entry.rawBody).type === 'webhook.test'),
        30_000,
      )
    ).filter((entry) => JSON.parse(entry.rawBody).type === 'webhook.test');
    expect(verifyWebhook(secret, request!.headers, request!.rawBody)).toBe(true);
  });

  it('redelivers an event by id and by time range, with its original id; another organization gets 404', async () => {
    const listed = await runtime.call('GET', `${BASE}/webhooks`, { headers: keyHeader(key) });
    const id = listed.body.data.webhooks[0].id as string;
    const original = events().find((event) => event.type === 'job.completed')!;
    const before = receiver.requests.length;
    const byId = await runtime.call('POST', `${BASE}/webhooks/${id}/redeliver`, { headers: keyHeader(key), body: { eventId: original.id } });
    expect([byId.status, byId.body.data]).toEqual([202, { queued: 1 }]);
    const [again] = await eventually(
      async () => receiver.requests.slice(before),
      (requests) => requests.length >= 1,
      30_000,
    );
    expect(again!.headers['x-webhook-id']).toBe(original.id);
    expect(verifyWebhook(secret, again!.headers, again!.rawBody)).toBe(true);

    const from = new Date(Date.now() - 10 * 60_000).toISOString();
    const byRange = await runtime.call('POST', `${BASE}/webhooks/${id}/redeliver`, {
      headers: keyHeader(key),
      body: { from, to: new Date(Date.now() + 1_000).toISOString() },
    });
    expect(byRange.status).toBe(202);
    expect(byRange.body.data.queued).toBeGreaterThanOrEqual(
      new Set(
        events()
          .filter((event) => event.type !== 'webhook.test')
          .map((event) => event.id),
      ).size,
    );

    const foreign = await runtime.call('POST', `${BASE}/webhooks/${id}/redeliver`, {
      headers: keyHeader(runtime.demo.otherOrg.apiKey),
      body: { eventId: original.id },
    });
    expect(foreign.status).toBe(404);
  });
});
