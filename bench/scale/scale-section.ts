/**
 * `npm run bench -- --only=scale`: the deterministic scale simulation (test/support/scale/) at the
 * size of issue 40's scenario, printed as tables with each goal beside its figure.
 *
 *   --scale-seconds=N     virtual seconds of load (default 120; the scenario's 7,200 takes far longer than 5 minutes here)
 *   --scale-seed=N        the seed (default 40): the same seed gives the same figures
 *   --scale-variant=lanes the platform of issue 40 items 1-3 as parameters (default: today)
 *   --scale-organizations=N, --scale-accounts=N, --scale-campaigns=N, --scale-singles=N   a smaller load
 *   --scale-campaign-members=N   members per campaign (default 20,000, scaled from the scenario's 1,000,000: see scale-settings.ts)
 *
 * Real code, on the in-memory port fakes under virtual time (Clock and the SendingPorts sleep):
 * the chunk worker's record handler (decode, processOutboundChunk, early redelivery, abandon on
 * the last delivery) with job control, the account's turn, the pacer's slots and holds, the lanes,
 * claim groups, outcome flushes, settle and reconcile, for the chunk queue and the single-message
 * queue; the chunk messages' content (templateChunkOf); the campaign launch and expander (its
 * record handler, behind the queue and event-source models at the expander's ceiling); the
 * delivery-events use case; the customer-events dispatcher with its fairness, fed by the statuses of
 * subscribing organizations while one organization's endpoints never answer; the lane rule
 * (laneOfJob). Modelled: the broadcast accept path, the
 * delivery-events Lambda's CPU, the customer-event publisher and endpoints, SQS, the Lambda event
 * source, Meta and its webhooks, DynamoDB's round trips and per-partition limit (SIMULATION_PARTS,
 * printed with the figures). Scaled: campaigns' members. Not modelled: inbound messages, the
 * /upstream path, statuses spread over time.
 * Time is scaled (default 120 s of the scenario's 2 hours) at the full load rate: the CPU cost is
 * ~0.3-0.5 ms per message sent, so 2 hours of the full load do not fit in 5 minutes; the section
 * prints how much virtual time a CPU second bought and what that makes of 5 minutes.
 */
import { renderTable } from '../lib/table';
import { ms, pct, round } from '../lib/stats';
import { FULL_CAMPAIGN_MEMBERS, fullScaleSettings, type ScaleSettings } from '../../test/support/scale/scale-settings';
import type { ScaleFigures } from '../../test/support/scale/scale-figures';
import { runScaleSimulation, SIMULATION_PARTS } from '../../test/support/scale/scale-simulation';
import { withVariant, type ScaleVariant } from '../../test/support/scale/scale-variants';

export interface ScaleSectionOptions {
  seconds?: number;
  seed?: number;
  variant?: ScaleVariant;
  organizations?: number;
  accounts?: number;
  campaigns?: number;
  campaignMembers?: number;
  singlesPerSecond?: number;
  log: (line: string) => void;
}

export type Goal = { figure: string; value: string; goal: string; met: string };

/** The scenario's settings from the command line's options. */
export function scaleSettingsOf(options: Omit<ScaleSectionOptions, 'log'>): ScaleSettings {
  const full = fullScaleSettings(options.seed ?? 40);
  const load = {
    ...full.load,
    arrivalSeconds: options.seconds ?? 120,
    ...(options.organizations ? { organizations: options.organizations } : {}),
    ...(options.accounts ? { drainingAccounts: options.accounts } : {}),
    ...(options.campaigns !== undefined ? { campaigns: options.campaigns } : {}),
    ...(options.campaignMembers ? { campaignMembers: options.campaignMembers } : {}),
    ...(options.singlesPerSecond ? { singlesPerSecond: options.singlesPerSecond } : {}),
  };
  return withVariant({ ...full, load }, options.variant ?? 'today');
}

/**
 * Runs the simulation and prints its figures; returns them with the goals (met or not).
 *
 * @example
 * const { figures, goals } = await benchScale({ seconds: 60, log: console.log });
 */
