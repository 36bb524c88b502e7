import { isRateLimitRejection, isRetryableRejection } from '../../../shared/sending/graph-answer';
import type { SendOutcome } from '../../../shared/sending/ports';
import {
  RateLimitHold,
  attemptsAllowed,
  bulkSendBudget,
  chunkWorkerBudget,
  classifyOutcome,
  fullJitterDelay,
  slotBlockSize,
} from '../../../shared/sending/send-policy';
import { rejected, unknownOutcome } from '../../support/broadcast-fakes';

const policy = { maxAttempts: 3, backoff: { baseMs: 100, maxMs: 1000 }, rateLimitHoldMs: 1000 };

describe('classifyOutcome', () => {
  const worker = chunkWorkerBudget(policy);

  it('is sent with the message id, and unknown outcomes are never retried', () => {
    expect(classifyOutcome({ kind: 'accepted', messageId: 'wamid.1' }, 1, worker)).toEqual({ kind: 'sent', messageId: 'wamid.1' });
    const unknown = unknownOutcome('timeout');
    expect(classifyOutcome(unknown, 1, worker)).toEqual({ kind: 'unknown', outcome: unknown });
  });

  it('fails a non-retryable rejection at once, with its code', () => {
    const outcome = rejected(131026, 400) as Extract<SendOutcome, { kind: 'rejected' }>;
    expect(classifyOutcome(outcome, 1, worker)).toEqual({ kind: 'failed', rejection: outcome });
  });

  it('retries a transient error until maxAttempts, then fails it', () => {
    const outcome = rejected(131000, 500);
    expect(classifyOutcome(outcome, 2, worker)).toMatchObject({ kind: 'retry', rateLimited: false });
    expect(classifyOutcome(outcome, 3, worker)).toMatchObject({ kind: 'failed' });
  });

  it('gives the worker three times the attempts for rate limits, the bulk send the same as for other errors', () => {
    const throttled = rejected(130429, 400);
    expect(attemptsAllowed(chunkWorkerBudget(policy), true)).toBe(9);
    expect(attemptsAllowed(chunkWorkerBudget(policy), false)).toBe(3);
    expect(classifyOutcome(throttled, 8, worker)).toMatchObject({ kind: 'retry', rateLimited: true });
    expect(classifyOutcome(throttled, 9, worker)).toMatchObject({ kind: 'failed' });
    expect(attemptsAllowed(bulkSendBudget(policy), true)).toBe(3);
    expect(classifyOutcome(throttled, 2, bulkSendBudget(policy))).toMatchObject({ kind: 'retry', rateLimited: true });
    expect(classifyOutcome(throttled, 3, bulkSendBudget(policy))).toMatchObject({ kind: 'failed' });
  });

  it("follows the adapter's retryable flag", () => {
    const outcome: SendOutcome = { kind: 'rejected', httpStatus: 400, error: { message: 'x', type: 'OAuthException', code: 130429 }, retryable: false };
    expect(classifyOutcome(outcome, 1, worker)).toMatchObject({ kind: 'failed' });
  });
});

describe('RateLimitHold', () => {
  it('holds about ten send intervals at first, doubling while rate-limit answers keep coming, up to the maximum', () => {
    const hold = new RateLimitHold(20, 1000);
    expect([hold.next(), hold.next(), hold.next()]).toEqual([500, 1000, 1000]);
  });

  it('starts over after an accepted send', () => {
    const hold = new RateLimitHold(80, 1000);
    expect([hold.next(), hold.next()]).toEqual([125, 250]);
    hold.reset();
    expect(hold.next()).toBe(125);
  });

  it('never holds less than 20 ms (fast accounts) nor more than the maximum (slow ones)', () => {
    expect(new RateLimitHold(1000, 1000).next()).toBe(20);
    expect(new RateLimitHold(5, 1000).next()).toBe(1000);
  });
});

describe('slotBlockSize', () => {
  it('reserves about 100 ms of sends, at least one and at most 200', () => {
    expect(slotBlockSize(1)).toBe(1);
    expect(slotBlockSize(20)).toBe(2);
    expect(slotBlockSize(80)).toBe(8);
    expect(slotBlockSize(1000)).toBe(100);
    expect(slotBlockSize(5000)).toBe(200);
  });
});

describe('fullJitterDelay', () => {
  const settings = { baseMs: 100, maxMs: 1000 };

  it('is drawn between 0 and min(max, base * 2^(attempt-1))', () => {
    const ceilings = { 1: 100, 2: 200, 3: 400, 4: 800, 5: 1000, 12: 1000 } as const;
    for (const [attempt, ceiling] of Object.entries(ceilings)) {
      expect(fullJitterDelay(Number(attempt), settings, () => 0)).toBe(0);
      expect(fullJitterDelay(Number(attempt), settings, () => 0.5)).toBe(ceiling / 2);
      expect(fullJitterDelay(Number(attempt), settings, () => 0.999999)).toBe(ceiling - 1);
    }
  });

  it('stays in bounds for any random draw, and treats attempt 0 as the first', () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    for (let attempt = 0; attempt <= 20; attempt += 1) {
      const ceiling = Math.min(1000, 100 * 2 ** Math.max(0, attempt - 1));
      for (let draw = 0; draw < 50; draw += 1) {
        const delay = fullJitterDelay(attempt, settings, random);
        expect(Number.isInteger(delay)).toBe(true);
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(ceiling);
      }
    }
    expect(fullJitterDelay(0, settings, () => 0.5)).toBe(50);
  });
});

describe('131049 (per-user marketing limit) and paused templates', () => {
  it('never retries 131049 at once: not retryable, failed on its first attempt whatever the budget', () => {
    expect(isRetryableRejection(400, 131049)).toBe(false);
    expect(isRateLimitRejection(400, 131049)).toBe(false);
    expect(classifyOutcome(rejected(131049), 1, { maxAttempts: 18, rateLimitFactor: 3 })).toMatchObject({
      kind: 'failed',
      rejection: { error: { code: 131049 } },
    });
  });

  it('does not retry 132015/132016 (template paused/disabled) either: the worker holds the job instead', () => {
    for (const code of [132015, 132016]) expect(classifyOutcome(rejected(code), 1, { maxAttempts: 6, rateLimitFactor: 3 }).kind).toBe('failed');
  });
});
