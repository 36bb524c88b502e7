/**
 * A broadcast drained against the sandbox's Meta-like latency, set through its control API
 * (`POST /_sandbox/control` with `latency`): every recipient gets exactly one message, and the
 * only unknown outcomes are the sends whose answer the sandbox lost on purpose (accepted and sent,
 * answer never returned, so the worker's upstream timeout fires).
 */
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import {
  BASE,
  DEMO,
  acceptedByRecipient,
  issueKey,
  keyHeader,
  kitEnvironment,
  latestJobId,
  ledgerOf,
  orderUpdate,
  recipients,
  waitForTerminal,
} from './broadcast-test-kit';

describe('drain under Meta-like upstream latency', () => {
  let runtime: TestRuntime;

  beforeAll(async () => {
    // The worker gives up on an unanswered send after 8 s (the sandbox holds it 15 s): an unknown outcome.
    // Generous, so that only lost answers time out even when the shared machine is busy.
    runtime = await startTestRuntime({ environment: { ...kitEnvironment, WORKER_MAX_IN_FLIGHT: '32', UPSTREAM_TIMEOUT_MS: '8000' } });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  }, 30_000);

  it('sends each recipient once; unknown outcomes are exactly the sends whose answer was lost', async () => {
    const control = await fetch(`${runtime.sandbox!.url}/_sandbox/control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latency: { distribution: 'lognormal', p50Ms: 40, p99Ms: 300, timeoutRate: 0.03, seed: 7 }, timeoutHoldMs: 15_000 }),
    });
    expect(control.status).toBe(200);
    expect(((await control.json()) as { latency: unknown }).latency).toEqual({
      distribution: 'lognormal',
      p50Ms: 40,
      p99Ms: 300,
      timeoutRate: 0.03,
      seed: 7,
      maxMs: 60_000,
    });

    const data = recipients(400);
    const key = await issueKey(runtime.demo.organizationId);
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key.secret), body: orderUpdate(data) });
    expect([200, 202]).toContain(accepted.status);
    // A small broadcast's job id is not in the answer: the organization's newest job is this one.
    const jobId = accepted.status === 202 ? (accepted.body.data.jobId as string) : await latestJobId(runtime.demo.organizationId);
    const view = await waitForTerminal(runtime.demo.organizationId, jobId, 60_000);

    const byRecipient = acceptedByRecipient(runtime, DEMO.phoneNumberId1);
    const numbers = data.map((recipient) => `${recipient.countryCode}${recipient.toPhoneNumber}`);
    expect(numbers.filter((number) => byRecipient.get(number)?.length !== 1)).toEqual([]);
    const lost = new Set(numbers.filter((number) => byRecipient.get(number)![0]!.answerLost));
    // 3 % of 400: the seed gives some, so the comparison below is not vacuous.
    expect(lost.size).toBeGreaterThan(0);

    const ledger = await ledgerOf(jobId, 0);
    const unknown = new Set([...ledger.values()].filter((entry) => entry.status === 'UNKNOWN').map((entry) => entry.to.replace(/^\+/, '')));
    expect(unknown).toEqual(lost);
    expect([...ledger.values()].filter((entry) => entry.status === 'SENT')).toHaveLength(400 - lost.size);
    expect(view.summary).toMatchObject({ sent: 400 - lost.size, unknown: lost.size, failed: 0, pending: 0 });
  }, 90_000);
});
