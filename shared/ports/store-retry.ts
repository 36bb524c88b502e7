/**
 * Store calls retried in place. A store fault a retry can mend (a DynamoDB timeout, a throttling
 * burst of an on-demand table: `StoreUnavailableError` and the modules' equivalents) used to fail
 * the whole chunk invocation at once; wrapped by `retryingPort`, every method of a port is called
 * again after a jittered, exponentially growing pause while the invocation's time allows.
 *
 * Safe for the chunk worker's stores because their writes are idempotent or carry a token: claims
 * and releases are conditional, outcomes set their own attributes, tally codes never lower a code,
 * and the outbound queue's duplicates are skipped by the ledger (docs/BROADCAST.md "Delivery").
 * What is never retried: any other error (a condition failure an adapter did not turn into an
 * answer, a validation error, a bug) goes through at once, unchanged.
 */

/** How many times and how far apart one call is tried. */
export interface StoreRetryPolicy {
  /** Calls of one method at most, the first included. */
  maxAttempts: number;
  /** The ceiling of the pause after the first failure; each later ceiling doubles, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

/** What one call's retries need: the policy, which errors to retry, the time left and the waiting. */
export interface StoreRetryScope {
  readonly policy: StoreRetryPolicy;
  /** Faults a retry can mend (the stores' unavailable errors); anything else goes through at once. */
  isRetryable(error: unknown): boolean;
  /**
   * Milliseconds this call may still spend waiting: a pause that would end later is not taken and
   * the last error is thrown (the invocation's remaining time less a margin for one more call).
   */
  timeLeftMs(): number;
  sleep(ms: number): Promise<void>;
  /** In [0, 1). */
  random(): number;
  /** Told of each retry before its pause (the function layer logs it). */
  onRetry?(retry: StoreRetryNote): void;
  /** Shared by every call of the scope's users: no retry without a token (absent: unlimited). */
  budget?: RetryBudget;
}

/**
 * A token bucket of retries shared by many calls (the SDK's retry quota, one level up): each retry
 * takes `retryCost`, each call that succeeds gives `successRefund` back, up to `capacity`. One
 * transient fault is always retried; when the store is overloaded and most calls fail (hundreds of
 * lanes timing out together: docs/PERFORMANCE.md "Finding 3"), the tokens run out and calls fail
 * at once instead of retrying into the overload, and the delivery comes back seconds later.
 *
 * @example
 * const budget = new RetryBudget({ capacity: 100, retryCost: 5, successRefund: 1 }); // 20 retries in a row, then earned back
 */
export class RetryBudget {
  private tokens: number;

  constructor(private readonly settings: { capacity: number; retryCost: number; successRefund: number }) {
    this.tokens = settings.capacity;
  }

  /** True (and the cost taken) when a retry may go. */
  take(): boolean {
    if (this.tokens < this.settings.retryCost) return false;
    this.tokens -= this.settings.retryCost;
    return true;
  }

  succeeded(): void {
    this.tokens = Math.min(this.settings.capacity, this.tokens + this.settings.successRefund);
  }

  get available(): number {
    return this.tokens;
  }
}

/** The chunk worker's budget per process: 20 retries in a row, one more for every five calls that succeed. */
export const defaultRetryBudgetSettings = { capacity: 100, retryCost: 5, successRefund: 1 } as const;

export interface StoreRetryNote {
  /** `port.method`, e.g. `broadcasts.claimRecipient`. */
  call: string;
  /** The attempt that failed (1 = the first call). */
  attempt: number;
  delayMs: number;
  error: unknown;
}

/**
 * The chunk worker's default: six calls, pauses of 50–100, 100–200, 200–400, 400–800 and
 * 800–1,600 ms (at most 3.1 s in all), so a brief timeout or a throttling burst is ridden out in
 * place and a real outage still fails the delivery within seconds.
 */
export const defaultStoreRetryPolicy: StoreRetryPolicy = { maxAttempts: 6, baseDelayMs: 100, maxDelayMs: 2_000 };

/**
 * The pause after failed attempt `attempt` (1-based): "equal jitter", uniformly between half the
 * ceiling and the ceiling (ceiling = base x 2^(attempt-1), at most `maxDelayMs`). Never zero, so
 * a throttled table gets some air; spread, so lanes failing together do not retry together.
 *
 * @example
 * retryDelayMs(defaultStoreRetryPolicy, 1, Math.random); // 50..100
 * retryDelayMs(defaultStoreRetryPolicy, 3, () => 0); // 200
 */
export function retryDelayMs(policy: StoreRetryPolicy, attempt: number, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}

/**
 * Runs `call` until it succeeds, fails with an error the scope does not retry, has been tried
 * `maxAttempts` times, the next pause would not fit in the time left, or the scope's budget has
 * no retry left; then the last error is thrown unchanged.
 *
 * @example
 * const entry = await callWithRetries(scope, 'broadcasts.getJob', () => broadcasts.getJob(jobId));
 */
export async function callWithRetries<T>(scope: StoreRetryScope, name: string, call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const answer = await call();
      scope.budget?.succeeded();
      return answer;
    } catch (error) {
      if (!scope.isRetryable(error) || attempt >= scope.policy.maxAttempts) throw error;
      const delayMs = retryDelayMs(scope.policy, attempt, scope.random);
      if (delayMs > scope.timeLeftMs() || (scope.budget !== undefined && !scope.budget.take())) throw error;
      scope.onRetry?.({ call: name, attempt, delayMs, error });
      await scope.sleep(delayMs);
    }
  }
}

/**
 * The same port with every method retried by `callWithRetries` (methods of its class included;
 * a method answering anything but a promise is called once, as is). Other properties read
 * through. Generic over the port: a method added to it later is retried without a change here.
 *
 * @example
 * const broadcasts = retryingPort(dependencies.broadcasts, 'broadcasts', scope);
 * await broadcasts.claimRecipient(jobId, 0, 7, '4915112345678', now); // retried on StoreUnavailableError
 */
export function retryingPort<T extends object>(port: T, name: string, scope: StoreRetryScope): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(port, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function' || property === 'constructor') return value;
      let wrapper = wrapped.get(property);
      if (wrapper === undefined) {
        const method = value as (...args: unknown[]) => unknown;
        const call = `${name}.${String(property)}`;
        wrapper = (...args: unknown[]): unknown => {
          const first = method.apply(target, args);
          if (!isPromise(first)) return first;
          let attempt = 0;
          return callWithRetries(scope, call, () => (attempt++ === 0 ? first : (method.apply(target, args) as Promise<unknown>)));
        };
        wrapped.set(property, wrapper);
      }
      return wrapper;
    },
  });
}

function isPromise(value: unknown): value is Promise<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
