/**
 * SDK clients without the SDK's own logger middleware, for clients built without a `logger`
 * (every client of functions/composition: our logs come from our adapters, never from the SDK).
 *
 * Why: the SDK's `loggerMiddleware` (@aws-sdk/core) runs on every call and, before calling the
 * configured logger, copies the command's input and output through the operation schema's
 * sensitive-data filter (`schemaLogFilter`), also when the logger is the default `NoOpLogger` that
 * throws the copy away. In the chunk worker's profile that copy was ~2 % of its CPU, more for
 * calls with large inputs (a page of ledger claims). Without a logger nothing else in the middleware
 * has an effect, so removing it changes nothing but the CPU.
 */

interface StackOwner {
  middlewareStack: { remove(name: string): boolean };
}

/** The name @aws-sdk/core gives the middleware (`getLoggerPlugin`). */
const SDK_LOGGER_MIDDLEWARE = 'loggerMiddleware';

/**
 * Removes the SDK's logger middleware from `client`'s stack; returns the same client. Only for a
 * client built without a `logger` in its configuration (its logger is the SDK's no-op one).
 *
 * @example
 * const sqs = withoutSdkLogging(new SQSClient({ region }));
 */
export function withoutSdkLogging<T extends StackOwner>(client: T): T {
  client.middlewareStack.remove(SDK_LOGGER_MIDDLEWARE);
  return client;
}
