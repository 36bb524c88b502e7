/**
 * Runs the scale simulation (scale-world.ts with scale-load.ts's arrivals) and measures its
 * figures (scale-figures.ts). Deterministic: the same settings and seed give the same figures.
 * What is the real code and what is modelled: SIMULATION_PARTS below (the bench prints it).
 */
import { performance } from 'node:perf_hooks';
import { exactlyOnce } from './exactly-once';
import { quantile, type AccountRate, type ScaleFigures } from './scale-figures';
import { ScaleLoadGenerator } from './scale-load';
import type { ScaleSettings } from './scale-settings';
import { ScaleWorld } from './scale-world';

/**
 * Which parts of the simulated platform are the real code (on the in-memory port fakes, under
 * virtual time) and which are models (constants in test/support/scale/).
 */
export const SIMULATION_PARTS = {
  real: [
    "the chunk worker (handleChunkRecord, processOutboundChunk: job control, the account's turn, the pacer, lanes, claims, outcomes, settle) for the chunk queue and the single-message queue (batches of 10, records concurrently)",
    'the chunk messages (job-fan-out templateChunkOf)',
    'which queue a job takes (shared/broadcast/outbound-lanes.ts laneOfJob)',
    'the campaign launch (launchCampaign) and the campaign expander (handleExpansionRecord, expandCampaign: audiences read page by page, person claims, the messaging limit, chunks appended and queued, checkpoints, the 40 s budget and re-queue, the close) on the in-memory campaign, audience, claim and reach stores',
    "the delivery-events consumer's use case (applyWebhookBatches: Meta's POSTs parsed, owner and tenant checks, facts applied, message.status events published) on an in-memory ledger delivery store over the worker's ledger",
    'the customer-events dispatcher (dispatchCustomerEvents: per-endpoint and per-organization fairness, breaker, retries, re-queues) on the in-memory health store',
  ],
  modelled: [
    'the broadcast accept path (60 ms, then the job and its messages); the launch request before its store calls (60 ms)',
    "the delivery-events Lambda's CPU (1.3 ms per status) and the ledger delivery store's DynamoDB calls (a read, then a write per 50-recipient tally item)",
    "the customer-event publisher and the customers' endpoints",
    "scaled: the campaigns' members (20,000 each by default, --scale-campaign-members; the scenario's 1,000,000)",
    'SQS, the Lambda event source, Meta and its webhooks, DynamoDB round trips and per-partition throughput',
  ],
} as const;

/** Per-account rates are measured after this warm-up (accounts start within the first 5 s). */
const RATE_WARM_UP_MS = 10_000;
/** Single messages accepted this close to the end are not counted (a drained run has none). */
const SINGLE_GRACE_MS = 5_000;

/**
 * Runs the scenario: arrivals for `arrivalSeconds`, then up to `drainSeconds` more until the queues are empty.
 *
 * @example
 * const figures = await runScaleSimulation(reducedScaleSettings(7));
 * figures.exactlyOnce.duplicates; // 0
 */
export async function runScaleSimulation(settings: ScaleSettings, progress?: (line: string) => void): Promise<ScaleFigures> {
  const started = performance.now();
  const cpuAtStart = process.cpuUsage();
  const world = new ScaleWorld(settings);
  const load = new ScaleLoadGenerator(world);
  const startMs = world.time.nowMs();
  const arrivalsEndMs = startMs + settings.load.arrivalSeconds * 1000;
  world.meta.window = { fromMs: startMs + RATE_WARM_UP_MS, toMs: arrivalsEndMs };
  load.start();
  // In steps of 10 virtual seconds, so a long run says how far it is.
  while (world.time.nowMs() < arrivalsEndMs) {
    await world.time.runUntil(Math.min(arrivalsEndMs, world.time.nowMs() + 10_000));
    progress?.(
      `${Math.round((world.time.nowMs() - startMs) / 1000)} s virtual after ${Math.round((performance.now() - started) / 1000)} s; Meta took ${world.meta.taken.size}`,
    );
  }
  const drained = await drain(world, load, arrivalsEndMs + settings.load.drainSeconds * 1000);
  return figuresOf(world, load, {
    startMs,
    arrivalsEndMs,
    drained,
    wallSeconds: (performance.now() - started) / 1000,
    cpuSeconds: cpuSecondsSince(cpuAtStart),
  });
}

/** This process's CPU time (user + system) since `start`: the cost of a run whatever else the machine is doing. */
function cpuSecondsSince(start: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1e6;
}

/** Runs on in steps of a minute until nothing is queued or running, or until `untilMs`. */
async function drain(world: ScaleWorld, load: ScaleLoadGenerator, untilMs: number): Promise<boolean> {
  // The customer-events queue is left out: the failing organization's deliveries are retried for 24 hours.
  const queues = [world.outbound, world.lane, world.metaEvents, world.expansions].filter((queue) => queue !== undefined);
  const functions = world.functions.filter((fn) => fn.settings.name !== world.settings.platform.customerEvents.name);
  const idle = () => queues.every((queue) => queue.visibleCount === 0 && queue.inFlightCount === 0) && functions.every((fn) => fn.running === 0);
  while (world.time.nowMs() < untilMs) {
    if (idle()) return true;
    await world.time.runUntil(Math.min(untilMs, world.time.nowMs() + 60_000));
  }
  return untilMs > world.time.startMs + world.settings.load.arrivalSeconds * 1000 && idle();
}

