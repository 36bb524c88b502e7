import { StoreUnavailableError } from '../../../shared/ports/errors';
import {
  callWithRetries,
  defaultStoreRetryPolicy,
  retryDelayMs,
  retryingPort,
  RetryBudget,
  type StoreRetryNote,
  type StoreRetryScope,
} from '../../../shared/ports/store-retry';

/** A scope whose pauses are only recorded (no waiting) and whose time left shrinks by each pause. */
function scopeOf(options: { timeLeftMs?: number; random?: () => number; isRetryable?: (error: unknown) => boolean } = {}) {
  const sleeps: number[] = [];
  const notes: StoreRetryNote[] = [];
  let timeLeft = options.timeLeftMs ?? 60_000;
  const scope: StoreRetryScope = {
    policy: defaultStoreRetryPolicy,
    isRetryable: options.isRetryable ?? ((error) => error instanceof StoreUnavailableError),
    timeLeftMs: () => timeLeft,
    sleep: async (ms) => {
      sleeps.push(ms);
      timeLeft -= ms;
    },
    random: options.random ?? Math.random,
    onRetry: (note) => notes.push(note),
  };
  return { scope, sleeps, notes };
}

/** A call failing `failures` times with `error`, then answering `answer`. */
function flaky<T>(failures: number, error: () => unknown, answer: T) {
  const calls = { count: 0 };
  const call = async (): Promise<T> => {
    calls.count += 1;
    if (calls.count <= failures) throw error();
    return answer;
  };
  return { calls, call };
}

const timeout = () => new StoreUnavailableError('Store unavailable: TimeoutError');

describe('retryDelayMs: equal jitter over an exponential ceiling', () => {
  it('keeps every pause between half its ceiling and the ceiling, the ceiling doubling up to maxDelayMs', () => {
    const ceilings = [100, 200, 400, 800, 1_600, 2_000, 2_000];
    for (const [index, ceiling] of ceilings.entries()) {
      const attempt = index + 1;
      expect(retryDelayMs(defaultStoreRetryPolicy, attempt, () => 0)).toBe(ceiling / 2);
      expect(retryDelayMs(defaultStoreRetryPolicy, attempt, () => 0.999_999)).toBeCloseTo(ceiling, 0);
      for (let sample = 0; sample < 200; sample += 1) {
        const delay = retryDelayMs(defaultStoreRetryPolicy, attempt, Math.random);
        expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
        expect(delay).toBeLessThan(ceiling);
      }
    }
  });

  it('spreads callers failing together: 100 first pauses are not all alike', () => {
    const pauses = new Set(Array.from({ length: 100 }, () => Math.round(retryDelayMs(defaultStoreRetryPolicy, 1, Math.random))));
    expect(pauses.size).toBeGreaterThan(10);
  });
});

