/**
 * The whole delivery loop through the local runtime, as `npm start` runs it: a send reaches the
 * sandbox with our callback data, the sandbox posts Meta's signed webhooks to the gateway's
 * /hooks/meta/whatsapp, the endpoint queues them, delivery-events applies them, and the status and
 * recipients endpoints report what Meta said. Nothing here calls a store or a handler directly.
 */
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, orderUpdate, recipients, waitForTerminal } from '../broadcast/broadcast-test-kit';
import { callSandbox } from '../../support/sandbox-control';

jest.setTimeout(180_000);

describe("delivery status from the sandbox's signed webhooks", () => {
  let runtime: TestRuntime;
  let key: string;

  beforeAll(async () => {
    // A short upstream timeout so the "answer lost" case turns UNKNOWN quickly.
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment }, upstreamTimeoutMs: 1_500 });
    key = (await issueKey(runtime.demo.organizationId)).secret;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const sandbox = (method: string, path: string, body?: unknown) => callSandbox(runtime.sandboxUrl, method, path, body);
  const get = (path: string) => runtime.call('GET', `${BASE}${path}`, { headers: keyHeader(key) });

  /** Every webhook posted and applied: the sandbox has nothing left to post, no queue holds anything. */
  const settle = async () => {
    await runtime.workersIdle();
    expect((await sandbox('POST', '/webhooks/drain?timeoutMs=60000')).status).toBe(200);
    await runtime.workersIdle();
  };
  const broadcast = async (data: ReturnType<typeof recipients>) => {
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body: orderUpdate(data) });
    expect(accepted.status).toBe(200);
    const jobId = accepted.headers.get('x-broadcast-job-id')!;
    await waitForTerminal(runtime.demo.organizationId, jobId, 60_000);
    await settle();
    return jobId;
  };
  const rowsOf = async (jobId: string) => {
    const listed = await get(`/broadcasts/${jobId}/recipients`);
    expect(listed.status).toBe(200);
    return listed.body.data.recipients as Array<{
      toPhoneNumber: string;
      status: string;
      messageId: string | null;
      failureReasonCode: string | null;
      failureReason: string | null;
    }>;
  };
  const tally = (rows: Array<{ status: string }>) =>
    rows.reduce<Record<string, number>>((counts, row) => ({ ...counts, [row.status]: (counts[row.status] ?? 0) + 1 }), {});

  it('brings every recipient of a broadcast to DELIVERED or READ, exactly counted despite duplicated and reordered webhooks', async () => {
    await sandbox('POST', '/webhooks', { sentDelayMs: 0, deliveredDelayMs: 50, readDelayMs: 100, readRate: 0.5, duplicateRate: 1, reorderRate: 0.5 });
    const data = recipients(40, { first: 9_400_000_000 });
    const jobId = await broadcast(data);

    const rows = await rowsOf(jobId);
    const counts = tally(rows);
    expect(Object.keys(counts).sort()).toEqual(['DELIVERED', 'READ']);
    expect(counts.DELIVERED! + counts.READ!).toBe(40);
    expect(counts.READ).toBeGreaterThan(0);

    const status = await get(`/status/${jobId}`);
    expect(status.body.data.summary).toMatchObject({ sent: 40, delivered: 40, read: counts.READ, failed: 0, unknown: 0, unconfirmed: 0, pending: 0 });
    // The sandbox's sent and delivered carry Meta's pricing: every row shows it, the summary counts each recipient once.
    const priced = rows as unknown as Array<{ pricing?: { category: string; type: string; billable: boolean; pricingModel: string } }>;
    expect(priced.every((row) => row.pricing?.pricingModel === 'PMP' && /^[a-z_]+$/.test(row.pricing.category))).toBe(true);
    const byCategory: Record<string, number> = {};
    for (const row of priced) byCategory[row.pricing!.category] = (byCategory[row.pricing!.category] ?? 0) + 1;
    expect(status.body.data.summary.pricing).toEqual({ billable: priced.filter((row) => row.pricing!.billable).length, byCategory });
    // Duplicates really were posted and applied: more statuses accepted than the 2-3 per message.
    const stats = (await sandbox('GET', '/webhooks/deliveries?limit=1')).body.stats;
    expect(stats.acceptedStatuses.delivered).toBeGreaterThanOrEqual(80);
  });

  it("reports Meta's asynchronous failure (131049) in the summary and in the recipients list", async () => {
    const data = recipients(5, { first: 9_410_000_000 });
    const failing = `91${data[2]!.toPhoneNumber}`;
    await sandbox('POST', '/webhooks', { duplicateRate: 0, reorderRate: 0, recipientFailures: { [failing]: { code: 131049 } } });
    const jobId = await broadcast(data);

    const row = (await rowsOf(jobId)).find((candidate) => candidate.toPhoneNumber === data[2]!.toPhoneNumber)!;
    expect(row).toMatchObject({ status: 'FAILED', failureReasonCode: '131049', failureReason: expect.any(String) });
    expect(row.messageId).toEqual(expect.any(String));
    const summary = (await get(`/status/${jobId}`)).body.data.summary;
    expect(summary).toMatchObject({ sent: 4, failed: 1, failuresByReason: { '131049': 1 } });
    await sandbox('POST', '/webhooks', { recipientFailures: { [failing]: null } });
  });

  it("reconciles a send whose answer was lost (UNKNOWN) through its callback data, once Meta's events arrive", async () => {
    const data = recipients(3, { first: 9_420_000_000 });
    const lost = `91${data[1]!.toPhoneNumber}`;
    await sandbox('POST', '/control', { recipientTimeouts: { [lost]: { times: 1, accepted: true } } });
    const jobId = await broadcast(data);

    const row = (await rowsOf(jobId)).find((candidate) => candidate.toPhoneNumber === data[1]!.toPhoneNumber)!;
    const accepted = runtime.sandbox!.acceptedMessages().find((message) => message.recipient === lost)!;
    expect(row).toMatchObject({ status: expect.stringMatching(/^(DELIVERED|READ)$/), messageId: accepted.messageId });
    const summary = (await get(`/status/${jobId}`)).body.data.summary;
    expect(summary).toMatchObject({ sent: 3, delivered: 3, unknown: 0 });
  });

  it('records an inbound message against the v1 contacts and conversations of the organization owning the number', async () => {
    const from = '447700900123';
    const injected = await sandbox('POST', '/webhooks/inbound', { phoneNumberId: DEMO.phoneNumberId1, from, text: 'STOP please', profileName: 'Grace' });
    expect(injected.status).toBe(200);
    await settle();
    const v1 = (path: string) => runtime.call('GET', `/v1${path}`, { headers: { authorization: `Bearer ${runtime.demo.v1ApiKey}` } });
    const contacts = (await v1('/contacts')).body;
    const contact = JSON.stringify(contacts).includes(from);
    expect(contact).toBe(true);
    const conversations = (await v1('/conversations')).body;
    expect(JSON.stringify(conversations)).toContain('lastInboundAt');
  });

  it('refuses the next broadcast of a template Meta paused, and accepts it again once it is approved', async () => {
    const paused = await sandbox('POST', '/webhooks/template-status', { name: 'order_update', language: 'en_US', status: 'PAUSED', reason: 'Low quality' });
    expect(paused.status).toBe(200);
    await settle();
    const refused = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(key),
      body: orderUpdate(recipients(2, { first: 9_430_000_000 })),
    });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('PAUSED');

    // Meta's event times are whole seconds: an approval in the same second as the pause could not be ordered after it.
    await new Promise((resolve) => setTimeout(resolve, 2_100));
    await sandbox('POST', '/webhooks/template-status', { name: 'order_update', language: 'en_US', status: 'APPROVED' });
    await settle();
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(key),
      body: orderUpdate(recipients(2, { first: 9_440_000_000 })),
    });
    expect(accepted.status).toBe(200);
  });
});
