/**
 * A template Meta pauses while a broadcast drains (docs/BROADCAST.md "When Meta pauses a template"),
 * through the local runtime: the sandbox pauses the template and posts Meta's
 * `message_template_status_update`; sends get 132015 until it is approved again.
 */
import { startTestRuntime, eventually, type TestRuntime } from '../../support/local-runtime';
import { BASE, kitEnvironment, orderUpdate, queueDepth, readJob, recipients, sleep } from './broadcast-test-kit';

const TOTAL = 1_100;

async function startPauseRuntime(environment: Record<string, string>): Promise<TestRuntime> {
  const runtime = await startTestRuntime({
    sandboxWebhooks: true,
    environment: { ...kitEnvironment, DEFAULT_MESSAGES_PER_SECOND: '100', PAUSE_RECHECK_SECONDS: '1', ...environment },
  });
  // Only `sent` statuses: the template events are what this suite is about.
  await sandboxCall(runtime, 'POST', '/webhooks', { deliveredRate: 0 });
  return runtime;
}

function sandboxCall(runtime: TestRuntime, method: string, path: string, body?: unknown) {
  return fetch(`${runtime.sandboxUrl}/_sandbox${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  }).then(async (response) => ({ status: response.status, body: (await response.json().catch(() => undefined)) as any }));
}

const setTemplate = (runtime: TestRuntime, status: string) =>
  sandboxCall(runtime, 'POST', '/webhooks/template-status', {
    name: 'order_update',
    language: 'en_US',
    status,
    reason: status === 'PAUSED' ? 'Low quality' : undefined,
  });

async function startDrainThenPause(runtime: TestRuntime, first: number) {
  const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
    headers: { 'x-api-key': runtime.demo.apiKey },
    body: orderUpdate(recipients(TOTAL, { first })),
  });
  expect(accepted.status).toBe(202);
  const jobId: string = accepted.body.data.jobId;
  const prefix = `91${String(first).slice(0, 3)}`;
  const sendsOfJob = () => runtime.sandbox!.acceptedMessages().filter((message) => String((message.body as { to?: unknown }).to).startsWith(prefix));
  await eventually(
    async () => sendsOfJob().length,
    (count) => count >= 100,
    30_000,
    50,
  );
  expect((await setTemplate(runtime, 'PAUSED')).status).toBe(200);
  const paused = await eventually(
    () => readJob(runtime.demo.organizationId, jobId).catch(() => undefined),
    (view) => view?.status === 'PAUSED',
    30_000,
    100,
  ).then((view) => view!);
  return { jobId, paused, sendsOfJob };
}

describe('a template paused while its broadcast runs', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startPauseRuntime({});
  }, 60_000);
  afterAll(async () => {
    await setTemplate(runtime, 'APPROVED').catch(() => undefined);
    await runtime?.close();
  });

  it('reads PAUSED with the reason, then resumes to completion after the approval: every recipient sent once', async () => {
    const { jobId, paused, sendsOfJob } = await startDrainThenPause(runtime, 9_510_000_000);
    expect(paused.pause).toEqual({ reason: 'TEMPLATE_PAUSED', since: expect.any(String), failsAt: expect.any(String), pausedBy: 'meta' });
    expect(paused.summary.pending).toBeGreaterThan(0);
    const listed = await runtime.call('GET', `${BASE}/broadcasts?status=PAUSED`, { headers: { 'x-api-key': runtime.demo.apiKey } });
    expect(listed.body.data.broadcasts).toEqual([expect.objectContaining({ jobId, status: 'PAUSED', pause: paused.pause })]);

    // Held: nothing more is accepted while the template is paused.
    const heldAt = sendsOfJob().length;
    await sleep(2_100);
    expect(sendsOfJob().length).toBe(heldAt);

    expect((await setTemplate(runtime, 'APPROVED')).status).toBe(200);
    const final = await eventually(
      () => readJob(runtime.demo.organizationId, jobId).catch(() => undefined),
      (view) => view?.status === 'COMPLETED' || view?.status === 'COMPLETED_WITH_FAILURES' || view?.status === 'FAILED',
      90_000,
      200,
    ).then((view) => view!);
    await eventually(
      () => queueDepth(runtime),
      (depth) => depth === 0,
      30_000,
      200,
    );

    expect(final.status).toBe('COMPLETED');
    expect(final).not.toHaveProperty('pause');
    expect(final.summary.sent + final.summary.failed).toBe(TOTAL);
    expect(final.summary.failed).toBe(0);
    const sends = sendsOfJob().map((message) => String((message.body as { to?: unknown }).to));
    expect(sends).toHaveLength(TOTAL);
    expect(new Set(sends).size).toBe(TOTAL);
  }, 180_000);
});

describe('a template pause that outlasts TEMPLATE_PAUSE_TIMEOUT_MINUTES', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startPauseRuntime({ TEMPLATE_PAUSE_TIMEOUT_MINUTES: '0.05' });
  }, 60_000);
  afterAll(async () => {
    await setTemplate(runtime, 'APPROVED').catch(() => undefined);
    await runtime?.close();
  });

  it('fails the remaining recipients TEMPLATE_PAUSED and finishes the job', async () => {
    const { jobId, sendsOfJob } = await startDrainThenPause(runtime, 9_520_000_000);
    const final = await eventually(
      () => readJob(runtime.demo.organizationId, jobId).catch(() => undefined),
      (view) => view !== undefined && view.summary.chunksDone === view.totalChunks,
      60_000,
      200,
    ).then((view) => view!);
    const sent = sendsOfJob().length;
    expect(final.status).toBe('COMPLETED_WITH_FAILURES');
    expect(final.summary.sent).toBe(sent);
    expect(final.summary.failuresByReason).toEqual({ TEMPLATE_PAUSED: TOTAL - sent });
    expect(final.summary.sent + final.summary.failed).toBe(TOTAL);
  }, 120_000);
});
