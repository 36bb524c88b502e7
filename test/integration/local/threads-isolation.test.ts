/**
 * The local runtime's `threads` isolation (docs/ARCHITECTURE.md "Isolation"): each function in
 * its own worker thread with exactly its environment and its timeout enforced by terminating the
 * worker, the emulators in a thread of their own, and a broadcast drained through it.
 */
import { join } from 'node:path';
import { FunctionHost, FunctionInvocationError } from '../../../local/function-host';
import { localLambdaContextFields } from '../../../local/lambda-context';
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, orderUpdate, recipients, waitForTerminal } from '../broadcast/broadcast-test-kit';

const probe = (options: { timeoutSeconds?: number; services?: Record<string, object> } = {}) =>
  new FunctionHost({
    name: 'probe',
    module: { kind: 'source', file: join(__dirname, 'fixtures', 'probe-function.lambda.ts') },
    environment: { PROBE_OWN: 'mine', AWS_REGION: 'eu-west-1' },
    timeoutSeconds: options.timeoutSeconds ?? 10,
    memoryMb: 256,
    services: options.services,
    context: (awsRequestId, deadline) =>
      localLambdaContextFields({ functionName: 'probe', region: 'eu-west-1', memoryLimitInMB: '256', deadline, awsRequestId }),
  });

describe('a function in its own thread', () => {
  it('sees exactly the environment it is given, nothing of the host process', async () => {
    process.env.PROBE_HOST_ONLY = 'host';
    const host = probe();
    try {
      const answer = (await host.invoke({ kind: 'env' })) as {
        given: Record<string, string>;
        processEnv: Record<string, string>;
        functionName: string;
        remainingMs: number;
      };
      expect(answer.given).toEqual({ PROBE_OWN: 'mine', AWS_REGION: 'eu-west-1' });
      expect(answer.processEnv).toEqual({ PROBE_OWN: 'mine', AWS_REGION: 'eu-west-1' });
      expect(answer.functionName).toBe('probe');
      expect(answer.remainingMs).toBeGreaterThan(0);
      expect(answer.remainingMs).toBeLessThanOrEqual(10_000);
    } finally {
      delete process.env.PROBE_HOST_ONLY;
      await host.stop();
    }
  }, 30_000);

  it('is stopped at its timeout (Sandbox.Timedout, its thread ended) and the next invocation cold-starts and succeeds', async () => {
    const host = probe({ timeoutSeconds: 1 });
    try {
      const warm = (await host.invoke({ kind: 'sleep', ms: 1 })) as { loadedAt: number };
      const threadBefore = host.utilization().map((thread) => thread.threadId);
      const timedOut = host.invoke({ kind: 'sleep', ms: 5_000 });
      await expect(timedOut).rejects.toBeInstanceOf(FunctionInvocationError);
      await expect(timedOut).rejects.toMatchObject({ errorType: 'Sandbox.Timedout' });
      expect(host.utilization()).toEqual([]);
      const next = (await host.invoke({ kind: 'sleep', ms: 1 })) as { slept: number; loadedAt: number };
      expect(next.slept).toBe(1);
      expect(next.loadedAt).toBeGreaterThan(warm.loadedAt);
      expect(host.utilization().map((thread) => thread.threadId)).not.toEqual(threadBefore);
    } finally {
      await host.stop();
    }
  }, 60_000);

  it('reaches a collaborator of the host thread through its services (the scheduler override)', async () => {
    const calls: Array<[string, string]> = [];
    const scheduler = new (class {
      async scheduleFiring(jobId: string, at: Date): Promise<void> {
        calls.push([jobId, at.toISOString()]);
      }
    })();
    const host = probe({ services: { jobFiringScheduler: scheduler } });
    try {
      await expect(host.invoke({ kind: 'schedule', jobId: 'job-1' })).resolves.toEqual({ scheduled: 'job-1' });
      expect(calls).toEqual([['job-1', '2030-01-01T00:00:00.000Z']]);
    } finally {
      await host.stop();
    }
  }, 30_000);
});

describe('the local runtime in threads mode', () => {
  let runtime: TestRuntime;
  beforeAll(async () => {
    runtime = await startTestRuntime({ isolation: 'threads', environment: { BROADCAST_SCHEDULE_MIN_LEAD_SECONDS: '1' } });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  }, 30_000);
  const key = () => ({ 'x-api-key': runtime.demo.apiKey });
  const sendsTo = (prefix: string) => runtime.sandbox!.acceptedMessages().filter((message) => String((message.body as { to?: unknown }).to).startsWith(prefix));

  it('drains a 2,500-recipient broadcast to completion, every recipient exactly once', async () => {
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: key(),
      body: orderUpdate(recipients(2_500, { first: 9_620_000_000 })),
    });
    expect(accepted.status).toBe(202);
    const final = await waitForTerminal(runtime.demo.organizationId, accepted.body.data.jobId, 90_000);
    expect(final).toMatchObject({ status: 'COMPLETED', summary: { sent: 2_500, failed: 0, unknown: 0 } });
    const sent = sendsTo('919620');
    expect(sent).toHaveLength(2_500);
    expect(new Set(sent.map((message) => (message.body as { to: string }).to)).size).toBe(2_500);
    // The chunk worker ran in a thread of its own, next to the emulators' thread.
    const threads = runtime.threadUtilization().map((thread) => thread.name);
    expect(threads).toEqual(expect.arrayContaining(['chunk-worker', 'broadcast-send', 'emulators (dynalite, fauxqs)']));
  }, 120_000);

  it('fires a scheduled broadcast through the scheduler living in the main thread', async () => {
    const inSeconds = new Date(Date.now() + 3_000).toISOString();
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: key(),
      body: orderUpdate(recipients(3, { first: 9_630_000_000 }), { scheduledAt: inSeconds }),
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body.data.status).toBe('SCHEDULED');
    const final = await waitForTerminal(runtime.demo.organizationId, accepted.body.data.jobId, 60_000);
    expect(final.status).toBe('COMPLETED');
    expect(sendsTo('919630')).toHaveLength(3);
    expect((await getServices().broadcast.broadcasts.getJob(accepted.body.data.jobId))!.firedAt).toBeDefined();
  }, 90_000);

  it('leaves no thread behind when stopped', async () => {
    const stopping = await startTestRuntime({ isolation: 'threads', startWorkers: false, seedDemo: false });
    await stopping.close();
    expect(stopping.threadUtilization().map((thread) => thread.name)).toEqual(['main (gateway, event sources, sandbox)']);
  }, 60_000);
});