export async function benchScale(options: ScaleSectionOptions): Promise<{ figures: ScaleFigures; goals: Goal[] }> {
  const settings = scaleSettingsOf(options);
  const { load } = settings;
  options.log(
    `${load.organizations} organizations, ${load.drainingAccounts} accounts draining ${load.broadcastRecipients}-recipient broadcasts at ${load.accountRate}/s, ${load.campaigns} campaigns of ${load.campaignMembers} members (scaled: the scenario's have ${FULL_CAMPAIGN_MEMBERS}), ${load.singlesPerSecond} single messages/s, ${load.faultedOrganizations} organization with lost Meta answers; ${load.arrivalSeconds} s of virtual time (of the scenario's 7,200: time scaled, load at full rate); variant ${options.variant ?? 'today'}, seed ${load.seed}`,
  );
  options.log(`Real code: ${SIMULATION_PARTS.real.join('; ')}. Modelled: ${SIMULATION_PARTS.modelled.join('; ')}.`);
  const figures = await runScaleSimulation(settings, options.log);
  printFigures(figures, options.log);
  return { figures, goals: goalsOf(figures) };
}

function printFigures(figures: ScaleFigures, log: (line: string) => void): void {
  log(
    `${round(figures.virtualSeconds, 0)} s of virtual time in ${round(figures.wallSeconds, 1)} s on this machine, ${round(figures.cpuSeconds, 1)} s of CPU (${figures.events} timer events)`,
  );
  const perCpuSecond = figures.virtualSeconds / Math.max(0.001, figures.cpuSeconds);
  log(
    `At the full load a CPU second buys ${round(perCpuSecond, 2)} s of virtual time: 5 minutes of one core reach ~${round(300 * perCpuSecond, 0)} s of the scenario's 7,200 (this run's wall/CPU ratio, ${round(figures.wallSeconds / Math.max(0.001, figures.cpuSeconds), 2)}, says how loaded the machine was)`,
  );
  const rates = figures.accountRates;
  log(
    `Per-account send rate against its tier (after a 10 s warm-up): ${rates.atGoal} of ${rates.accounts} accounts at >= 95 %; median ${pct(rates.median)}, lowest ${pct(rates.min)}`,
  );
  log(
    renderTable(
      ['account', 'tier /s', 'sent /s', 'of tier'],
      rates.worst.map((rate) => [rate.account, rate.tierPerSecond, round(rate.sentPerSecond, 1), pct(rate.ofTier)]),
    ),
  );
  const singles = figures.singles;
  log(
    `Single messages, accept to Meta: ${singles.accepted} accepted, ${singles.reached} reached Meta; p50 ${latency(singles.p50Ms)}, p99 ${latency(singles.p99Ms)}, max ${latency(singles.maxMs)}`,
  );
  log(`Hottest partition keys (${figures.throttledWrites} throttled writes retried):`);
  log(
    renderTable(
      ['partition key', 'peak WCU/s', 'mean WCU/s'],
      figures.hottestKeys.map((key) => [key.key, key.peakWcuPerSecond, round(key.meanWcuPerSecond, 1)]),
    ),
  );
  log(`Lambda concurrency (peak sum ${figures.lambdaPeakSum} of the account's ${figures.accountConcurrencyQuota}):`);
  log(
    renderTable(
      ['function', 'peak', 'ceiling', 'invocations', 'cold starts', 'overruns'],
      figures.lambda.map((fn) => [fn.name, fn.peak, fn.max, fn.invocations, fn.coldStarts, fn.overruns]),
    ),
  );
  log(
    renderTable(
      ['queue', 'sent', 'redelivered', 'dead-lettered', 'backlog at end'],
      figures.queues.map((queue) => [queue.name, queue.sent, queue.redelivered, queue.deadLettered, queue.backlogAtEnd]),
    ),
  );
  const meta = figures.meta;
  log(
    `Meta took ${meta.taken} messages, refused ${meta.refused130429} with 130429; ${meta.statuses} statuses in ${meta.webhookPosts} POSTs, ${meta.statusesApplied} applied`,
  );
  const { expander } = figures;
  log(`Campaign expander (the real code): ${expander.failures} invocations failed${expander.firstFailure ? `, the first: ${expander.firstFailure}` : ''}`);
  const events = figures.customerEvents;
  log(
    `Customer events (the real dispatcher) while one organization's endpoints never answer: ${events.published} published, other organizations' ${events.othersDelivered} delivered (${events.othersPending} not by the end); publish to endpoint, quiet organizations p50 ${latency(events.quiet.p50Ms)} p99 ${latency(events.quiet.p99Ms)} (${events.quiet.delivered}), busy ones (~240 events/s to one endpoint) p50 ${latency(events.busy.p50Ms)} p99 ${latency(events.busy.p99Ms)} (${events.busy.delivered}); the failing organization: ${events.failingCalls} calls (each its whole timeout), ${events.failingDeadLettered} given up; ${events.requeued} deliveries re-queued`,
  );
  const once = figures.exactlyOnce;
  log(
    `Exactly once: ${once.recipients} recipients, ${once.settled} settled, ${once.pending} still queued or sending at the end; ${once.duplicates} duplicates, ${once.lost} lost, ${once.unknown} unknown (${once.unknownWithoutFault} without an injected fault${once.unknownWithoutFault > 0 ? `: ${JSON.stringify(once.unknownWithoutFaultReasons)}` : ''}; ${once.faultsInjected} faults injected), ${once.deadLettered} dead-lettered`,
  );
}

