/** Failures of the HTTP layer itself, before any use case runs. */

export class MalformedJsonError extends Error {
  override readonly name = 'MalformedJsonError';
  readonly code = 'MALFORMED_JSON';
  constructor() {
    super('Request body is not valid JSON');
  }
}

export class UnsupportedContentTypeError extends Error {
  override readonly name = 'UnsupportedContentTypeError';
  readonly code = 'UNSUPPORTED_CONTENT_TYPE';
  constructor(contentType: string | undefined) {
    super(contentType ? `Content-Type ${contentType} is not supported; send application/json` : 'Content-Type header is missing; send application/json');
  }
}

export class PayloadTooLargeError extends Error {
  override readonly name = 'PayloadTooLargeError';
  readonly code = 'PAYLOAD_TOO_LARGE';
  constructor(limitBytes: number) {
    super(`Request body exceeds ${limitBytes} bytes`);
  }
}

/** A request that parsed but breaks a rule; the message names the field and the rule. */
export class RequestValidationError extends Error {
  override readonly name = 'RequestValidationError';
  readonly code = 'REQUEST_VALIDATION';
  constructor(
    message: string,
    readonly issues: readonly string[] = [message],
  ) {
    super(message);
  }
}

/** The gateway routed a method/path that this Lambda does not serve: a deployment mismatch. */
export class UnroutableRequestError extends Error {
  override readonly name = 'UnroutableRequestError';
  readonly code = 'UNROUTABLE_REQUEST';
}

/** A JSON body nested deeper than the pipeline accepts (deep values crash recursive validators). */
export class JsonNestingTooDeepError extends Error {
  override readonly name = 'JsonNestingTooDeepError';
  readonly code = 'JSON_NESTING_TOO_DEEP';
  constructor(maxDepth: number) {
    super(`Request body nests deeper than ${maxDepth} levels`);
  }
}
