/**
 * A consumer's stores with their calls retried in place (shared/ports/store-retry.ts), for one
 * invocation: a store fault a retry can mend is ridden out while the invocation's time allows,
 * instead of failing the message's delivery (which would wait for the queue's visibility timeout).
 * Used by the chunk worker (chunk-store-retries.ts) and the campaign expander.
 */
import { parseStoreTimeoutConfig, type AppConfig } from '../../shared/config/app-config';
import { InboxStoreUnavailableError } from '../../shared/inbox/errors';
import { logger } from '../../shared/observability/logger';
import { StoreUnavailableError } from '../../shared/ports/errors';
import { defaultStoreRetryPolicy, retryingPort, type RetryBudget, type StoreRetryPolicy, type StoreRetryScope } from '../../shared/ports/store-retry';
import { TenancyStoreUnavailableError } from '../../shared/tenancy/errors';
import { storeCallLimitMs } from './dynamodb-clients';

/** Failing a record after the last call: one ChangeMessageVisibility, and the handler's own answer. */
const RECORD_FAILURE_MS = 4_000;

/**
 * How long before the invocation's deadline no retry pause may end: one more store call (every SDK
 * attempt at its connection and answer limits, functions/composition/dynamodb-clients.ts) and
 * failing the record (a ChangeMessageVisibility) must still fit. 10 s at the default 2 s answer limit.
 *
 * @example
 * storeRetryMarginMs({ requestTimeoutMs: 2_000 }); // 10000
 */
export function storeRetryMarginMs(store: AppConfig['store']): number {
  return storeCallLimitMs(store.requestTimeoutMs) + RECORD_FAILURE_MS;
}

/** The unavailable errors of the modules whose stores the consumers call (tenancy: senders; inbox: opt-outs, audiences; the rest: the shared one). */
const mendableFaults = [StoreUnavailableError, TenancyStoreUnavailableError, InboxStoreUnavailableError];

/** A store fault a later call can mend; a condition failure, a validation error or a bug is not one. */
export function isMendableStoreFault(error: unknown): boolean {
  return mendableFaults.some((fault) => error instanceof fault);
}

/** What the retries of one invocation need besides the ports. */
export interface RetryInvocation {
  remainingTimeMs(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

/**
 * `dependencies` with the calls of every port named in `storePorts` retried within the invocation's
 * time and the process's retry `budget` (one per handler: the retries of concurrent invocations draw
 * on it). Other ports and settings read through; nothing is built before it is used.
 *
 * @example
 * const retried = withRetriedStorePorts(dependencies(), ['campaigns', 'claims'], { remainingTimeMs: () => context.getRemainingTimeInMillis(), sleep, random: Math.random }, { budget });
 */
export function withRetriedStorePorts<Dependencies extends object>(
  dependencies: Dependencies,
  storePorts: ReadonlyArray<keyof Dependencies>,
  invocation: RetryInvocation,
  options: { budget?: RetryBudget; policy?: StoreRetryPolicy; logKeys?: Readonly<Record<string, unknown>>; marginMs?: number } = {},
): Dependencies {
  const marginMs = options.marginMs ?? storeRetryMarginMs(parseStoreTimeoutConfig({}));
  const scope: StoreRetryScope = {
    policy: options.policy ?? defaultStoreRetryPolicy,
    ...(options.budget ? { budget: options.budget } : {}),
    isRetryable: isMendableStoreFault,
    timeLeftMs: () => invocation.remainingTimeMs() - marginMs,
    sleep: (ms) => invocation.sleep(ms),
    random: () => invocation.random(),
    // One short line per retry (no stack): under a throttling burst hundreds of lanes retry at once.
    // `logKeys`: the record's own keys (concurrent records of one invocation share the logger).
    onRetry: ({ call, attempt, delayMs, error }) =>
      logger.warn('store call retried', { ...options.logKeys, call, attempt, delayMs: Math.round(delayMs), fault: faultOf(error) }),
  };
  const retried = {} as Dependencies;
  for (const key of Object.keys(dependencies) as Array<keyof Dependencies>) {
    const isStore = storePorts.includes(key);
    let port: unknown;
    Object.defineProperty(retried, key, {
      enumerable: true,
      get: () => {
        if (!isStore) return dependencies[key];
        const base = dependencies[key];
        if (base === undefined) return undefined;
        port ??= retryingPort(base as object, String(key), scope);
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
