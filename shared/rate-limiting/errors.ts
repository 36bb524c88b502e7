export class RateLimitExceededError extends Error {
  override readonly name = 'RateLimitExceededError';
  readonly code = 'RATE_LIMIT_EXCEEDED';
  constructor(
    readonly retryAfterSeconds: number,
    readonly limitPerMinute: number,
  ) {
    super(`Rate limit of ${limitPerMinute} requests per minute exceeded; retry after ${retryAfterSeconds} seconds`);
  }
}

export class RateLimitStoreUnavailableError extends Error {
  override readonly name = 'RateLimitStoreUnavailableError';
  readonly code = 'RATE_LIMIT_STORE_UNAVAILABLE';
}
