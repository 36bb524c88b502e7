/**
 * Drain at Meta's latency (`npm run bench -- --only=latency`): the drain scenarios of drain.ts with
 * the sandbox answering like Meta (log-normal, p50 200 ms, p99 1.5 s; 0.5 % of accepted sends never
 * answered, so the worker's 15 s upstream timeout records an unknown outcome). What decides the
 * rate here is whether enough sends are in flight per account: the chunk worker sizes its lanes by
 * Little's law from the account's rate and the send latency it observes
 * (shared/sending/in-flight-budget.ts).
 *
 * Goals per scenario: >= 95 % of the configured rate, 0 duplicates, 0 lost, unknown outcomes only
 * where timeouts were injected (ledger UNKNOWN = messages the sandbox accepted and never answered);
 * four accounts at once: aggregate >= 3.8x one account.
 */
import type { SandboxControlPatch } from '../sandbox/cloud-api-sandbox';
import { benchDrain, type DrainScenario, type ScenarioResult } from './drain';

export const META_LATENCY: SandboxControlPatch = {
  latency: { distribution: 'lognormal', p50Ms: 200, p99Ms: 1500, timeoutRate: 0.005, seed: 1 },
};

export interface LatencyBenchOptions {
  /** Recipients per account (default 10,000; `--latency-recipients=` for short runs; more than 1,000 so the accept answers 202 with the job id). */
  recipients: number;
  /** Also run 4 accounts at 1,000/s (a diagnostic: locally one Node thread carries ~600 msg/s). */
  withFourFast: boolean;
  budgetSeconds: number;
  log: (line: string) => void;
}

export interface GoalRow {
  figure: string;
  value: string;
  goal: string;
  met: string;
}

const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
const sum = <T>(items: T[], of: (item: T) => number) => items.reduce((total, item) => total + of(item), 0);

export async function benchDrainLatency(options: LatencyBenchOptions): Promise<{ results: ScenarioResult[]; goals: GoalRow[] }> {
  const count = options.recipients.toLocaleString('en-US');
  const scenario = (accounts: number, ratePerSecond: number): DrainScenario => ({
    label: `${accounts} account${accounts > 1 ? 's' : ''} @ ${ratePerSecond}/s, ${count} recipients${accounts > 1 ? ' each' : ''}, Meta latency`,
    accounts,
    ratePerSecond,
    recipientsPerAccount: options.recipients,
    sandboxControl: META_LATENCY,
    // A continuation is queued only once the invocation's last sends have returned, and a lost
    // answer takes the whole 15 s upstream timeout: 15 s without a new message is not a stall here.
    stallMs: 45_000,
  });
  const scenarios = [scenario(1, 80), scenario(1, 1000), scenario(4, 80), ...(options.withFourFast ? [scenario(4, 1000)] : [])];
  const results = await benchDrain({ scenarios, runsPerScenario: 1, budgetSeconds: options.budgetSeconds, log: options.log });

  const goals: GoalRow[] = [];
  for (const result of results) {
    const runs = result.runs;
    const accounts = runs.flatMap((run) => run.accounts);
    const unknown = sum(accounts, (account) => account.ledger.unknown);
    const injected = sum(accounts, (account) => account.answersLost);
    const diagnostic = result.scenario.accounts === 4 && result.scenario.ratePerSecond === 1000;
    goals.push({
      figure: `latency: drain ${result.scenario.label}`,
      value: `${pct(result.medianFraction)} (accounts ${result.medianAccountFractions.map(pct).join(', ')})`,
      goal: diagnostic ? '(diagnostic)' : '>= 95% of configured',
      met: diagnostic ? '-' : result.medianFraction >= 0.95 && result.medianAccountFractions.every((fraction) => fraction >= 0.95) ? 'yes' : 'no',
    });
    goals.push({
      figure: `latency: exactly once, ${result.scenario.label}`,
      value: `dup ${sum(runs, (run) => run.aggregate.duplicates)}, lost ${sum(runs, (run) => run.aggregate.lost)}`,
      goal: '0 duplicates, 0 lost',
      met: result.allExactlyOnce ? 'yes' : 'no',
    });
    goals.push({
      figure: `latency: unknown outcomes vs injected timeouts, ${result.scenario.label}`,
      value: `${unknown} unknown, ${injected} injected`,
      goal: 'unknown only where injected (equal)',
      met: runs.every((run) => run.completed) && unknown === injected ? 'yes' : 'no',
    });
  }
  const one = results.find((result) => result.scenario.accounts === 1 && result.scenario.ratePerSecond === 80);
  const four = results.find((result) => result.scenario.accounts === 4 && result.scenario.ratePerSecond === 80);
  if (one?.runs[0] && four?.runs[0]) {
    const ratio = four.runs[0].aggregate.achievedPerSecond / one.runs[0].aggregate.achievedPerSecond;
    goals.push({ figure: 'latency: 4 accounts @ 80/s aggregate / 1 account @ 80/s', value: `${ratio.toFixed(2)}x`, goal: '>= 3.8x', met: ratio >= 3.8 ? 'yes' : 'no' });
    // Why an aggregate falls short of the accounts' own rates: they did not start or end together.
    const accounts = four.runs[0].accounts;
    const first = Math.min(...accounts.map((account) => account.firstAt));
    const last = Math.max(...accounts.map((account) => account.lastAt));
    goals.push({
      figure: 'latency: 4 accounts, first / last message of each account after the first of all (s)',
      value: accounts.map((account) => `${((account.firstAt - first) / 1000).toFixed(1)} / ${((account.lastAt - first) / 1000).toFixed(1)}`).join(', ') + ` (span ${((last - first) / 1000).toFixed(1)} s)`,
      goal: '(diagnostic: equal spans = accounts within 5 %)',
      met: '-',
    });
  }
  return { results, goals };
}