const latency = (value: number): string => (Number.isFinite(value) ? ms(value) : 'never (still queued at the end)');

function goalsOf(figures: ScaleFigures): Goal[] {
  const { accountRates, singles, exactlyOnce: once } = figures;
  const hottest = figures.hottestKeys[0];
  const overCeiling = figures.lambda.filter((fn) => fn.peak >= fn.max).map((fn) => fn.name);
  return [
    {
      figure: 'scale: draining accounts at >= 95 % of their tier',
      value: `${accountRates.atGoal} of ${accountRates.accounts} (lowest ${pct(accountRates.min)})`,
      goal: 'every account',
      met: accountRates.atGoal === accountRates.accounts ? 'yes' : 'no',
    },
    {
      figure: 'scale: single message accept to Meta p50 / p99',
      value: `${latency(singles.p50Ms)} / ${latency(singles.p99Ms)}`,
      goal: 'p99 <= 2 s',
      met: singles.p99Ms <= 2000 ? 'yes' : 'no',
    },
    {
      figure: 'scale: hottest partition key',
      value: hottest ? `${hottest.key} ${hottest.peakWcuPerSecond} WCU/s` : 'none',
      goal: '< 1,000 WCU/s',
      met: !hottest || hottest.peakWcuPerSecond < 1000 ? 'yes' : 'no',
    },
    {
      figure: 'scale: Lambda concurrency (peak sum / quota)',
      value: `${figures.lambdaPeakSum} / ${figures.accountConcurrencyQuota}; at their ceiling: ${overCeiling.join(', ') || 'none'}`,
      goal: 'within quota, no function held at its ceiling',
      met: figures.lambdaPeakSum <= figures.accountConcurrencyQuota && overCeiling.length === 0 ? 'yes' : 'no',
    },
    {
      figure: "scale: other organizations' customer events while one organization's endpoints fail (quiet / busy p99)",
      value: `${latency(figures.customerEvents.quiet.p99Ms)} / ${latency(figures.customerEvents.busy.p99Ms)}`,
      goal: 'quiet p99 <= 5 s (the fairness test of docs/CUSTOMER-WEBHOOKS.md)',
      met: figures.customerEvents.quiet.p99Ms <= 5000 ? 'yes' : 'no',
    },
    {
      figure: 'scale: exactly once (duplicates, lost, unknown without a fault)',
      value: `${once.duplicates}, ${once.lost}, ${once.unknownWithoutFault}`,
      goal: '0, 0, 0',
      met: once.duplicates + once.lost + once.unknownWithoutFault === 0 ? 'yes' : 'no',
    },
  ];
}
