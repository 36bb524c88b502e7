/**
 * The /upstream wrapper's added latency: the same Graph read made directly on the Cloud API
 * sandbox and through the wrapper (local gateway → Lambda handler: authentication, rate-limit
 * counter, tenancy isolation check, token decryption (cached) → sandbox), under concurrent load.
 *
 * Loopback only: the local runtime (dynalite, fauxqs, sandbox, gateway) runs in this process on
 * 127.0.0.1. Each of the `concurrency` clients has its own access token, as separate back ends
 * would, so the wrapper's 600 requests/minute per token do not throttle the run. Bounded in time:
 * no request starts after `maxDurationMs` per phase.
 *
 * Usage from another script:
 *   import { runWrapperLatencyBench, describeWrapperLatency } from './wrapper-latency';
 *   const result = await runWrapperLatencyBench({ requests: 2000, concurrency: 20 });
 *   console.log(describeWrapperLatency(result));
 * Alone: `npx tsx bench/wrapper-latency.ts [requests] [concurrency] [caches-off]`.
 *
 * `cachesOff` sets the tenancy read cache's times to live to 1 ms (the environment of the runtime),
 * so every request reads credential, organization, number and account from the store again: the
 * "before" of docs/PERFORMANCE.md section 4g, measured in the same run. DynamoDB calls made during
 * the wrapped phase are counted on the shared client (bench/lib/request-counter.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoIds } from '../local/demo-tenant';
import { percentile } from './lib/stats';

export interface WrapperLatencyOptions {
  /** Measured requests per phase (direct, then wrapped). Default 2,000. */
  requests?: number;
  /** Concurrent clients. Default 20. */
  concurrency?: number;
  /** Unmeasured requests per phase first (connection pools, JIT, caches). Default 100. */
  warmup?: number;
  /** No request starts later than this after its phase began. Default 60 s. */
  maxDurationMs?: number;
  /** `business-profile` (GET .../business-profile) or `phone-number` (GET /phone-numbers/{id}). */
  route?: 'business-profile' | 'phone-number';
  /** Tenancy read cache off (times to live of 1 ms): the figures before the caches. */
  cachesOff?: boolean;
}

export interface LatencySummary {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  mean: number;
  throughputPerSecond: number;
}

export interface WrapperLatencyResult {
  route: string;
  concurrency: number;
  direct: LatencySummary;
  wrapper: LatencySummary;
  /** Wrapper minus direct, at the same percentile. */
  addedMs: { p50: number; p99: number };
  /** True when a phase stopped at maxDurationMs before its requests were done. */
  truncated: boolean;
  cachesOff: boolean;
  /** DynamoDB requests per measured wrapped request, by operation and key prefix. */
  dynamoDbCallsPerRequest: number;
  dynamoDbCallsByOperation: Record<string, number>;
  /**
   * The one DynamoDB write every wrapped request still makes, timed alone in the same runtime:
   * `rateLimiter.consume` of a bucket of its own at the wrapper's 600/min, sequentially.
   */
  rateLimitUpdate: { p50: number; p99: number };
}

interface Phase {
  url: string;
  headers: (client: number) => Record<string, string>;
}

async function runPhase(
  phase: Phase,
  requests: number,
  concurrency: number,
  deadline: number,
): Promise<{ samples: number[]; errors: number; elapsedMs: number; truncated: boolean }> {
  const samples: number[] = [];
  let errors = 0;
  let issued = 0;
  let truncated = false;
  const started = performance.now();
  const client = async (index: number) => {
    while (issued < requests) {
      if (Date.now() > deadline) {
        truncated = true;
        return;
      }
      issued += 1;
      const begin = performance.now();
      try {
        const response = await fetch(phase.url, { headers: phase.headers(index) });
        await response.arrayBuffer();
        if (response.status === 200) samples.push(performance.now() - begin);
        else errors += 1;
      } catch {
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, index) => client(index)));
  return { samples, errors, elapsedMs: performance.now() - started, truncated };
}

const summarize = (run: { samples: number[]; errors: number; elapsedMs: number }): LatencySummary => ({
  requests: run.samples.length,
  errors: run.errors,
  p50: percentile(run.samples, 50),
  p99: percentile(run.samples, 99),
  mean: run.samples.reduce((sum, value) => sum + value, 0) / Math.max(1, run.samples.length),
  throughputPerSecond: (run.samples.length / run.elapsedMs) * 1000,
});

