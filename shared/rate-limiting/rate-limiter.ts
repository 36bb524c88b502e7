/**
 * Per-minute limits as a sliding window, counted per bucket (for example key + sender).
 *
 * The contract speaks of "N requests per minute". Fixed calendar-minute windows would let a
 * client send 2N across a minute boundary; the sliding window (see sliding-window.ts) counts the
 * previous minute weighted by how much of it still lies inside the last 60 seconds.
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** Smallest whole number of seconds after which the request would be admitted; 0 when allowed. */
  retryAfterSeconds: number;
  remaining: number;
}

export interface RateLimiter {
  consume(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision>;
}
