/**
 * Meta refusing the business account while broadcasts drain (docs/BROADCAST.md "When Meta refuses
 * the account"), through the local runtime: the sandbox answers every send of the first number with
 * 131064 (`senderErrors`), the job reads PAUSED by Meta with the code and Meta's words, nothing
 * more is sent, nothing beyond the sends in flight fails, `job.paused` reaches the customer's
 * endpoint, and `POST …/resume` finishes the job with every recipient sent exactly once. The
 * account's other running jobs being held too: test/unit/chunk-worker/account-hold.test.ts.
 */
import { startTestRuntime, eventually, type TestRuntime } from '../../support/local-runtime';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver';
import { BASE, DEMO, kitEnvironment, orderUpdate, queueDepth, readJob, recipients, sleep } from './broadcast-test-kit';

/** Two chunks (1,000 each), so the hold lands on more than one chunk worker; 1,400 left after the first 100 at 400 a second. */
const TOTAL = 1_500;
/** Lanes a worker runs (kitEnvironment's WORKER_MAX_IN_FLIGHT) times the chunk workers that may run at once locally: what may be in flight. */
const IN_FLIGHT_BOUND = 16 * 4;

// Seconds on an idle machine; the waits are long because a loaded shared one is many times slower.
jest.setTimeout(600_000);

describe('Meta refuses the business account (131064) while a broadcast drains', () => {
  let runtime: TestRuntime;
  let receiver: ScriptedReceiver;
  const sandbox = (path: string, body: unknown) =>
    fetch(`${runtime.sandboxUrl}/_sandbox${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(
      (response) => response.status,
    );
  const headers = () => ({ 'x-api-key': runtime.demo.apiKey });
  const sendsTo = (prefix: string) =>
    runtime
      .sandbox!.acceptedMessages()
      .map((message) => String((message.body as { to?: unknown }).to))
      .filter((to) => to.startsWith(prefix));
  const readOf = (jobId: string) => readJob(runtime.demo.organizationId, jobId).catch(() => undefined);
  const finished = (jobId: string) =>
    eventually(
      () => readOf(jobId),
      (view) => view !== undefined && view.summary.chunksDone === view.totalChunks,
      360_000,
      500,
    ).then((view) => view!);

  beforeAll(async () => {
    runtime = await startTestRuntime({
      environment: { ...kitEnvironment, DEFAULT_MESSAGES_PER_SECOND: '400', PAUSE_RECHECK_SECONDS: '1' },
    });
    // No delivery webhooks (startTestRuntime's default: what is asserted is the worker's own counts), and
    // Meta's answers at once: the refusals are what this suite is about.
    await sandbox('/control', { latencyMs: 0, throughputPerSecond: 2_000 });
    receiver = await startScriptedReceiver(() => 200);
    const registered = await runtime.call('POST', `${BASE}/webhooks`, { headers: headers(), body: { url: receiver.url, events: ['job.paused'] } });
    expect(registered.status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await runtime?.close();
  });

  it('holds the job after the in-flight sends, tells the endpoint, and resume finishes it exactly once', async () => {
    const accept = async (body: Record<string, unknown>) => {
      const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: headers(), body });
      expect([200, 202]).toContain(accepted.status);
      return accepted.headers.get('x-broadcast-job-id')!;
    };
    const jobId = await accept(orderUpdate(recipients(TOTAL, { first: 9_530_000_000 })));
    await eventually(
      async () => sendsTo('91953').length,
      (count) => count >= 100,
      90_000,
      20,
    );

    // Every send of the first number is refused from now on; the second number is never refused.
    await sandbox('/control', { senderErrors: { [DEMO.phoneNumberId1]: { code: 131064 } } });
    const paused = await eventually(
      () => readOf(jobId),
      (view) => view?.status === 'PAUSED',
      60_000,
      100,
    ).then((view) => view!);

    expect(paused.pause).toEqual({
      reason: 'ACCOUNT_MESSAGING_LIMITED',
      since: expect.any(String),
      failsAt: null,
      pausedBy: 'meta',
      code: 131064,
      text: expect.stringContaining('enforcement period'),
    });
    expect(paused.summary.pending).toBeGreaterThan(0);

    // Held: nothing more goes out while the account is refused (the recheck runs every second), and
    // at most the sends in flight at the first refusal were refused: none of them failed.
    const heldAt = { job: sendsTo('91953').length };
    await sleep(2_500);
    expect(sendsTo('91953')).toHaveLength(heldAt.job);
    const whileHeld = (await readOf(jobId))!;
    expect(whileHeld.status).toBe('PAUSED');
    expect(whileHeld.summary.failed).toBeLessThanOrEqual(IN_FLIGHT_BOUND);
    // Not more: a send whose answer or outcome write the machine's load lost is `unknown` (or still
    // pending until its chunk is looked at after the resume), never sent again.
    expect(whileHeld.summary.sent).toBeLessThanOrEqual(heldAt.job);

    const announced = await eventually(
      async () => receiver.requests.map((request) => JSON.parse(request.rawBody) as { type: string; data: { jobId: string; pause: unknown } }),
      (events) => events.some((event) => event.type === 'job.paused' && event.data.jobId === jobId),
      30_000,
      100,
    );
    expect(announced.find((event) => event.data.jobId === jobId)!.data).toMatchObject({
      jobId,
      status: 'PAUSED',
      totalRecipients: TOTAL,
      pause: { reason: 'ACCOUNT_MESSAGING_LIMITED', code: 131064, pausedBy: 'meta', failsAt: null },
    });

    // The business acted: Meta takes sends again, and each job is resumed.
    await sandbox('/control', { senderErrors: { [DEMO.phoneNumberId1]: null } });
    const resumed = await runtime.call('POST', `${BASE}/broadcasts/${jobId}/resume`, { headers: headers() });
    expect(resumed.status).toBe(200);
    expect(resumed.body.data).toMatchObject({ jobId, status: 'PROCESSING' });
    const final = await finished(jobId);
    await eventually(
      () => queueDepth(runtime),
      (depth) => depth === 0,
      30_000,
      200,
    );

    for (const [view, total, prefix] of [[final, TOTAL, '91953']] as const) {
      const { sent, failed, unknown, unconfirmed } = view.summary;
      expect(['COMPLETED', 'COMPLETED_WITH_FAILURES']).toContain(view.status);
      expect(view).not.toHaveProperty('pause');
      // Every recipient has exactly one outcome, and the sandbox took each number at most once.
      expect(sent + failed + unknown + unconfirmed).toBe(total);
      expect(failed).toBeLessThanOrEqual(IN_FLIGHT_BOUND);
      const sends = sendsTo(prefix);
      expect(new Set(sends).size).toBe(sends.length);
      expect(sends.length).toBeGreaterThanOrEqual(sent);
      expect(sends.length).toBeLessThanOrEqual(sent + unknown + unconfirmed);
    }

    // A job that is not held cannot be resumed.
    const again = await runtime.call('POST', `${BASE}/broadcasts/${jobId}/resume`, { headers: headers() });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ status: false, status_code: 409, data: { error: { code: 'JOB_NOT_PAUSED' } } });
  });
});
