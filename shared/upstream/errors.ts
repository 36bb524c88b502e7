import type { GraphError } from './cloud-api-client';

/** Meta rejected a read (templates, phone numbers) with its error body. */
export class UpstreamRequestError extends Error {
  override readonly name = 'UpstreamRequestError';
  constructor(
    readonly httpStatus: number,
    readonly graphError: GraphError,
  ) {
    super(graphError.message);
  }
}

/** Meta did not answer in time or the connection failed. */
export class UpstreamUnavailableError extends Error {
  override readonly name = 'UpstreamUnavailableError';
}
