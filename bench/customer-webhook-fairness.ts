/**
 * Customer webhooks' fairness (issue 23 item 5, docs/CUSTOMER-WEBHOOKS.md "Fairness"): the delay of
 * organization B's events to its healthy receiver while organization A's 10 endpoints never answer
 * and A redelivers 1,000 events every 2 s (the routes' highest rate). The same scenario as the
 * fairness test (test/support/customer-webhook-fairness-scenario.ts), on the local runtime as
 * `npm start` runs it (demo tenant, the dispatcher's local SQS event source), then a reference run
 * of B alone on a fresh runtime. Loopback only; bounded (about 35 s per run).
 * Issue 35 item 5 adds the slow-success case: A's 10 endpoints answer 200 after 4.9 s and A
 * publishes 10 events every 2 s to all of them (goal: B's p99 ≤ 2 s).
 * Alone: `npx tsx bench/customer-webhook-fairness.ts [dead] [slow] [alone]` (all three by default).
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
  /** The slow case: A's events published and its endpoints' calls answered 200 within the run. */
  organizationAPublished: number;
  organizationAAnswered: number;
}

/** B's p99 goals: 5 s beside dead endpoints (issue 23), 2 s beside slow successes (issue 35). */
export const FAIRNESS_GOALS_MS = { dead: 5_000, slow: 2_000 } as const;

export type FairnessCase = 'dead' | 'slow' | 'alone';

export interface FairnessBenchResult {
  withDeadOrganization?: FairnessRun;
  withSlowOrganization?: FairnessRun;
  alone?: FairnessRun;
}

async function run(kind: FairnessCase): Promise<FairnessRun> {
  const { startLocalRuntime } = await import('../local/local-runtime');
  const { runFairnessScenario } = await import('../test/support/customer-webhook-fairness-scenario');
  const dataDirectory = mkdtempSync(join(tmpdir(), 'wbp-bench-fairness-'));
  const runtime = await startLocalRuntime({ port: 0, dataDirectory, persist: false, sandbox: { throughputPerSecond: 1000 } });
  try {
    const result = await runFairnessScenario({
      runtime,
      flood: kind !== 'alone',
      organizationA: kind === 'slow' ? 'slow' : 'dead',
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
      organizationAPublished: result.organizationAPublished,
      organizationAAnswered: result.organizationAAnswered,
    };
  } finally {
    await runtime.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
  }
}

/** The cases asked for, each on a fresh runtime, in this order: dead, slow, alone. */
export async function benchCustomerWebhookFairness(cases: readonly FairnessCase[] = ['dead', 'slow', 'alone']): Promise<FairnessBenchResult> {
  const result: FairnessBenchResult = {};
  if (cases.includes('dead')) result.withDeadOrganization = await run('dead');
  if (cases.includes('slow')) result.withSlowOrganization = await run('slow');
  if (cases.includes('alone')) result.alone = await run('alone');
  return result;
}

if (require.main === module) {
  process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
  const asked = process.argv.slice(2).filter((name): name is FairnessCase => name === 'dead' || name === 'slow' || name === 'alone');
  void benchCustomerWebhookFairness(asked.length > 0 ? asked : undefined).then((result) => {
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  });
}
