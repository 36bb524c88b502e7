/**
 * The chunk worker's stores with their calls retried in place (shared/ports/store-retry.ts), for one
 * invocation: a store fault a retry can mend is ridden out while the invocation's time allows,
 * instead of failing the chunk's delivery (docs/BROADCAST.md "Delivery"). Built per record because
 * the time left is the invocation's; the ports themselves are the composition's.
 */
import type { ChunkInvocation, ProcessChunkDependencies } from '../../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import { InboxStoreUnavailableError } from '../../shared/inbox/errors';
import { logger } from '../../shared/observability/logger';
import { StoreUnavailableError } from '../../shared/ports/errors';
import { defaultStoreRetryPolicy, retryingPort, type RetryBudget, type StoreRetryPolicy, type StoreRetryScope } from '../../shared/ports/store-retry';
import { TenancyStoreUnavailableError } from '../../shared/tenancy/errors';

/**
 * No retry pause ends later than this before the invocation's deadline: one more store call (two
 * SDK attempts of at most 1 s to connect and 2 s to answer, functions/composition/dynamodb-clients.ts)
 * and failing the record (a ChangeMessageVisibility) must still fit.
 */
export const STORE_RETRY_MARGIN_MS = 10_000;

/** The ports whose calls are store calls: the ledger, progress and job control, the pacer, the reads at send time, the queue, customer events. */
const storePorts = ['broadcasts', 'pacer', 'templateStates', 'optOuts', 'senders', 'queue', 'events'] as const satisfies ReadonlyArray<keyof ProcessChunkDependencies>;

/** The unavailable errors of the modules whose stores the worker calls (tenancy: senders; inbox: opt-outs; the rest: the shared one). */
const mendableFaults = [StoreUnavailableError, TenancyStoreUnavailableError, InboxStoreUnavailableError];

/** A store fault a later call can mend; a condition failure, a validation error or a bug is not one. */
export function isMendableStoreFault(error: unknown): boolean {
  return mendableFaults.some((fault) => error instanceof fault);
}

/**
 * `dependencies` with every store port's calls retried within `invocation`'s time and the process's
 * retry `budget` (one per handler: the retries of concurrent invocations draw on it). Other ports
 * (the Cloud API: its answers are the sending engine's to judge) and settings read through; nothing
 * is built before it is used.
 *
 * @example
 * const budget = new RetryBudget(defaultRetryBudgetSettings); // once per handler
 * const report = await handleChunkRecord(withStoreRetries(dependencies(), { remainingTimeMs: () => context.getRemainingTimeInMillis() }, { budget }), record, context);
 */
export function withStoreRetries(
  dependencies: ProcessChunkDependencies,
  invocation: ChunkInvocation,
  options: { budget?: RetryBudget; policy?: StoreRetryPolicy } = {},
): ProcessChunkDependencies {
  const scope: StoreRetryScope = {
    policy: options.policy ?? defaultStoreRetryPolicy,
    ...(options.budget ? { budget: options.budget } : {}),
    isRetryable: isMendableStoreFault,
    timeLeftMs: () => invocation.remainingTimeMs() - STORE_RETRY_MARGIN_MS,
    sleep: (ms) => dependencies.sleep(ms),
    random: () => dependencies.random(),
    // One short line per retry (no stack): under a throttling burst hundreds of lanes retry at once.
    onRetry: ({ call, attempt, delayMs, error }) => logger.warn('store call retried', { call, attempt, delayMs: Math.round(delayMs), fault: faultOf(error) }),
  };
  const retried = {} as ProcessChunkDependencies;
  for (const key of Object.keys(dependencies) as Array<keyof ProcessChunkDependencies>) {
    const isStore = (storePorts as ReadonlyArray<string>).includes(key);
    let port: unknown;
    Object.defineProperty(retried, key, {
      enumerable: true,
      get: () => {
        if (!isStore) return dependencies[key];
        const base = dependencies[key];
        if (base === undefined) return undefined;
        port ??= retryingPort(base, key, scope);
        return port;
      },
    });
  }
  return retried;
}

/** `StoreUnavailableError: Store unavailable: TimeoutError (TimeoutError: …the first 120 characters of the cause)`. */
function faultOf(error: unknown): string {
  const { name, message, cause } = error as Error;
  const underlying = cause instanceof Error ? ` (${cause.name}: ${cause.message.slice(0, 120)})` : '';
  return `${name}: ${message}${underlying}`;
}