export async function runWrapperLatencyBench(options: WrapperLatencyOptions = {}): Promise<WrapperLatencyResult> {
  const requests = options.requests ?? 2_000;
  const concurrency = options.concurrency ?? 20;
  const warmup = options.warmup ?? 100;
  const maxDurationMs = options.maxDurationMs ?? 60_000;
  const route = options.route ?? 'business-profile';
  const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-wrapper-'));
  // The handlers' request logs would measure stdout; the logger reads its level when first loaded.
  process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
  const { startLocalRuntime } = await import('../local/local-runtime');
  const { getServices } = await import('../functions/composition');
  const { RequestCounter } = await import('./lib/request-counter');
  const environment = options.cachesOff ? { TENANCY_CACHE_CREDENTIAL_TTL_MS: '1', TENANCY_CACHE_RECORD_TTL_MS: '1' } : undefined;
  const runtime = await startLocalRuntime({
    port: 0,
    dataDirectory,
    persist: false,
    startWorkers: false,
    sandbox: { throughputPerSecond: 100_000 },
    environment,
  });
  try {
    const demo = runtime.demo!;
    const phoneNumberId = demo.phoneNumberIds[0]!;
    // One access token per client (each a separate back end, each with its own 600/min).
    const tokens: string[] = [];
    for (let index = 0; index < concurrency; index += 1) {
      tokens.push((await getServices().tenancy.admin.issueCredential({ organizationId: demo.organizationId, kind: 'upstream-access-token' })).secret);
    }
    const graphPath = route === 'business-profile' ? `/${phoneNumberId}/whatsapp_business_profile` : `/${phoneNumberId}`;
    const wrapperPath = route === 'business-profile' ? `/phone-numbers/${phoneNumberId}/business-profile` : `/phone-numbers/${phoneNumberId}`;
    const direct: Phase = {
      url: `${runtime.sandboxUrl}/v25.0${graphPath}`,
      // The seeded account's upstream token (local/demo-tenant.ts), as the wrapper itself sends it.
      headers: () => ({ Authorization: `Bearer ${demoIds.upstreamToken}` }),
    };
    const wrapped: Phase = {
      url: `${runtime.baseUrl}/staging/api/v2/upstream${wrapperPath}`,
      headers: (client) => ({ Authorization: `Bearer ${tokens[client]}` }),
    };
    const perClientLimit = 600;
    if ((requests + warmup) / concurrency + 2 > perClientLimit) {
      throw new Error(`at most ${(perClientLimit - 2) * concurrency - warmup} wrapped requests fit in a minute with ${concurrency} clients`);
    }

    await runPhase(direct, warmup, concurrency, Date.now() + maxDurationMs);
    const directRun = await runPhase(direct, requests, concurrency, Date.now() + maxDurationMs);
    await runPhase(wrapped, warmup, concurrency, Date.now() + maxDurationMs);
    // DynamoDB calls of warm requests, counted on a short run of their own (the counter's middleware
    // costs CPU, so it stays off during the measured phase). The handlers' DynamoDB client is the
    // process's pooled one (functions/composition/composition-context.ts).
    const counter = new RequestCounter();
    const dynamoDb = getServices().clients.dynamoDbBase;
    counter.attachDynamoDb(dynamoDb);
    const counted = await runPhase(wrapped, concurrency * 2, concurrency, Date.now() + maxDurationMs);
    for (const name of ['benchRequestCapacity', 'benchCountDynamoDb']) dynamoDb.middlewareStack.remove(name);
    const counts = counter.snapshot().dynamodb;
    const answered = Math.max(1, counted.samples.length + counted.errors);
    const dynamoDbCallsByOperation = Object.fromEntries(Object.entries(counts).map(([label, count]) => [label, count.calls / answered]));
    const wrapperRun = await runPhase(wrapped, requests, concurrency, Date.now() + maxDurationMs);
    const rateLimiter = getServices().http.rateLimiter;
    const updates: number[] = [];
    for (let index = 0; index < Math.min(requests, 300); index += 1) {
      const begin = performance.now();
      await rateLimiter.consume(`bench#wrapper-rate-limit#${index % 10}`, 600, new Date());
      updates.push(performance.now() - begin);
    }
    const directSummary = summarize(directRun);
    const wrapperSummary = summarize(wrapperRun);
    return {
      route: `GET /upstream${wrapperPath.replace(phoneNumberId, '{phoneNumberId}')} vs GET /v25.0${graphPath.replace(phoneNumberId, '{phoneNumberId}')}`,
      concurrency,
      direct: directSummary,
      wrapper: wrapperSummary,
      addedMs: { p50: wrapperSummary.p50 - directSummary.p50, p99: wrapperSummary.p99 - directSummary.p99 },
      truncated: directRun.truncated || wrapperRun.truncated,
      cachesOff: options.cachesOff === true,
      dynamoDbCallsPerRequest: Object.values(dynamoDbCallsByOperation).reduce((sum, value) => sum + value, 0),
      dynamoDbCallsByOperation,
      rateLimitUpdate: { p50: percentile(updates, 50), p99: percentile(updates, 99) },
    };
  } finally {
    await runtime.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

const fixed = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : 'n/a');

/** One line per phase plus the difference, for a console report. */
export function describeWrapperLatency(result: WrapperLatencyResult): string {
  const line = (name: string, summary: LatencySummary) =>
    `${name.padEnd(8)} n=${summary.requests} errors=${summary.errors} p50=${fixed(summary.p50)} ms p99=${fixed(summary.p99)} ms mean=${fixed(summary.mean)} ms ${Math.round(summary.throughputPerSecond)} req/s`;
  return [
    `wrapper latency, ${result.route}, ${result.concurrency} concurrent client(s), tenancy caches ${result.cachesOff ? 'OFF (before)' : 'on'}${result.truncated ? ' (stopped at the time bound)' : ''}`,
    line('direct', result.direct),
    line('wrapper', result.wrapper),
    `added    p50=${fixed(result.addedMs.p50)} ms p99=${fixed(result.addedMs.p99)} ms; wrapped/direct p50 ${fixed(result.wrapper.p50 / result.direct.p50)}x`,
    `dynamodb ${result.dynamoDbCallsPerRequest.toFixed(2)} calls per wrapped request: ${Object.entries(result.dynamoDbCallsByOperation)
      .map(([label, calls]) => `${label} ${calls.toFixed(2)}`)
      .join(', ')}`,
    `rate-limit update alone (sequential): p50=${fixed(result.rateLimitUpdate.p50)} ms p99=${fixed(result.rateLimitUpdate.p99)} ms`,
  ].join('\n');
}

if (require.main === module) {
  const [requests, concurrency] = process.argv.slice(2).map(Number);
  runWrapperLatencyBench({ requests: requests || undefined, concurrency: concurrency || undefined, cachesOff: process.argv[4] === 'caches-off' })
    .then((result) => {
      console.log(describeWrapperLatency(result));
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
