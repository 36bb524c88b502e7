export class RateLimitExceededError extends Error {
  override readonly name = 'RateLimitExceededError';
  constructor(
    readonly retryAfterSeconds: number,
    readonly limitPerMinute: number,
  ) {
    super(`Rate limit of ${limitPerMinute} requests per minute exceeded; retry after ${retryAfterSeconds} seconds`);
  }
}

export class RateLimitStoreUnavailableError extends Error {
  override readonly name = 'RateLimitStoreUnavailableError';
}
