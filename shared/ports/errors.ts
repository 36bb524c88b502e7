/**
 * Failures every store port can have, whatever module owns the store. Adapters classify their
 * SDK's errors once (shared/adapters/dynamodb/dynamodb-errors.ts); a store whose module has its
 * own unavailable error (tenancy, inbox, rate limits) maps to that one instead.
 */

/** The store timed out, throttled, answered 5xx or could not be reached: a later retry can succeed. */
export class StoreUnavailableError extends Error {
  override readonly name: string = 'StoreUnavailableError';
  readonly code: string = 'STORE_UNAVAILABLE';
}
