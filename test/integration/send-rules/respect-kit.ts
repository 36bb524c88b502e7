/**
 * What the respect proof (respect.test.ts) needs besides the runtime: one runtime with a shifted
 * clock and every re-check at 1 s, campaigns created from members through the API, the sandbox's
 * sends per recipient, and STOP replies as Meta-signed inbound webhooks at the platform's time.
 * Not a test file itself.
 */
import { shiftedClock } from '../../../shared/ports/clock';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, readJob, sleep } from '../broadcast/broadcast-test-kit';
import { audienceOf } from '../campaigns/campaign-test-kit';
import { postInbound } from '../outcomes/outcomes-kit';
import { eventually, startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';

export type Call = (method: string, path: string, body?: unknown) => Promise<TestResponse>;
export type Clock = ReturnType<typeof shiftedClock>;

/**
 * Every wait of the send rules at 1 s (timers and SQS delays stay real while the clock jumps): the
 * window and cap hold (SEND_WINDOW_RECHECK_SECONDS), the canary's watch (CANARY_RECHECK_SECONDS), the
 * contact policy's cache (CONTACT_POLICY_CACHE_SECONDS), a paused job's recheck, the expander's delays.
 */
export const respectEnvironment = {
  ...kitEnvironment,
  SEND_WINDOW_RECHECK_SECONDS: '1',
  CANARY_RECHECK_SECONDS: '1',
  CONTACT_POLICY_CACHE_SECONDS: '0',
  PAUSE_RECHECK_SECONDS: '1',
  CAMPAIGN_EXPANSION_MAX_DELAY_SECONDS: '1',
  DEFAULT_MESSAGES_PER_SECOND: '200',
} as const;

export interface RespectRuntime {
  runtime: TestRuntime;
  clock: Clock;
  /** An API call with a fresh key of the demo organization; a 429 is waited out, a 503 retried (the contract says both are safe). */
  call: Call;
  close(): Promise<void>;
}

export async function startRespectRuntime(): Promise<RespectRuntime> {
  const clock = shiftedClock();
  const runtime = await startTestRuntime({ overrides: { clock }, environment: respectEnvironment });
  await fetch(`${runtime.sandboxUrl}/_sandbox/control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ latencyMs: 0, throughputPerSecond: 2_000 }),
  });
  const key = (await issueKey(runtime.demo.organizationId)).secret;
  const call: Call = async (method, path, body) => {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await runtime.call(method, `${BASE}${path}`, { headers: keyHeader(key), body });
      if (![429, 503].includes(answer.status) || attempt >= 40) return answer;
      await sleep(answer.status === 429 ? 1_000 * Math.max(1, Number(answer.headers.get('retry-after') ?? 1)) : 500 * Math.min(attempt, 6));
    }
  };
  return { runtime, clock, call, close: () => runtime.close() };
}

/** A member row: a number split as the audiences take it, with a first name. */
export const member = (countryCode: string, national: string, firstName = 'Ana') => ({
  countryCode,
  toPhoneNumber: national,
  attributes: { first_name: firstName },
});

export interface CampaignSpec {
  name: string;
  members: readonly ReturnType<typeof member>[];
  /** `order_update` (UTILITY, two values) or `spring_sale` (MARKETING, one value). */
  template: 'order_update' | 'spring_sale';
  /** The issue's send rules: sendWindow, deferCapped, canary, haltIf. */
  rules?: Record<string, unknown>;
}

/** Creates the audience and the campaign (a DRAFT); its id. */
export async function createCampaign(call: Call, spec: CampaignSpec): Promise<string> {
  const audienceId = await audienceOf(call, spec.name, spec.members);
  const template =
    spec.template === 'order_update'
      ? {
          templateName: 'order_update',
          templateLanguage: 'en_US',
          templateType: 'UTILITY',
          templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'R39'],
        }
      : { templateName: 'spring_sale', templateLanguage: 'en', templateType: 'MARKETING', templateParams: [{ attribute: 'first_name', fallback: 'there' }] };
  const created = await call('POST', '/campaigns', {
    name: spec.name,
    fromPhoneNumber: DEMO.sender1,
    audience: { audienceIds: [audienceId] },
    ...template,
    ...spec.rules,
  });
  if (created.status !== 201) throw new Error(`campaign ${spec.name}: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body.data.campaignId as string;
}

/** Launches the campaign and waits until its job exists; the job's id. */
export async function launch(call: Call, campaignId: string): Promise<string> {
  const launched = await call('POST', `/campaigns/${campaignId}/launch`);
  if (launched.status !== 202) throw new Error(`launch ${campaignId}: ${launched.status} ${JSON.stringify(launched.body)}`);
  const view = await eventually(
    () => call('GET', `/campaigns/${campaignId}`),
    (answer) => typeof answer.body?.data?.jobId === 'string',
    60_000,
    500,
  );
  return view.body.data.jobId as string;
}

/** The job's status as the API answers it, read through the use case (polling spends no rate limit). */
export const jobStatus = (runtime: TestRuntime, jobId: string) => readJob(runtime.demo.organizationId, jobId);

/** Polls the job's status until `done` accepts it. */
export const jobUntil = (runtime: TestRuntime, jobId: string, done: (status: Awaited<ReturnType<typeof jobStatus>>) => boolean, timeoutMs = 90_000) =>
  eventually(() => jobStatus(runtime, jobId), done, timeoutMs, 250);

/** Messages the sandbox accepted from the demo's first number, per recipient (digits or BSUID), of those `numbers`. */
export function sendsOf(runtime: TestRuntime, numbers: Iterable<string>): Map<string, number> {
  const wanted = new Set(numbers);
  const counts = new Map<string, number>();
  for (const message of runtime.sandbox!.acceptedMessages()) {
    const to = String((message.body as { to?: unknown }).to);
    if (wanted.has(to)) counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  return counts;
}

/** The sandbox's message id of the (first) message to each of `numbers`, the id a reply quotes. */
export function messageIdsOf(runtime: TestRuntime, numbers: readonly string[]): Map<string, string> {
  const ids = new Map<string, string>();
  for (const message of runtime.sandbox!.acceptedMessages()) {
    const to = String((message.body as { to?: unknown }).to);
    if (numbers.includes(to) && !ids.has(to)) ids.set(to, message.messageId);
  }
  return ids;
}

/** Each of `numbers` answers STOP to the campaign's message (quoting it), at the platform's time, through Meta's signed webhook. */
export async function replyStop(runtime: TestRuntime, clock: Clock, numbers: readonly string[]): Promise<void> {
  const ids = messageIdsOf(runtime, numbers);
  const timestamp = Math.floor(clock.now().getTime() / 1000);
  await postInbound(
    runtime,
    numbers.map((from) => ({ from, text: 'STOP', contextId: ids.get(from)!, timestamp })),
  );
}

/** Waits `ms`, then says whether the sends to `numbers` are still `expected` in total (nothing more went). */
export async function stillSent(runtime: TestRuntime, numbers: Iterable<string>, expected: number, ms = 3_000): Promise<number> {
  await sleep(ms);
  return [...sendsOf(runtime, numbers).values()].reduce((sum, count) => sum + count, 0) - expected;
}
