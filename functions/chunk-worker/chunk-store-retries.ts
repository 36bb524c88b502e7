/**
 * The chunk worker's stores with their calls retried in place (functions/composition/store-retries.ts),
 * for one invocation: a store fault a retry can mend is ridden out while the invocation's time allows,
 * instead of failing the chunk's delivery (docs/BROADCAST.md "Delivery"). Built per record because
 * the time left is the invocation's; the ports themselves are the composition's.
 */
import type { ChunkInvocation, ProcessChunkDependencies } from '../../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import type { RetryBudget, StoreRetryPolicy } from '../../shared/ports/store-retry';
import { withRetriedStorePorts } from '../composition/store-retries';

export { isMendableStoreFault } from '../composition/store-retries';

/** The ports whose calls are store calls: the ledger, progress and job control, the pacer, the reads at send time, the queue, customer events. */
const storePorts = ['broadcasts', 'pacer', 'templateStates', 'optOuts', 'senders', 'queue', 'events', 'frequencyCaps'] as const satisfies ReadonlyArray<
  keyof ProcessChunkDependencies
>;

/**
 * `dependencies` with every store port's calls retried within `invocation`'s time and the process's
 * retry `budget` (one per handler: the retries of concurrent invocations draw on it). Other ports
 * (the Cloud API: its answers are the sending engine's to judge) and settings read through.
 *
 * @example
 * const budget = new RetryBudget(defaultRetryBudgetSettings); // once per handler
 * const report = await handleChunkRecord(withStoreRetries(dependencies(), { remainingTimeMs: () => context.getRemainingTimeInMillis() }, { budget }), record, context);
 */
export function withStoreRetries(
  dependencies: ProcessChunkDependencies,
  invocation: ChunkInvocation,
  options: { budget?: RetryBudget; policy?: StoreRetryPolicy; logKeys?: Readonly<Record<string, unknown>>; marginMs?: number } = {},
): ProcessChunkDependencies {
  return withRetriedStorePorts(
    dependencies,
    storePorts,
    { remainingTimeMs: invocation.remainingTimeMs, sleep: (ms) => dependencies.sleep(ms), random: () => dependencies.random() },
    options,
  );
}
