import type { GraphError } from '../sending/ports';

/** Meta rejected a read (templates, phone numbers) with its error body. */
export class UpstreamRequestError extends Error {
  override readonly name = 'UpstreamRequestError';
  readonly code = 'UPSTREAM_REQUEST';
  constructor(
    readonly httpStatus: number,
    readonly graphError: GraphError,
  ) {
    super(graphError.message);
  }
}

/** Meta did not answer in time, the connection failed, or Meta answered 5xx. The message is the reason. */
export class UpstreamUnavailableError extends Error {
  override readonly name: string = 'UpstreamUnavailableError';
  readonly code: string = 'UPSTREAM_UNAVAILABLE';
}

/**
 * The /upstream wrapper: Meta answered 4xx. The Graph error is passed through to the caller in the
 * error body (the wrapper's 400); `httpStatus` is Meta's own status, for logs.
 */
export class UpstreamRejectedError extends Error {
  override readonly name: string = 'UpstreamRejectedError';
  readonly code: string = 'UPSTREAM_REJECTED';
  constructor(
    readonly httpStatus: number,
    readonly graphError: GraphError,
  ) {
    super(graphError.message);
  }
}

/** A rejection for an upstream rate or usage limit (HTTP 429, codes 4, 80007, 130429, 131048, 131056): the wrapper's 429. */
export class UpstreamRateLimitedError extends UpstreamRejectedError {
  override readonly name = 'UpstreamRateLimitedError';
  override readonly code = 'UPSTREAM_RATE_LIMITED';
}

export type UpstreamTargetKind = 'business-account' | 'phone-number' | 'template' | 'flow' | 'media' | 'qr-code' | 'message';

/**
 * A wabaId, phoneNumberId (or an id reached through them) that is not connected to the caller's
 * organization, or does not exist. One message for both, so other organizations' ids cannot be probed.
 */
export class UpstreamTargetNotFoundError extends Error {
  override readonly name = 'UpstreamTargetNotFoundError';
  readonly code = 'UPSTREAM_TARGET_NOT_FOUND';
  constructor(
    readonly kind: UpstreamTargetKind,
    readonly id: string,
  ) {
    super(
      `${kind === 'business-account' ? 'Business account' : kind === 'phone-number' ? 'Phone number' : kind === 'qr-code' ? 'QR code' : kind[0]!.toUpperCase() + kind.slice(1)} ${id} is not connected to this organization`,
    );
  }
}

/** Template migration whose source is not an account of the same business the caller may use. */
export class MigrationSourceNotAllowedError extends Error {
  override readonly name = 'MigrationSourceNotAllowedError';
  readonly code = 'MIGRATION_SOURCE_NOT_ALLOWED';
}

/** An uploaded file above the limit of its media type (the message names the limit). */
export class MediaTooLargeError extends Error {
  override readonly name = 'MediaTooLargeError';
  readonly code = 'MEDIA_TOO_LARGE';
  constructor(
    message: string,
    readonly limitBytes: number,
  ) {
    super(message);
  }
}

/** The store of the organization's media and message ids timed out or could not be reached. Transient; worth a retry. */
export class UpstreamIdStoreUnavailableError extends Error {
  override readonly name = 'UpstreamIdStoreUnavailableError';
  readonly code = 'UPSTREAM_ID_STORE_UNAVAILABLE';
}
