/** Failures of Meta's webhook intake and of the platform's Meta app settings. */

/** No Meta app (app secret + verify token) is configured: signatures cannot be checked. */
export class MetaAppNotConfiguredError extends Error {
  override readonly name = 'MetaAppNotConfiguredError';
  readonly code = 'META_APP_NOT_CONFIGURED';
  constructor() {
    super('No Meta app is configured (npm run admin -- set-meta-app)');
  }
}

/** An app secret or verify token that breaks a rule (the message names the flag and the rule). */
export class InvalidMetaAppInputError extends Error {
  override readonly name = 'InvalidMetaAppInputError';
  readonly code = 'INVALID_META_APP_INPUT';
}

/** `X-Hub-Signature-256` is missing, malformed or not the HMAC of the body with the app secret. */
export class WebhookSignatureError extends Error {
  override readonly name = 'WebhookSignatureError';
  readonly code = 'WEBHOOK_SIGNATURE_INVALID';
  constructor() {
    super('Missing or invalid X-Hub-Signature-256');
  }
}

/** The subscription handshake did not name `hub.mode=subscribe` with the configured verify token. */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  readonly code = 'WEBHOOK_VERIFICATION_FAILED';
  constructor() {
    super('Webhook verification failed');
  }
}

/** A webhook body above what one queue message can carry. */
export class WebhookPayloadTooLargeError extends Error {
  override readonly name = 'WebhookPayloadTooLargeError';
  readonly code = 'WEBHOOK_PAYLOAD_TOO_LARGE';
  constructor(limitBytes: number) {
    super(`Webhook body exceeds ${limitBytes} bytes`);
  }
}

/** The accepted batch could not be stored on the metaEvents queue: Meta must retry (503). */
export class MetaEventsUnavailableError extends Error {
  override readonly name = 'MetaEventsUnavailableError';
  readonly code = 'META_EVENTS_UNAVAILABLE';
}

/** `replay-meta-events` without the dead-letter queue's URL. */
export class MetaEventsReplayNotConfiguredError extends Error {
  override readonly name = 'MetaEventsReplayNotConfiguredError';
  readonly code = 'META_EVENTS_REPLAY_NOT_CONFIGURED';
}

/** A metaEvents queue message that the webhook endpoint did not write: it can never be applied. */
export class MalformedMetaEventMessageError extends Error {
  override readonly name = 'MalformedMetaEventMessageError';
  readonly code = 'MALFORMED_META_EVENT_MESSAGE';
}

/** A webhook request from an address outside the configured source ranges (META_WEBHOOK_SOURCE_RANGES): refused unheard. */
export class WebhookSourceNotAllowedError extends Error {
  override readonly name = 'WebhookSourceNotAllowedError';
  readonly code = 'WEBHOOK_SOURCE_NOT_ALLOWED';
  constructor() {
    super('Forbidden');
  }
}

/** A source address whose recent webhook requests were refused too often: refused unheard until the window passes. */
export class WebhookSourceHeldBackError extends Error {
  override readonly name = 'WebhookSourceHeldBackError';
  readonly code = 'WEBHOOK_SOURCE_HELD_BACK';
  constructor(readonly retryAfterSeconds: number) {
    super(`Too many refused requests from this address; retry after ${retryAfterSeconds} seconds`);
  }
}
