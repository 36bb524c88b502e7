import type { MiddlewareStack } from '@smithy/types';
import { StoreUnavailableError } from '../../ports/errors';

/**
 * Classifies AWS SDK failures of every store (DynamoDB, SQS, KMS). "Unavailable" means the request may well succeed if retried
 * later: timeouts, refused or reset connections, throttling and server-side errors. Everything
 * else (validation errors, a missing table, access denied) is a bug or a misconfiguration.
 */

const transientErrorNames = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'AbortError',
  'NetworkingError',
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'ServiceUnavailableException',
  // SQS and KMS spell theirs differently.
  'RequestThrottled',
  'KmsThrottled',
  'KMSInternalException',
  'DependencyTimeoutException',
  'InternalFailure',
]);

const transientSocketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
]);

interface SdkErrorShape {
  name?: string;
  code?: string;
  message?: string;
  errors?: unknown[];
  cause?: unknown;
  $metadata?: { httpStatusCode?: number };
}

const socketCodeInMessage = new RegExp(`\\b(${[...transientSocketCodes].join('|')})\\b`);

export function isStoreUnavailableError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof StoreUnavailableError) return true;
  const shape = error as SdkErrorShape;
  if (shape.name && transientErrorNames.has(shape.name)) return true;
  if (shape.code && transientSocketCodes.has(shape.code)) return true;
  // Node reports a refused dual-stack connection (localhost → ::1 and 127.0.0.1) as an AggregateError.
  if (Array.isArray(shape.errors) && shape.errors.some(isStoreUnavailableError)) return true;
  if (shape.cause !== undefined && shape.cause !== error && isStoreUnavailableError(shape.cause)) return true;
  // When a socket error comes from another realm (jest's sandbox), the SDK wraps it in a plain
  // "AWS SDK error wrapper for Error: connect ECONNREFUSED …" and only the message keeps the code.
  if (typeof shape.message === 'string' && shape.message.startsWith('AWS SDK error wrapper') && socketCodeInMessage.test(shape.message)) return true;
  const status = shape.$metadata?.httpStatusCode;
  return status !== undefined && status >= 500;
}

export function isConditionalCheckFailure(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

export type UnavailableErrorClass = new (message: string, options?: ErrorOptions) => Error;

/**
 * The one decision for a failed store call: a fault a retry can fix becomes the module's
 * "unavailable" error (503 with Retry-After); anything else (validation errors, access denied,
 * a missing table) is returned unchanged, and the error table answers it as a plain 500.
 */
export function storeFault(error: unknown, Unavailable: UnavailableErrorClass = StoreUnavailableError, store = 'Store'): unknown {
  if (error instanceof Unavailable || !isStoreUnavailableError(error)) return error;
  const cause = error instanceof StoreUnavailableError && error.cause !== undefined ? error.cause : error;
  return new Unavailable(`${store} unavailable: ${(cause as Error).name ?? 'error'}`, { cause });
}

/** The classifier's name in a client's middleware stack. */
export const STORE_FAULT_CLASSIFIER = 'storeFaultClassifier';

/**
 * Puts the classification on an SDK client, outermost (after the SDK's own retries), so every
 * call of every adapter sharing the client fails with a StoreUnavailableError when a retry can
 * help. Idempotent: adapters sharing one client each install it. Conditional-check failures and
 * other answers pass through unchanged.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any client's stack: its input and output types vary by service and are invariant
export function classifyStoreFaults(client: { middlewareStack: MiddlewareStack<any, any> }): void {
  // A stand-in client of a unit test (a bare `send`) has no stack: its faults are its own.
  client.middlewareStack?.add(
    (next) => async (args) => {
      try {
        return await next(args);
      } catch (error) {
        throw storeFault(error);
      }
    },
    { step: 'initialize', priority: 'high', name: STORE_FAULT_CLASSIFIER, override: true },
  );
}
