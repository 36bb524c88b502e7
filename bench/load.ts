/**
 * Mixed load on the local runtime: open loop at a target rate, fixed request count, time limit.
 *
 * Traffic (shares of the requests): status polls, phone-number and template lists, small template
 * broadcasts (2 recipients), free-form text sends, v1 reads (contacts, conversations) and /upstream
 * GETs, plus a small "limit probe" stream that goes over its rate limit on purpose. Requests start
 * on schedule (request i at start + i / rate) whether or not earlier ones have answered, so a slow
 * server builds a queue and its latency shows it (no coordinated omission); latency is measured
 * from the scheduled start.
 *
 * Rate limits are hit only where designed: every class draws its credentials from a pool of fresh
 * keys (broadcast keys and upstream tokens of the demo organization, v1 keys of the demo's other
 * organization, which has the v1 API) sized so that no key exceeds its class's per-minute limit
 * over the whole run; the sliding window then never refuses them, whatever minute boundaries the
 * run crosses. The probe stream uses one key for all its requests: its 429s are the intended ones.
 * Any other 429, any 5xx, network error or answer outside the class's expected statuses is an error.
 *
 * Everything runs in this process on 127.0.0.1 (the runtime with its chunk workers, dynalite,
 * fauxqs, the sandbox, and this load generator), so the generator's own CPU competes with the server.
 *
 *   npm run bench -- --only=load                               # 200 req/s for 60 s
 *   npm run bench -- --only=load --load-rate=100 --load-seconds=10
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rateLimitClasses, v1PlanLimits } from '../runtime-contract/route-manifest';
import { percentile } from './lib/stats';

export interface LoadOptions {
  /** Target requests per second. Default 200. */
  ratePerSecond?: number;
  /** Seconds of scheduled traffic; the request count is rate × seconds. Default 60. */
  seconds?: number;
  /** After the last scheduled start, how long to wait for answers before counting the rest as timed out. Default 30 s. */
  drainTimeoutMs?: number;
  /**
   * How the runtime runs the functions: `inline` (default: one thread for everything, as the
   * integration tests) or `threads` (each function in its own worker thread and the emulators apart,
   * as `npm start`; measured slower for this mix on 2 cores, docs/PERFORMANCE.md 4d).
   */
  isolation?: 'threads' | 'inline';
  log?: (line: string) => void;
}

type ClassName = 'status' | 'phone-numbers' | 'templates' | 'broadcast' | 'freeform' | 'v1' | 'upstream' | 'limit-probe';

/** Shares of the traffic, in percent. */
const mix: Record<ClassName, number> = {
  status: 22,
  'phone-numbers': 12,
  templates: 12,
  broadcast: 10,
  freeform: 10,
  v1: 18,
  upstream: 15,
  'limit-probe': 1,
};

/** Uses of one credential per class over the whole run, kept within the class's per-minute limit. */
const budgetPerCredential: Record<Exclude<ClassName, 'limit-probe'>, number> = {
  status: rateLimitClasses.status.perMinute,
  'phone-numbers': rateLimitClasses['phone-numbers'].perMinute,
  // Per key and phone_number / fromPhoneNumber: the demo has two senders.
  templates: rateLimitClasses.templates.perMinute * 2,
  broadcast: rateLimitClasses['template-broadcast'].perMinute * 2,
  freeform: rateLimitClasses.freeform.perMinute * 2,
  v1: v1PlanLimits.professional,
  upstream: rateLimitClasses.upstream.perMinute,
};

interface PlannedRequest {
  className: ClassName;
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  expected: readonly number[];
}

export interface ClassFigures {
  requests: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  errors: number;
  intended429: number;
}

export interface LoadResult {
  targetRatePerSecond: number;
  seconds: number;
  requests: number;
  /** Answers received per second, first scheduled start to last answer. */
  achievedPerSecond: number;
  /** How late the generator started requests behind schedule (p99), a sign of its own saturation. */
  startLagP99Ms: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  intended429: number;
  errors: number;
  timedOut: number;
  errorSamples: string[];
  byClass: Record<string, ClassFigures>;
  goal: { text: string; met: boolean };
}