function figuresOf(
  world: ScaleWorld,
  load: ScaleLoadGenerator,
  run: { startMs: number; arrivalsEndMs: number; drained: boolean; wallSeconds: number; cpuSeconds: number },
): ScaleFigures {
  const { settings } = world;
  const virtualSeconds = (world.time.nowMs() - run.startMs) / 1000;
  const deadLettered = world.outbound.deadLetters.length + (world.lane?.deadLetters.length ?? 0);
  const lambda = world.functions.map((fn) => ({
    name: fn.settings.name,
    peak: fn.peakRunning,
    max: fn.settings.maxConcurrency,
    invocations: fn.invocations,
    coldStarts: fn.coldStarts,
    overruns: fn.overruns,
  }));
  const queues = (
    [
      ['outbound-messages', world.outbound],
      ['single-lane', world.lane],
      ['meta-events', world.metaEvents],
      ['customer-events', world.customerEventQueue],
      ['campaign-expansion', world.expansions],
    ] as const
  ).flatMap(([name, queue]) =>
    queue
      ? [
          {
            name,
            sent: queue.sent,
            redelivered: queue.redelivered,
            deadLettered: queue.deadLetters.length,
            backlogAtEnd: queue.visibleCount + queue.inFlightCount,
          },
        ]
      : [],
  );
  const numbers = [...world.meta.numbers.values()];
  return {
    seed: settings.load.seed,
    virtualSeconds,
    wallSeconds: run.wallSeconds,
    cpuSeconds: run.cpuSeconds,
    events: world.time.fired,
    accountRates: accountRates(world, (run.arrivalsEndMs - run.startMs - RATE_WARM_UP_MS) / 1000),
    singles: singleLatencies(world, load),
    hottestKeys: world.dynamo.hottest(5, virtualSeconds),
    throttledWrites: world.dynamo.throttles,
    lambda,
    lambdaPeakSum: lambda.reduce((sum, fn) => sum + fn.peak, 0),
    accountConcurrencyQuota: settings.platform.accountConcurrencyQuota,
    queues,
    meta: {
      taken: numbers.reduce((sum, record) => sum + record.taken, 0),
      refused130429: numbers.reduce((sum, record) => sum + record.refused, 0),
      webhookPosts: world.webhooks.posts,
      statuses: world.webhooks.statuses,
      statusesApplied: world.webhooks.applied,
    },
    expander: expanderFigures(world),
    customerEvents: customerEventFigures(world),
    exactlyOnce: exactlyOnce(world.store.ledger, world.meta, load.record, deadLettered, run.drained),
  };
}

/** The expander's failures: counted, and the first named, so a run that lost a campaign's members says so. */
function expanderFigures(world: ScaleWorld): ScaleFigures['expander'] {
  const [first] = world.campaigns.failures;
  if (first === undefined) return { failures: 0 };
  return { failures: world.campaigns.failures.length, firstFailure: first instanceof Error ? `${first.name}: ${first.message}` : String(first) };
}

/** The other organizations' event delivery (publish to their endpoint) while one organization's endpoints fail. */
function customerEventFigures(world: ScaleWorld): ScaleFigures['customerEvents'] {
  const figures = world.customerEvents.finish();
  const latencies = (delays: readonly number[]) => ({
    delivered: delays.length,
    p50Ms: quantile(delays, 0.5),
    p99Ms: quantile(delays, 0.99),
    maxMs: quantile(delays, 1),
  });
  return {
    published: figures.published,
    othersDelivered: figures.othersDelivered,
    othersPending: figures.othersPending,
    quiet: latencies(figures.quietDelaysMs),
    busy: latencies(figures.busyDelaysMs),
    failingCalls: figures.failingCalls,
    failingDeadLettered: figures.failingDeadLettered,
    requeued: figures.deferred,
  };
}

/** The draining and campaign accounts' sends over the window against their tier. */
function accountRates(world: ScaleWorld, windowSeconds: number): ScaleFigures['accountRates'] {
  const { drainingAccounts, campaigns } = world.settings.load;
  const rates: AccountRate[] = world.accounts.slice(0, drainingAccounts + campaigns).map((account) => {
    const sentPerSecond = (world.meta.numbers.get(account.phoneNumberId)?.inWindow ?? 0) / Math.max(1, windowSeconds);
    return { account: account.organizationId, tierPerSecond: account.messagesPerSecond, sentPerSecond, ofTier: sentPerSecond / account.messagesPerSecond };
  });
  const shares = rates.map((rate) => rate.ofTier);
  return {
    accounts: rates.length,
    atGoal: shares.filter((share) => share >= 0.95).length,
    min: shares.length ? Math.min(...shares) : 0,
    median: quantile(shares, 0.5),
    worst: [...rates].sort((a, b) => a.ofTier - b.ofTier || (a.account < b.account ? -1 : 1)).slice(0, 3),
  };
}

/** Accept to Meta per single message; one that never reached Meta counts as Infinity. */
function singleLatencies(world: ScaleWorld, load: ScaleLoadGenerator): ScaleFigures['singles'] {
  const latencies: number[] = [];
  // Singles accepted in the run's last seconds had no time to reach Meta: left out, unless the run drained.
  const lastCountedMs = world.time.nowMs() - SINGLE_GRACE_MS;
  for (const [callbackData, acceptedAt] of load.record.singleAcceptedAt) {
    if (acceptedAt > lastCountedMs) continue;
    const arrivedAt = world.meta.arrivedAt.get(callbackData);
    latencies.push(arrivedAt === undefined ? Number.POSITIVE_INFINITY : arrivedAt - acceptedAt);
  }
  return {
    accepted: latencies.length,
    reached: latencies.filter(Number.isFinite).length,
    p50Ms: quantile(latencies, 0.5),
    p99Ms: quantile(latencies, 0.99),
    maxMs: quantile(latencies, 1),
  };
}
