/**
 * Customer webhooks' fairness (issue 23 item 5, docs/CUSTOMER-WEBHOOKS.md "Fairness"): the delay of
 * organization B's events to its healthy receiver while organization A's 10 endpoints never answer
 * and A redelivers 1,000 events every 2 s (the routes' highest rate). The same scenario as the
 * fairness test (test/support/customer-webhook-fairness-scenario.ts), on the local runtime as
 * `npm start` runs it (demo tenant, the dispatcher's local SQS event source), then a reference run
 * of B alone on a fresh runtime. Loopback only; bounded (about 35 s per run).
 * Alone: `npx tsx bench/customer-webhook-fairness.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { percentile } from './lib/stats';

export interface FairnessRun {
  published: number;
  delivered: number;
  delayMs: { p50: number; p99: number; max: number };
  redeliveriesGranted: number;
  eventsRedelivered: number;
  redeliveriesRefused: Record<string, number>;
  deadEndpointCalls: number;
}

export interface FairnessBenchResult {
  withDeadOrganization: FairnessRun;
  alone: FairnessRun;
}

async function run(flood: boolean): Promise<FairnessRun> {
  const { startLocalRuntime } = await import('../local/local-runtime');
  const { runFairnessScenario } = await import('../test/support/customer-webhook-fairness-scenario');
  const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-fairness-'));
  const runtime = await startLocalRuntime({ port: 0, dataDirectory, persist: false, sandbox: { throughputPerSecond: 1000 } });
  try {
    const result = await runFairnessScenario({
      runtime,
      flood,
      call: async (method, path, options) => {
        const response = await fetch(`${runtime.baseUrl}${path}`, {
          method,
          headers: { 'content-type': 'application/json', ...options.headers },
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
        });
        return { status: response.status, body: await response.json().catch(() => undefined) };
      },
    });
    const refused: Record<string, number> = {};
    for (const answer of result.redeliveries.filter((candidate) => candidate.status !== 202)) {
      const key = `${answer.status} ${answer.code ?? ''}`.trim();
      refused[key] = (refused[key] ?? 0) + 1;
    }
    const granted = result.redeliveries.filter((answer) => answer.status === 202);
    // An event that never arrived counts as infinitely late.
    const delays = [...result.delaysMs, ...Array.from({ length: result.published - result.delivered }, () => Number.POSITIVE_INFINITY)];
    return {
      published: result.published,
      delivered: result.delivered,
      delayMs: { p50: percentile(delays, 50), p99: percentile(delays, 99), max: Math.max(...delays) },
      redeliveriesGranted: granted.length,
      eventsRedelivered: granted.reduce((sum, answer) => sum + (answer.queued ?? 0), 0),
      redeliveriesRefused: refused,
      deadEndpointCalls: result.deadEndpointCalls,
    };
  } finally {
    await runtime.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

export async function benchCustomerWebhookFairness(): Promise<FairnessBenchResult> {
  const withDeadOrganization = await run(true);
  const alone = await run(false);
  return { withDeadOrganization, alone };
}

if (require.main === module) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  void benchCustomerWebhookFairness().then((result) => {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  });
}
