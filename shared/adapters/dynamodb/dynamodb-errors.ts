/**
 * Classifies DynamoDB SDK failures. "Unavailable" means the request may well succeed if retried
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
