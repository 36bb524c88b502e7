/**
 * What a 429 of the application's sliding-window limits must say, for tests that go through the
 * local runtime on the real clock: the server read the clock somewhere between the moment the
 * request was sent and the moment its answer arrived, and the exact Retry-After only falls as time
 * passes, so it lies between the values at those two instants.
 */
import { secondsUntilAdmitted, type WindowCounts } from '../../shared/rate-limiting/sliding-window';

export function retryAfterBounds(limitPerMinute: number, counts: WindowCounts, sentAtMs: number, answeredAtMs = Date.now()) {
  return {
    min: secondsUntilAdmitted(limitPerMinute, counts, answeredAtMs),
    max: secondsUntilAdmitted(limitPerMinute, counts, sentAtMs),
  };
}

/** Retry-After of a bucket that admitted `limitPerMinute` requests in the current minute and none in the one before. */
export function expectFreshBucketRetryAfter(retryAfter: number, limitPerMinute: number, sentAtMs: number, answeredAtMs = Date.now()) {
  const { min, max } = retryAfterBounds(limitPerMinute, { previous: 0, current: limitPerMinute }, sentAtMs, answeredAtMs);
  expect(retryAfter).toBeGreaterThanOrEqual(min);
  expect(retryAfter).toBeLessThanOrEqual(max);
}
