/**
 * Case (d) of the delivery fault tests (delivery-faults.test.ts): recipients Meta refuses for good
 * fail with their reason code, once, and one rate-limited on every attempt is retried up to the
 * limit, then failed with Meta's code. In a file of its own because its retry timings are short:
 * at the production defaults the storm test keeps (1 s account hold, backoff 200 ms .. 5 s) the
 * always-throttled recipient alone took over 30 s; the number of attempts asserted is the same.
 */
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import {
  BASE,
  kitEnvironment,
  acceptedByRecipient,
  issueKey,
  keyHeader,
  latestJobId,
  ledgerOf,
  orderUpdate,
  readJob,
  recipients,
  runWorkersUntilIdle,
  waitForTerminal,
  type Recipient,
} from './broadcast-test-kit';

describe('delivery under faults: permanent errors', () => {
  let runtime: TestRuntime;
  let organizationId: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({
      startWorkers: false,
      environment: { ...kitEnvironment, WORKER_RATE_LIMIT_HOLD_MS: '50', WORKER_BACKOFF_BASE_MS: '20', WORKER_BACKOFF_MAX_MS: '200' },
    });
    organizationId = runtime.demo.organizationId;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });
  beforeEach(() => runtime.sandbox!.reset());

  /** Accepts a broadcast and returns its job id (from the 202, or the organization's newest for a small one). */
  const submit = async (data: Recipient[]): Promise<string> => {
    const key = await issueKey(organizationId);
    const response = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key.secret), body: orderUpdate(data) });
    expect([200, 202]).toContain(response.status);
    return response.status === 202 ? (response.body.data.jobId as string) : latestJobId(organizationId);
  };
  const to = (recipient: Recipient) => recipient.countryCode + recipient.toPhoneNumber.replace(/^0+/, '');
  const expectAccounted = (view: Awaited<ReturnType<typeof readJob>>, total: number) => {
    expect(view.summary.pending).toBe(0);
    expect(view.summary.sent + view.summary.failed + view.summary.unknown).toBe(total);
    expect(view.summary.chunksDone).toBe(view.summary.chunksTotal);
  };

  it('(d) fails recipients with permanent errors, each with its failure reason code, without retrying them', async () => {
    const data = recipients(50, { first: 9_130_000_000 });
    const [notOnWhatsApp, notOnWhatsAppOnce, unsupported, throttledForever] = [5, 6, 7, 8].map((index) => to(data[index]!));
    runtime.sandbox!.configure({
      recipientErrors: {
        [notOnWhatsApp!]: { code: 131026 },
        // One use: had the worker retried it, the retry would have been accepted.
        [notOnWhatsAppOnce!]: { code: 131026, times: 1 },
        [unsupported!]: { code: 131051, times: 1 },
        // Rate-limited on every attempt: retried up to the limit, then failed with Meta's code.
        [throttledForever!]: { code: 130429 },
      },
    });
    const jobId = await submit(data);
    await runWorkersUntilIdle(runtime);

    const view = await waitForTerminal(organizationId, jobId);
    expect(view).toMatchObject({
      status: 'COMPLETED_WITH_FAILURES',
      summary: { sent: 46, failed: 4, unknown: 0, failuresByReason: { INVALID_PHONE_NUMBER: 2, '131051': 1, '130429': 1 } },
    });
    expectAccounted(view, 50);
    const byRecipient = acceptedByRecipient(runtime);
    expect([notOnWhatsApp, notOnWhatsAppOnce, unsupported, throttledForever].filter((number) => byRecipient.has(number!))).toEqual([]);

    const ledger = [...(await ledgerOf(jobId, 0)).values()];
    const entry = (number: string | undefined) => ledger.find((candidate) => candidate.to === number);
    expect(entry(notOnWhatsApp)).toMatchObject({ status: 'FAILED', failureReasonCode: 'INVALID_PHONE_NUMBER', attempts: 1 });
    expect(entry(notOnWhatsAppOnce)).toMatchObject({ status: 'FAILED', failureReasonCode: 'INVALID_PHONE_NUMBER', attempts: 1 });
    expect(entry(unsupported)).toMatchObject({ status: 'FAILED', failureReasonCode: '131051', attempts: 1 });
    // Rate-limit answers get three times the attempts of other retryable errors (they mean "not sent").
    expect(entry(throttledForever)).toMatchObject({ status: 'FAILED', failureReasonCode: '130429', attempts: getServices().config.sendPolicy.maxAttempts * 3 });
    expect(ledger.filter((candidate) => candidate.status === 'FAILED').every((candidate) => candidate.failureReasonCode)).toBe(true);

    // A job where nobody could be reached ends FAILED.
    const hopeless = recipients(2, { first: 9_131_000_000 });
    runtime.sandbox!.configure({ recipientErrors: Object.fromEntries(hopeless.map((recipient) => [to(recipient), { code: 131026 }])) });
    const hopelessJob = await submit(hopeless);
    await runWorkersUntilIdle(runtime);
    expect(await waitForTerminal(organizationId, hopelessJob)).toMatchObject({
      status: 'FAILED',
      summary: { sent: 0, failed: 2, failuresByReason: { INVALID_PHONE_NUMBER: 2 } },
    });
  }, 60_000);
});
