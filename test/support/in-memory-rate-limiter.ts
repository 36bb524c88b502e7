/**
 * The rate-limiter port in memory, on the same sliding-window rule as the DynamoDB adapter, for
 * unit tests: the caller passes the clock (`now`), so tests place requests to the millisecond.
 */
import type { RateLimitDecision, RateLimiter } from '../../shared/rate-limiting/rate-limiter';
import { currentWindowAllowance, secondsUntilAdmitted, WINDOW_MS, windowStartMs } from '../../shared/rate-limiting/sliding-window';

export class InMemoryRateLimiter implements RateLimiter {
  /** Admitted requests per `bucket#windowStartMs`. */
  readonly counts = new Map<string, number>();

  async consume(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision> {
    const nowMs = now.getTime();
    const start = windowStartMs(nowMs);
    const previous = this.counts.get(`${bucket}#${start - WINDOW_MS}`) ?? 0;
    const current = this.counts.get(`${bucket}#${start}`) ?? 0;
    const allowance = currentWindowAllowance(limitPerMinute, previous, nowMs);
    if (current >= allowance) {
      return { allowed: false, retryAfterSeconds: secondsUntilAdmitted(limitPerMinute, { previous, current }, nowMs), remaining: 0 };
    }
    this.counts.set(`${bucket}#${start}`, current + 1);
    return { allowed: true, retryAfterSeconds: 0, remaining: allowance - current - 1 };
  }
}
