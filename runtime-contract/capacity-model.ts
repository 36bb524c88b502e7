/**
 * Every queue consumer's concurrency ceiling, derived in one place from the capacity model's inputs
 * (capacity-inputs.ts) by Little's law (invocations in flight = arrivals per second x seconds each),
 * plus headroom for the variance of arrivals. resource-definitions.ts takes its `maxConcurrency`
 * values from here, so the CDK event source mappings, the local runtime's pollers
 * (local/local-event-sources.ts, scaled by `localConcurrencyOf`) and docs/SCALE.md (written by
 * `npx tsx scripts/capacity-tables.ts --write`) all read the same figures.
 *
 * The ceilings no longer cap how many business accounts drain at once at 20: each account keeps its
 * Meta rate through the pacer however many invocations run (test/unit/sending/pacer-at-scale.test.ts).
 */
import { capacityInputs, type CapacityInputs } from './capacity-inputs';

/** The queue consumers whose event source concurrency the model sets. */
export type ModelledConsumer = 'chunkWorker' | 'singleSender' | 'deliveryEvents' | 'customerEventsDispatcher' | 'campaignExpander' | 'chunkDeadLetters';

/** The function each modelled consumer is (runtime-contract/resource-definitions.ts). */
export const functionOfConsumer: Record<ModelledConsumer, string> = {
  chunkWorker: 'chunk-worker',
  singleSender: 'single-sender',
  deliveryEvents: 'delivery-events',
  customerEventsDispatcher: 'customer-events',
  campaignExpander: 'campaign-expander',
  chunkDeadLetters: 'chunk-dead-letters',
};

/** SQS event sources take a maximum concurrency from 2 to 1,000. */
export const SQS_MAX_CONCURRENCY_RANGE = { min: 2, max: 1_000 } as const;

export interface ConsumerCapacity {
  consumer: ModelledConsumer;
  /** How the load was computed, in words (docs/SCALE.md prints it). */
  basis: string;
  /** Invocations in flight at peak (Little's law), before headroom. */
  load: number;
  /** The event source's maximum concurrency. */
  ceiling: number;
}

export class CapacityBudgetError extends Error {}

/**
 * Headroom over a Little's-law load L: Poisson arrivals put L + 3√L above 99.8 % of the moments,
 * clamped to what an SQS event source accepts.
 *
 * @example
 * withHeadroom(100); // 130
 */
export function withHeadroom(load: number, floor: number = SQS_MAX_CONCURRENCY_RANGE.min): number {
  const raw = Math.ceil(load + 3 * Math.sqrt(load));
  return Math.min(SQS_MAX_CONCURRENCY_RANGE.max, Math.max(floor, SQS_MAX_CONCURRENCY_RANGE.min, raw));
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/**
 * The consumers' capacities for `inputs`; throws a CapacityBudgetError when the ceilings and the
 * unqueued functions' peak together exceed the account's concurrency quota.
 *
 * @example
 * const capacities = deriveCapacity(capacityInputs);
 * capacities.find((entry) => entry.consumer === 'chunkWorker')?.ceiling; // 309
 */
export function deriveCapacity(inputs: CapacityInputs): ConsumerCapacity[] {
  const { broadcasts, singleMessages, deliveryEvents, customerEvents, campaigns } = inputs;
  const entry = (consumer: ModelledConsumer, basis: string, load: number, floor?: number): ConsumerCapacity => ({
    consumer,
    basis,
    load: round1(load),
    ceiling: withHeadroom(load, floor),
  });
  const capacities = [
    entry(
      'chunkWorker',
      `${broadcasts.drainingAccounts} draining accounts x ${broadcasts.invocationsPerAccount} invocations each`,
      broadcasts.drainingAccounts * broadcasts.invocationsPerAccount,
    ),
    entry(
      'singleSender',
      `${singleMessages.perSecond}/s in batches of ~${singleMessages.averageBatchFill} x ${singleMessages.invocationSeconds} s`,
      (singleMessages.perSecond / singleMessages.averageBatchFill) * singleMessages.invocationSeconds,
    ),
    entry(
      'deliveryEvents',
      `${deliveryEvents.statusesPerSecond}/s statuses x ${deliveryEvents.secondsPerStatus * 1000} ms`,
      deliveryEvents.statusesPerSecond * deliveryEvents.secondsPerStatus,
    ),
    entry(
      'customerEventsDispatcher',
      `${customerEvents.deliveriesPerSecond}/s deliveries in batches of 10 x ${customerEvents.batchSeconds} s (floor ${customerEvents.fairnessFloor})`,
      (customerEvents.deliveriesPerSecond / 10) * customerEvents.batchSeconds,
      customerEvents.fairnessFloor,
    ),
    entry('campaignExpander', `${campaigns.expandingAtOnce} campaigns expanding, one invocation each`, campaigns.expandingAtOnce),
    entry('chunkDeadLetters', 'dead letters are rare: SQS’s floor', 0),
  ];
  const used = totalConcurrency(capacities, inputs);
  if (used > inputs.accountConcurrencyQuota) {
    throw new CapacityBudgetError(
      `The capacity model needs ${used} concurrent executions at peak, over the account's quota of ${inputs.accountConcurrencyQuota}: raise the quota (Service Quotas) and accountConcurrencyQuota in runtime-contract/capacity-inputs.ts`,
    );
  }
  return capacities;
}

/** The ceilings plus the unqueued functions' peak: what the account's quota must hold. */
export function totalConcurrency(capacities: readonly ConsumerCapacity[], inputs: CapacityInputs): number {
  const unqueued = Object.values(inputs.unqueuedPeak).reduce((sum, value) => sum + value, 0);
  return capacities.reduce((sum, capacity) => sum + capacity.ceiling, 0) + unqueued;
}

/** The platform's capacities, from the inputs in capacity-inputs.ts. */
export const capacities: readonly ConsumerCapacity[] = deriveCapacity(capacityInputs);

/**
 * Each modelled consumer's event source maximum concurrency.
 *
 * @example
 * eventSourceCeilings.deliveryEvents; // 194
 */
export const eventSourceCeilings = Object.fromEntries(capacities.map((capacity) => [capacity.consumer, capacity.ceiling])) as Record<ModelledConsumer, number>;

/**
 * One process and one dynalite serve every function locally: at most this many invocations of one
 * consumer at once (the chunk worker's figure before issue 40, which the local suites are sized for).
 */
export const LOCAL_CONCURRENCY_CAP = 20;

/**
 * The local runtime's concurrency for a queue consumer: its ceiling, capped at LOCAL_CONCURRENCY_CAP;
 * the customer-events dispatcher keeps its fairness floor whole (capacity-inputs.ts: one organization's
 * dead endpoints hold at most half of it). One exception, here: delivery-events runs 2 at once locally,
 * where each batch applies its events concurrently against the one in-process dynalite, which has to
 * answer inside the clients' 2 s request timeout.
 *
 * @example
 * localConcurrencyOf({ functionName: 'chunk-worker', maxConcurrency: 309 }); // 20
 */
export function localConcurrencyOf(source: { functionName: string; maxConcurrency: number }): number {
  if (source.functionName === 'delivery-events') return 2;
  const cap = source.functionName === functionOfConsumer.customerEventsDispatcher ? capacityInputs.customerEvents.fairnessFloor : LOCAL_CONCURRENCY_CAP;
  return Math.min(source.maxConcurrency, cap);
}
