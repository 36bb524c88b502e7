/** No complete answer within the request's time limit (the body included). */
export class HttpTimeoutError extends Error {
  override readonly name = 'HttpTimeoutError';
}