describe('callWithRetries', () => {
  it('retries a store fault in place and answers what the later call answers', async () => {
    const { scope, sleeps, notes } = scopeOf({ random: () => 0.5 });
    const { calls, call } = flaky(2, timeout, 'claimed');
    await expect(callWithRetries(scope, 'broadcasts.claimRecipient', call)).resolves.toBe('claimed');
    expect(calls.count).toBe(3);
    expect(sleeps).toEqual([75, 150]);
    expect(notes.map(({ call: name, attempt, delayMs }) => ({ name, attempt, delayMs }))).toEqual([
      { name: 'broadcasts.claimRecipient', attempt: 1, delayMs: 75 },
      { name: 'broadcasts.claimRecipient', attempt: 2, delayMs: 150 },
    ]);
  });

  it('passes any other error through at once, unchanged', async () => {
    const { scope, sleeps } = scopeOf();
    const bug = new TypeError('cannot read properties of undefined');
    const { calls, call } = flaky(1, () => bug, 'never');
    await expect(callWithRetries(scope, 'broadcasts.recordOutcomes', call)).rejects.toBe(bug);
    expect(calls.count).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('never retries a condition failure as a fault (another writer holds the item: retrying cannot change that)', async () => {
    const { scope } = scopeOf();
    const conditionFailure = Object.assign(new Error('The conditional request failed'), {
      name: 'ConditionalCheckFailedException',
      $metadata: { httpStatusCode: 400 },
    });
    const { calls, call } = flaky(1, () => conditionFailure, 'never');
    await expect(callWithRetries(scope, 'pacer.reserve', call)).rejects.toBe(conditionFailure);
    expect(calls.count).toBe(1);
  });

  it('gives up after maxAttempts calls with the last fault', async () => {
    const { scope, sleeps } = scopeOf({ random: () => 0 });
    const faults: Error[] = [];
    const { calls, call } = flaky(
      100,
      () => {
        faults.push(timeout());
        return faults.at(-1);
      },
      'never',
    );
    const thrown = await callWithRetries(scope, 'broadcasts.addChunkProgress', call).catch((error: unknown) => error);
    expect(thrown).toBe(faults.at(-1));
    expect(calls.count).toBe(defaultStoreRetryPolicy.maxAttempts);
    expect(sleeps).toEqual([50, 100, 200, 400, 800]);
  });

  it('respects the deadline: no pause is taken that would end after the time left, the fault is thrown instead', async () => {
    // 400 ms left: pauses of 100 and 200 fit (300 spent), the third (400) does not.
    const { scope, sleeps } = scopeOf({ timeLeftMs: 400, random: () => 0.999_999 });
    const { calls, call } = flaky(10, timeout, 'never');
    await expect(callWithRetries(scope, 'broadcasts.reconcileChunk', call)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(calls.count).toBe(3);
    expect(sleeps.map(Math.round)).toEqual([100, 200]);
  });

  it('tries once, without any pause, when no time is left', async () => {
    const { scope, sleeps } = scopeOf({ timeLeftMs: -5 });
    const { calls, call } = flaky(1, timeout, 'late');
    await expect(callWithRetries(scope, 'queue.enqueue', call)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(calls.count).toBe(1);
    expect(sleeps).toEqual([]);
  });
});

describe('the shared retry budget', () => {
  it('stops retrying when most calls fail (an overloaded store), fails at once, and earns retries back with successes', async () => {
    const budget = new RetryBudget({ capacity: 10, retryCost: 5, successRefund: 1 });
    const { scope } = scopeOf({ random: () => 0 });
    const budgeted: StoreRetryScope = { ...scope, budget };
    // Two retries' worth: the first call is mended by its second retry.
    const first = flaky(2, timeout, 'ok');
    await expect(callWithRetries(budgeted, 'broadcasts.claimRecipient', first.call)).resolves.toBe('ok');
    expect(budget.available).toBe(1);
    // Nothing left: the next fault goes through at once, without a retry.
    const second = flaky(1, timeout, 'never');
    await expect(callWithRetries(budgeted, 'broadcasts.claimRecipient', second.call)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(second.calls.count).toBe(1);
    // Four calls that succeed earn one retry back.
    for (let call = 0; call < 4; call += 1) await callWithRetries(budgeted, 'pacer.reserve', async () => 1);
    expect(budget.available).toBe(5);
    const third = flaky(1, timeout, 'ok again');
    await expect(callWithRetries(budgeted, 'broadcasts.recordOutcomes', third.call)).resolves.toBe('ok again');
    // Never above its capacity.
    for (let call = 0; call < 50; call += 1) budget.succeeded();
    expect(budget.available).toBe(10);
  });
});

describe('retryingPort', () => {
  class Ledger {
    readonly claims: Array<[string, number]> = [];
    private failuresLeft = 1;
    readonly label = 'ledger';

    async claim(jobId: string, index: number): Promise<{ claimed: boolean }> {
      this.claims.push([jobId, index]);
      if (this.failuresLeft-- > 0) throw timeout();
      return { claimed: true };
    }

    describe(): string {
      return `${this.label} with ${this.claims.length} claims`;
    }
  }

  it('retries every method of the port with the same arguments, on the port itself (its own state and class methods)', async () => {
    const { scope, notes } = scopeOf();
    const ledger = new Ledger();
    const retried = retryingPort(ledger, 'broadcasts', scope);
    await expect(retried.claim('pub_1', 7)).resolves.toEqual({ claimed: true });
    expect(ledger.claims).toEqual([
      ['pub_1', 7],
      ['pub_1', 7],
    ]);
    expect(notes.map((note) => note.call)).toEqual(['broadcasts.claim']);
    // A method answering a plain value is called once, as is; other properties read through.
    expect(retried.describe()).toBe('ledger with 2 claims');
    expect(retried.label).toBe('ledger');
  });

  it('wraps plain objects of bound functions (combinePorts) the same way, and hands back one wrapper per method', async () => {
    const { scope } = scopeOf();
    const { calls, call } = flaky(1, timeout, 42);
    const port = { bookedUntil: call };
    const retried = retryingPort(port, 'pacer', scope);
    expect(retried.bookedUntil).toBe(retried.bookedUntil);
    await expect(retried.bookedUntil()).resolves.toBe(42);
    expect(calls.count).toBe(2);
  });
});
