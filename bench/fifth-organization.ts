/**
 * A fifth organization while four drain (`npm run bench -- --only=fifth`, issue 28 item 5): four
 * organizations' accounts (`--fifth-orgs=N` for another number, issue 40) drain broadcasts at 80/s each
 * at Meta's latency (the sandbox's log-normal p50 200 ms / p99 1.5 s, as bench/drain-latency.ts),
 * 40,000 recipients in total by default (`--fifth-recipients=N` for shorter runs, split evenly), and
 * one more organization sends a one-recipient send-template-broadcast every second until the drain ends. Figure: from the moment
 * its request leaves the client to the sandbox's `receivedAt` of that message (both `Date.now()`
 * on this machine), p50 / p99. Goal: p99 <= 2 s.
 *
 * The one-recipient broadcast is the path a business's single message takes (answered 200, one
 * message on the single-messages queue and its single-sender since issue 40; before, one chunk on
 * the same outbound queue as the drains' chunks and the same 20 chunk-worker invocations), so its
 * delay is what the lane, its worker and the pacing give a small organization beside big ones. The broadcast class allows 10 a minute per key and
 * sender, so the fifth organization rotates over 8 keys (7.5 a minute each), never refused.
 */
import { benchDrain, besideEachOther, type DrainAlongside, type ScenarioResult } from './drain';
import { META_LATENCY, type GoalRow } from './drain-latency';
import { ms, percentile, sleep } from './lib/stats';
import { BROADCAST_PATH, broadcastBody, createBenchTenant, issueKey, type BenchTenant } from './lib/workload';

export interface FifthOrganizationOptions {
  /** Recipients of the drains together (default 40,000; at least 1,001 per draining organization so each is a 202 job). */
  totalRecipients: number;
  /** Organizations draining at once, one account each (`--fifth-orgs=N`, default 4). */
  drainingOrganizations?: number;
  /** Seconds between the fifth organization's sends (default 1). */
  intervalMs?: number;
  log: (line: string) => void;
  /** Other work in the same runtime during the measurement (bench/campaign-beside.ts: another organization's campaign draining), named in the scenario's label. */
  beside?: { label: string; work: DrainAlongside };
}

export interface SingleSend {
  /** Date.now() when the request was started. */
  sentAt: number;
  status: number;
  /** The accept's answer time (HTTP round trip through the local gateway). */
  answerMs: number;
  recipient: string;
  /** Sandbox `receivedAt` - sentAt; undefined: never arrived within the wait. */
  toSandboxMs?: number;
}

export interface FifthOrganizationResult {
  sends: SingleSend[];
  /** Sends answered 200 whose message the sandbox has. */
  arrived: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  answerP50Ms: number;
  answerP99Ms: number;
  /** From the accept's answer to the sandbox (queue, chunk worker, send): the part the accept does not explain. */
  afterAnswerP50Ms: number;
  afterAnswerP99Ms: number;
  /** Answers by HTTP status (every one should be 200). */
  statuses: Record<string, number>;
}

const KEYS = 8;
const SENDER_NUMBER = 500;
/** After the drain: the last sends get this long to reach the sandbox. */
const ARRIVAL_WAIT_MS = 30_000;

