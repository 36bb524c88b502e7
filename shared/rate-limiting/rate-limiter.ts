/**
 * Fixed one-minute windows, counted per bucket (for example key + sender).
 *
 * The contract speaks of "N requests per minute"; a window per calendar minute states exactly
 * that and needs one conditional counter update per request, which DynamoDB and dynalite both do.
 */
export interface RateLimitDecision {
  allowed: boolean;
  /** Seconds until the current window ends; 0 when allowed. */
  retryAfterSeconds: number;
  remaining: number;
}

export interface RateLimiter {
  consume(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision>;
}

export const windowOf = (now: Date): { startSeconds: number; endSeconds: number } => {
  const startSeconds = Math.floor(now.getTime() / 60_000) * 60;
  return { startSeconds, endSeconds: startSeconds + 60 };
};

export const secondsUntilWindowEnds = (now: Date): number =>
  Math.max(1, Math.ceil(windowOf(now).endSeconds - now.getTime() / 1000));