export async function benchLoad(options: LoadOptions = {}): Promise<LoadResult> {
  const rate = options.ratePerSecond ?? 200;
  const seconds = options.seconds ?? 60;
  const drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
  const log = options.log ?? (() => undefined);
  const total = Math.round(rate * seconds);
  const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-load-'));
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  const { startLocalRuntime } = await import('../local/local-runtime');
  const { getServices } = await import('../functions/composition');
  const runtime = await startLocalRuntime({
    port: 0,
    dataDirectory,
    persist: false,
    startWorkers: true,
    isolation: options.isolation ?? 'inline',
    sandbox: { throughputPerSecond: 100_000 },
  });
  try {
    const demo = runtime.demo!;
    const admin = getServices().tenancy.admin;
    const issue = async (organizationId: string, kind: 'broadcast-api-key' | 'v1-api-key' | 'upstream-access-token') =>
      (await admin.issueCredential({ organizationId, kind })).secret;

    // The class of every request, spread evenly over the run (a fixed interleaving, not random).
    const classes: ClassName[] = [];
    const weights = Object.entries(mix) as Array<[ClassName, number]>;
    const totalWeight = weights.reduce((sum, [, weight]) => sum + weight, 0);
    const credit = new Map<ClassName, number>(weights.map(([name]) => [name, 0]));
    for (let index = 0; index < total; index += 1) {
      for (const [name, weight] of weights) credit.set(name, credit.get(name)! + weight / totalWeight);
      const [next] = [...credit.entries()].sort((a, b) => b[1] - a[1])[0]!;
      credit.set(next, credit.get(next)! - 1);
      classes.push(next);
    }
    const countOf = (name: ClassName) => classes.filter((candidate) => candidate === name).length;

    // Credential pools, sized so that no credential goes over its budget (the run plus one warm-up request).
    const pool = async (name: Exclude<ClassName, 'limit-probe'>, make: () => Promise<string>) => {
      const needed = Math.ceil((countOf(name) + 1) / budgetPerCredential[name]);
      const secrets: string[] = [];
      for (let index = 0; index < needed; index += 1) secrets.push(await make());
      return secrets;
    };
    const broadcastKeyClasses = ['status', 'phone-numbers', 'templates', 'broadcast', 'freeform'] as const;
    const broadcastKeys = Object.fromEntries(
      await Promise.all(broadcastKeyClasses.map(async (name) => [name, await pool(name, () => issue(demo.organizationId, 'broadcast-api-key'))] as const)),
    ) as Record<(typeof broadcastKeyClasses)[number], string[]>;
    const v1Keys = await pool('v1', () => issue(demo.otherOrg.organizationId, 'v1-api-key'));
    const upstreamTokens = await pool('upstream', () => issue(demo.organizationId, 'upstream-access-token'));
    const probeKey = await issue(demo.organizationId, 'broadcast-api-key');
    const credentialCount = Object.values(broadcastKeys).flat().length + v1Keys.length + upstreamTokens.length + 1;
    log(`${total} requests at ${rate}/s over ${seconds} s; ${credentialCount} fresh credentials`);

    // One job for the status polls: only a broadcast above the synchronous threshold (1,000) gets a job id.
    const senders = demo.phoneNumbers;
    const jobAnswer = await fetch(`${runtime.baseUrl}/prod/api/v2/broadcast/public/send-template-broadcast`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': demo.apiKey },
      body: JSON.stringify(broadcastBody(senders[0]!, 'load-setup', 0, 1_001)),
    });
    const jobBody = (await jobAnswer.json()) as { data?: { jobId?: string } };
    const jobId = jobBody.data?.jobId;
    if (!jobId) throw new Error(`setup broadcast answered ${jobAnswer.status}: ${JSON.stringify(jobBody)}`);

    const uses = new Map<string, number>();
    const next = (keys: readonly string[], name: string) => {
      const used = uses.get(name) ?? 0;
      uses.set(name, used + 1);
      return { key: keys[used % keys.length]!, turn: used };
    };
    const broadcastPath = '/prod/api/v2/broadcast/public';
    const json = { 'content-type': 'application/json' };
    const phoneNumberId = demo.phoneNumberIds[0]!;
    const plan = (name: ClassName, index: number): PlannedRequest => {
      switch (name) {
        case 'status': {
          const { key } = next(broadcastKeys.status, name);
          return { className: name, method: 'GET', path: `${broadcastPath}/status/${jobId}`, headers: { 'x-api-key': key }, expected: [200] };
        }
        case 'phone-numbers': {
          const { key } = next(broadcastKeys['phone-numbers'], name);
          return { className: name, method: 'GET', path: `${broadcastPath}/phone-numbers`, headers: { 'x-api-key': key }, expected: [200] };
        }
        case 'templates': {
          const { key, turn } = next(broadcastKeys.templates, name);
          const sender = senders[Math.floor(turn / broadcastKeys.templates.length) % senders.length]!;
          return { className: name, method: 'GET', path: `${broadcastPath}/templates?phone_number=${sender}`, headers: { 'x-api-key': key }, expected: [200] };
        }
        case 'broadcast': {
          const { key, turn } = next(broadcastKeys.broadcast, name);
          const sender = senders[Math.floor(turn / broadcastKeys.broadcast.length) % senders.length]!;
          const body = JSON.stringify(broadcastBody(sender, `load-${index}`, index, 2));
          return {
            className: name,
            method: 'POST',
            path: `${broadcastPath}/send-template-broadcast`,
            headers: { ...json, 'x-api-key': key },
            body,
            expected: [200],
          };
        }
        case 'freeform': {
          const { key, turn } = next(broadcastKeys.freeform, name);
          const sender = senders[Math.floor(turn / broadcastKeys.freeform.length) % senders.length]!;
          const body = JSON.stringify({ fromPhoneNumber: sender, toPhoneNumber: `91${8_000_000_000 + index}`, type: 'text', text: `Load ${index}` });
          return { className: name, method: 'POST', path: `${broadcastPath}/send-freeform`, headers: { ...json, 'x-api-key': key }, body, expected: [200] };
        }
        case 'v1': {
          const { key, turn } = next(v1Keys, name);
          return {
            className: name,
            method: 'GET',
            path: turn % 2 === 0 ? '/v1/contacts' : '/v1/conversations',
            headers: { authorization: `Bearer ${key}` },
            expected: [200],
          };
        }
        case 'upstream': {
          const { key } = next(upstreamTokens, name);
          return {
            className: name,
            method: 'GET',
            path: `/staging/api/v2/upstream/phone-numbers/${phoneNumberId}/business-profile`,
            headers: { authorization: `Bearer ${key}` },
            expected: [200],
          };
        }
        case 'limit-probe':
          // One key for the whole stream: past 30 in a minute its answers are the intended 429s.
          return { className: name, method: 'GET', path: `${broadcastPath}/phone-numbers`, headers: { 'x-api-key': probeKey }, expected: [200, 429] };
      }
    };
    // Warm-up, not measured: one request of each class loads its handler group's modules and SDK clients.
    const warmUp: string[] = [];
    for (const name of Object.keys(mix) as ClassName[]) {
      const warm = plan(name, total + Object.keys(mix).indexOf(name) + 1);
      const t0 = performance.now();
      const answer = await fetch(`${runtime.baseUrl}${warm.path}`, { method: warm.method, headers: warm.headers, body: warm.body });
      await answer.arrayBuffer();
      warmUp.push(`${name} ${Math.round(performance.now() - t0)} ms`);
      if (!warm.expected.includes(answer.status)) log(`warm-up ${name} answered ${answer.status}`);
    }
    log(`warm-up (one request each, sequential): ${warmUp.join(', ')}`);
    const requests = classes.map((name, index) => plan(name, index));

    interface Outcome {
      className: ClassName;
      status: number | 'network-error' | 'timeout';
      latencyMs: number;
      ok: boolean;
      detail?: string;
    }
    const outcomes: Array<Outcome | undefined> = new Array(total);
    const startLags: number[] = [];
    const intervalMs = 1000 / rate;
    const started = performance.now();
    const deadline = started + seconds * 1000 + drainTimeoutMs;
    let lastAnswerAt = started;
    const fire = async (index: number) => {
      const request = requests[index]!;
      const scheduledAt = started + index * intervalMs;
      startLags.push(performance.now() - scheduledAt);
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), Math.max(1, deadline - performance.now()));
      try {
        const response = await fetch(`${runtime.baseUrl}${request.path}`, {
          method: request.method,
          headers: request.headers,
          body: request.body,
          signal: controller.signal,
        });
        const text = await response.text();
        const latencyMs = performance.now() - scheduledAt;
        lastAnswerAt = Math.max(lastAnswerAt, performance.now());
        const ok = request.expected.includes(response.status);
        outcomes[index] = { className: request.className, status: response.status, latencyMs, ok, detail: ok ? undefined : text.slice(0, 160) };
      } catch (error) {
        const timedOut = controller.signal.aborted;
        outcomes[index] = {
          className: request.className,
          status: timedOut ? 'timeout' : 'network-error',
          latencyMs: performance.now() - scheduledAt,
          ok: false,
          // fetch reports "fetch failed"; the reason (e.g. a connect timeout) is its cause.
          detail: timedOut
            ? undefined
            : `${String(error)} (${String((error as { cause?: { code?: string; message?: string } }).cause?.code ?? (error as { cause?: { message?: string } }).cause?.message)})`,
        };
      } finally {
        clearTimeout(timer);
      }
    };

    // Open loop: a tick every few ms starts whatever is due, never waiting for answers.
    const inFlight: Array<Promise<void>> = [];
    await new Promise<void>((resolve) => {
      let nextIndex = 0;
      const tick = () => {
        const due = Math.min(total, Math.floor((performance.now() - started) / intervalMs) + 1);
        while (nextIndex < due) inFlight.push(fire(nextIndex++));
        if (nextIndex >= total) resolve();
        else setTimeout(tick, Math.min(5, intervalMs));
      };
      tick();
    });
    await Promise.all(inFlight);
    await runtime.workersIdle().catch(() => undefined);

    const all = outcomes.map(
      (outcome, index) => outcome ?? { className: requests[index]!.className, status: 'timeout' as const, latencyMs: Number.NaN, ok: false },
    );
    const tally = (list: Outcome[]) => {
      const statuses: Record<string, number> = {};
      for (const outcome of list) statuses[String(outcome.status)] = (statuses[String(outcome.status)] ?? 0) + 1;
      return statuses;
    };
    const isIntended429 = (outcome: Outcome) => outcome.status === 429 && outcome.className === 'limit-probe';
    const answered = all.filter((outcome) => typeof outcome.status === 'number');
    const latencies = answered.map((outcome) => outcome.latencyMs);
    const errors = all.filter((outcome) => !outcome.ok);
    const byClass: Record<string, ClassFigures> = {};
    for (const name of Object.keys(mix) as ClassName[]) {
      const list = all.filter((outcome) => outcome.className === name);
      const answeredInClass = list.filter((outcome) => typeof outcome.status === 'number');
      byClass[name] = {
        requests: list.length,
        p50: percentile(
          answeredInClass.map((outcome) => outcome.latencyMs),
          50,
        ),
        p99: percentile(
          answeredInClass.map((outcome) => outcome.latencyMs),
          99,
        ),
        statuses: tally(list),
        errors: list.filter((outcome) => !outcome.ok).length,
        intended429: list.filter(isIntended429).length,
      };
    }
    const p99 = percentile(latencies, 99);
    const achievedPerSecond = (answered.length / Math.max(1, lastAnswerAt - started)) * 1000;
    const met = achievedPerSecond >= rate * 0.98 && p99 < 1000 && errors.length === 0 && rate >= 200 && seconds >= 60;
    return {
      targetRatePerSecond: rate,
      seconds,
      requests: total,
      achievedPerSecond,
      startLagP99Ms: percentile(startLags, 99),
      p50: percentile(latencies, 50),
      p99,
      statuses: tally(all),
      intended429: all.filter(isIntended429).length,
      errors: errors.length,
      timedOut: all.filter((outcome) => outcome.status === 'timeout').length,
      // One sample per kind of error (status or network failure), with its count.
      errorSamples: [...new Set(errors.map((outcome) => String(outcome.status)))].map((status) => {
        const list = errors.filter((outcome) => String(outcome.status) === status);
        return `${status} x${list.length} (e.g. ${list[0]!.className}${list[0]!.detail ? `: ${list[0]!.detail}` : ''})`;
      }),
      byClass,
      goal: {
        text: '200 requests/s held for 60 s (achieved >= 98% of target), p99 < 1 s, no error other than intended 429s',
        met,
      },
    };
  } finally {
    await runtime.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

/** A broadcast of the demo's `order_update` template (2 parameters); recipients distinct per `seed`. */
function broadcastBody(fromPhoneNumber: string, broadcastName: string, seed: number, recipients: number) {
  return {
    broadcastName,
    fromPhoneNumber,
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    data: Array.from({ length: recipients }, (_, offset) => ({
      countryCode: '91',
      toPhoneNumber: String((seed === 0 ? 6_000_000_000 : 7_000_000_000) + seed * 2 + offset),
      templateParams: [`Customer ${seed}`, `ORD-${seed}-${offset}`],
    })),
  };
}