/** The fifth organization's sender, run beside the drain (drain.ts `alongside`). */
export function fifthOrganizationSender(intervalMs: number): DrainAlongside & { result(): FifthOrganizationResult | undefined } {
  let tenant: BenchTenant | undefined;
  let keys: string[] = [];
  let context: Parameters<DrainAlongside['prepare']>[0] | undefined;
  let result: FifthOrganizationResult | undefined;

  const sendOne = async (index: number): Promise<SingleSend> => {
    const body = broadcastBody({ count: 1, seed: 90, from: tenant!.phoneNumber, name: `fifth ${index}` });
    const recipient = { ...body.data[0]!, toPhoneNumber: String(9_900_000_000 + index) };
    const sentAt = Date.now();
    const started = performance.now();
    const response = await fetch(`${context!.baseUrl}${BROADCAST_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': keys[index % keys.length]! },
      body: JSON.stringify({ ...body, data: [recipient] }),
    });
    await response.text();
    return { sentAt, status: response.status, answerMs: performance.now() - started, recipient: `${recipient.countryCode}${recipient.toPhoneNumber}` };
  };

  return {
    async prepare(prepared) {
      context = prepared;
      tenant = await createBenchTenant(prepared.services, prepared.sandbox, SENDER_NUMBER, 80);
      prepared.sandbox.configure({ throughputByPhoneNumberId: { [tenant.phoneNumberId]: 80 } });
      keys = await Promise.all(Array.from({ length: KEYS }, () => issueKey(prepared.services, tenant!.organizationId)));
    },
    async start(drainEnded) {
      let ended = false;
      void drainEnded.then(() => (ended = true));
      const pending: Array<Promise<SingleSend>> = [];
      const started = performance.now();
      // Open loop: send i starts at start + i x interval, whatever the earlier answers took.
      for (let index = 0; !ended; index += 1) {
        const wait = started + index * intervalMs - performance.now();
        if (wait > 0) await Promise.race([sleep(wait), drainEnded]);
        if (ended) break;
        pending.push(sendOne(index));
      }
      const sends = await Promise.all(pending);
      const arrivedAt = () => {
        const times = new Map<string, number>();
        for (const message of context!.sandbox.acceptedMessages()) {
          if (message.phoneNumberId === tenant!.phoneNumberId) times.set(message.recipient, Date.parse(message.receivedAt));
        }
        return times;
      };
      const accepted = sends.filter((send) => send.status === 200);
      const waitUntil = performance.now() + ARRIVAL_WAIT_MS;
      let times = arrivedAt();
      while (accepted.some((send) => !times.has(send.recipient)) && performance.now() < waitUntil) {
        await sleep(250);
        times = arrivedAt();
      }
      for (const send of accepted) {
        const at = times.get(send.recipient);
        if (at !== undefined) send.toSandboxMs = at - send.sentAt;
      }
      const arrivedSends = accepted.filter((send) => send.toSandboxMs !== undefined);
      const delays = accepted.flatMap((send) => (send.toSandboxMs === undefined ? [] : [send.toSandboxMs]));
      const answers = sends.map((send) => send.answerMs);
      result = {
        sends,
        arrived: delays.length,
        // A send that never arrived counts as infinitely late in the percentiles.
        p50Ms: percentile([...delays, ...Array(accepted.length - delays.length).fill(Infinity)], 50),
        p99Ms: percentile([...delays, ...Array(accepted.length - delays.length).fill(Infinity)], 99),
        maxMs: delays.length === accepted.length ? Math.max(...delays) : Infinity,
        answerP50Ms: percentile(answers, 50),
        answerP99Ms: percentile(answers, 99),
        afterAnswerP50Ms: percentile(
          arrivedSends.map((send) => send.toSandboxMs! - send.answerMs),
          50,
        ),
        afterAnswerP99Ms: percentile(
          arrivedSends.map((send) => send.toSandboxMs! - send.answerMs),
          99,
        ),
        statuses: sends.reduce<Record<string, number>>((counts, send) => ({ ...counts, [send.status]: (counts[send.status] ?? 0) + 1 }), {}),
      };
      return result;
    },
    result: () => result,
  };
}

export async function benchFifthOrganization(
  options: FifthOrganizationOptions,
): Promise<{ drain: ScenarioResult; fifth?: FifthOrganizationResult; goals: GoalRow[] }> {
  const draining = options.drainingOrganizations ?? 4;
  const perAccount = Math.max(1_001, Math.floor(options.totalRecipients / draining));
  const sender = fifthOrganizationSender(options.intervalMs ?? 1_000);
  const [drain] = await benchDrain({
    scenarios: [
      {
        label: `${draining} accounts @ 80/s, ${(perAccount * draining).toLocaleString('en-US')} recipients in all, Meta latency, one more organization sending 1 message/s${options.beside ? `, ${options.beside.label}` : ''}`,
        accounts: draining,
        ratePerSecond: 80,
        recipientsPerAccount: perAccount,
        sandboxControl: META_LATENCY,
        stallMs: 45_000,
        countDynamoDb: false,
        alongside: options.beside ? besideEachOther(sender, options.beside.work) : sender,
      },
    ],
    runsPerScenario: 1,
    budgetSeconds: 0,
    log: options.log,
  });
  const fifth = sender.result();
  const goals: GoalRow[] = [];
  if (fifth) {
    const ok = fifth.arrived === fifth.sends.filter((send) => send.status === 200).length && fifth.sends.every((send) => send.status === 200);
    goals.push({
      figure: `fifth organization's single message while ${draining} accounts drain, accept -> sandbox`,
      value: `p50 ${Math.round(fifth.p50Ms)} ms, p99 ${Math.round(fifth.p99Ms)} ms, max ${Math.round(fifth.maxMs)} ms (${fifth.arrived} of ${fifth.sends.length} sends; drain ${(drain!.medianFraction * 100).toFixed(1)}%)`,
      goal: 'p99 <= 2 s, every send answered 200 and arrived',
      met: ok && fifth.p99Ms <= 2_000 ? 'yes' : 'no',
    });
  }
  return { drain: drain!, fifth, goals };
}

/** The fifth organization's rows of a section's table (its sends, the accept's answer, request → sandbox). */
export function fifthOrganizationRows(f: FifthOrganizationResult): string[][] {
  const answers = Object.entries(f.statuses).map(([status, count]) => `${status}: ${count}`);
  return [
    ['fifth organization: sends, answers', `${f.sends.length}, ${answers.join(', ')}`],
    ['fifth organization: accept answer p50 / p99', `${ms(f.answerP50Ms)} / ${ms(f.answerP99Ms)}`],
    ['fifth organization: request -> sandbox receipt p50 / p99 / max', `${ms(f.p50Ms)} / ${ms(f.p99Ms)} / ${ms(f.maxMs)} (${f.arrived} arrived)`],
    ['  of which after the accept answered (queue, chunk worker, send) p50 / p99', `${ms(f.afterAnswerP50Ms)} / ${ms(f.afterAnswerP99Ms)}`],
  ];
}
