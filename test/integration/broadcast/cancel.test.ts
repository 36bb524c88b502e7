/**
 * Cancelling a broadcast through the local runtime (docs/BROADCAST.md "Cancelling"): the HTTP
 * answer, the workers stopping before their next send, and the final account of every recipient.
 */
import { startTestRuntime, eventually, type TestRuntime } from '../../support/local-runtime';
import { BASE, ledgerOf, orderUpdate, queueDepth, readJob, recipients } from './broadcast-test-kit';

const MAX_IN_FLIGHT = 16;

describe('POST /broadcasts/{jobId}/cancel', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    // The case: a 10,000-recipient drain at 80/s, cancelled while it runs. The workers re-read
    // the cancellation every 100 ms at this pace (cancellationRefreshMs): 8 sends, half the in-flight ones.
    runtime = await startTestRuntime({ environment: { DEFAULT_MESSAGES_PER_SECOND: '80', WORKER_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT) } });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });
  const key = () => ({ 'x-api-key': runtime.demo.apiKey });

  it('stops a running 10,000-recipient job at 80/s: 200 CANCELLED, no send after the answer beyond the in-flight ones, every recipient accounted', async () => {
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: key(),
      body: orderUpdate(recipients(10_000, { first: 9_300_000_000 })),
    });
    expect(accepted.status).toBe(202);
    const jobId: string = accepted.body.data.jobId;
    // Cancel once sending is under way.
    await eventually(
      async () => runtime.sandbox!.acceptedMessages().length,
      (count) => count >= 20,
      20_000,
      50,
    );

    const cancelled = await runtime.call('POST', `${BASE}/broadcasts/${jobId}/cancel`, { headers: key() });
    const acknowledgedAt = Date.now();
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      status: true,
      status_code: 200,
      data: { jobId, status: 'CANCELLED', summary: expect.objectContaining({ chunksTotal: 10 }) },
    });

    // A read that times out on the loaded in-process store is simply read again.
    const final = await eventually(
      () => readJob(runtime.demo.organizationId, jobId).catch(() => undefined),
      (view) => view?.status === 'CANCELLED' && view.summary.chunksDone === view.totalChunks,
      60_000,
      200,
    ).then((view) => view!);
    await eventually(
      () => queueDepth(runtime),
      (depth) => depth === 0,
      30_000,
      200,
    );

    const { sent, failed, unknown, unconfirmed, cancelled: neverSent, pending } = final.summary;
    expect(pending).toBe(0);
    expect(neverSent).toBeGreaterThan(0);
    expect(sent + neverSent! + failed + unknown + unconfirmed).toBe(10_000);
    const sends = runtime.sandbox!.acceptedMessages().filter((message) => String((message.body as { to?: unknown }).to).startsWith('9193'));
    // Every sent recipient reached the sandbox once; an unknown outcome may or may not have.
    expect(sends.length).toBeGreaterThanOrEqual(sent);
    expect(sends.length).toBeLessThanOrEqual(sent + unknown + unconfirmed);
    expect(new Set(sends.map((message) => String((message.body as { to?: unknown }).to))).size).toBe(sends.length);
    expect(sends.filter((message) => Date.parse(message.receivedAt) > acknowledgedAt).length).toBeLessThanOrEqual(MAX_IN_FLIGHT);

    // A repeat answers the same and changes nothing.
    const again = await runtime.call('POST', `${BASE}/broadcasts/${jobId}/cancel`, { headers: key() });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ jobId, status: 'CANCELLED', summary: final.summary });
  }, 120_000);

  it('answers 409 JOB_ALREADY_FINISHED for a finished job and 404 for an unknown one', async () => {
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: key(),
      body: orderUpdate(recipients(3, { first: 9_400_000_000 })),
    });
    expect(accepted.status).toBe(200);
    const jobId = accepted.headers.get('x-broadcast-job-id')!;
    await eventually(
      () => readJob(runtime.demo.organizationId, jobId),
      (view) => view.status === 'COMPLETED',
      30_000,
      100,
    );

    // Another organization's key: the status endpoint's 401, before anything else is said about the job.
    const foreign = await runtime.call('POST', `${BASE}/broadcasts/${jobId}/cancel`, { headers: { 'x-api-key': runtime.demo.otherOrg.apiKey } });
    expect(foreign.status).toBe(401);

    const refused = await runtime.call('POST', `${BASE}/broadcasts/${jobId}/cancel`, { headers: key() });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ status: false, status_code: 409, data: { error: { code: 'JOB_ALREADY_FINISHED' } } });
    expect((await readJob(runtime.demo.organizationId, jobId)).status).toBe('COMPLETED');

    const unknown = await runtime.call('POST', `${BASE}/broadcasts/pub_doesnotexist000000000000/cancel`, { headers: key() });
    expect(unknown.status).toBe(404);
  }, 60_000);

  it('a cancel that arrives while the last recipients are in flight (all claimed): 200, then the job reads COMPLETED with cancelRequestedAt, and a repeat answers 409', async () => {
    // Every send takes 3 s at the sandbox, so the cancel lands while all three are on the wire.
    runtime.sandbox!.configure({ latencyMs: 3_000 });
    try {
      const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
        headers: key(),
        body: orderUpdate(recipients(3, { first: 9_410_000_000 })),
      });
      expect(accepted.status).toBe(200);
      const jobId = accepted.headers.get('x-broadcast-job-id')!;
      await eventually(
        () => ledgerOf(jobId, 0),
        (ledger) => ledger.size === 3,
        20_000,
        50,
      );

      const cancelled = await runtime.call('POST', `${BASE}/broadcasts/${jobId}/cancel`, { headers: key() });
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data).toMatchObject({ jobId, status: 'CANCELLED', summary: { cancelled: 0 } });

      const final = await eventually(
        () => readJob(runtime.demo.organizationId, jobId),
        (view) => view.summary.chunksDone === 1,
        30_000,
        100,
      );
      // Nobody was left to withhold: the state the sends earned, the late cancel noted.
      expect(final).toMatchObject({ status: 'COMPLETED', cancelRequestedAt: expect.any(String), summary: { sent: 3, cancelled: 0, pending: 0 } });
      const status = await runtime.call('GET', `${BASE}/status/${jobId}`, { headers: key() });
      expect(status.body.data).toMatchObject({ status: 'COMPLETED', cancelRequestedAt: final.cancelRequestedAt });

      const again = await runtime.call('POST', `${BASE}/broadcasts/${jobId}/cancel`, { headers: key() });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ data: { error: { code: 'JOB_ALREADY_FINISHED' } } });
    } finally {
      runtime.sandbox!.configure({ latencyMs: 0 });
    }
  }, 60_000);
});
