/** Failures of the broadcast module. No HTTP here: shared/http/error-responses.ts maps them. */

export class DuplicateRecipientError extends Error {
  override readonly name = 'DuplicateRecipientError';
  constructor(
    readonly index: number,
    readonly firstIndex: number,
  ) {
    super(`data[${index}] duplicates data[${firstIndex}]: each recipient may appear once; nothing was queued`);
  }
}

export class RecipientNumberError extends Error {
  override readonly name = 'RecipientNumberError';
}

/** The sender number is not one of the organization's (or not the one the key is bound to). */
export class SenderNotOwnedError extends Error {
  override readonly name = 'SenderNotOwnedError';
  constructor(phoneNumber: string) {
    super(`Phone number ${phoneNumber} is not a sender of this organization`);
  }
}

/**
 * The key's scope does not include the operation: a key minted by generate-key may only call
 * send-single, send-bulk and the status of its own jobs (key-scope.ts).
 */
export class OperationOutsideKeyScopeError extends Error {
  override readonly name = 'OperationOutsideKeyScopeError';
  constructor(operation: string) {
    super(`This API key was issued by generate-key and may call only send-single, send-bulk and the status of its own jobs, not ${operation}`);
  }
}

/** The business account behind a sender lacks what sending needs; the message names the fields. */
export class BusinessAccountIncompleteError extends Error {
  override readonly name = 'BusinessAccountIncompleteError';
  constructor(readonly missingFields: readonly string[]) {
    super(`Business account configuration is incomplete: missing ${missingFields.join(', ')}`);
  }
}

export class NoBusinessAccountError extends Error {
  override readonly name = 'NoBusinessAccountError';
  constructor() {
    super('No business account is connected to this organization');
  }
}

export class TemplateNotFoundError extends Error {
  override readonly name = 'TemplateNotFoundError';
}

export class TemplateNotApprovedError extends Error {
  override readonly name = 'TemplateNotApprovedError';
}

export class TemplateMismatchError extends Error {
  override readonly name = 'TemplateMismatchError';
}

export class TemplateParameterCountError extends Error {
  override readonly name = 'TemplateParameterCountError';
}

export class JobNotFoundError extends Error {
  override readonly name = 'JobNotFoundError';
  constructor(jobId: string) {
    super(`Job ${jobId} does not exist`);
  }
}

/** Said as 401 by the contract, without confirming whose job it is. */
export class JobOfAnotherOrganizationError extends Error {
  override readonly name = 'JobOfAnotherOrganizationError';
  constructor() {
    super('This job belongs to another organization');
  }
}

export class IdempotencyKeyInProgressError extends Error {
  override readonly name = 'IdempotencyKeyInProgressError';
  constructor() {
    super('A request with this Idempotency-Key is still being processed; retry after it completes');
  }
}

export class IdempotencyKeyReusedError extends Error {
  override readonly name = 'IdempotencyKeyReusedError';
  constructor() {
    super('This Idempotency-Key was already used with a different request body; use a new key for a new broadcast');
  }
}

export class InvalidIdempotencyKeyError extends Error {
  override readonly name = 'InvalidIdempotencyKeyError';
  constructor() {
    super('Idempotency-Key must be 1 to 255 printable ASCII characters');
  }
}

/**
 * Rejections of the earlier operations (generate-key, send-single, send-bulk). Their messages are
 * the contract's own texts, which clients of the earlier description match on.
 */
export class EarlierRejectionError extends Error {
  override readonly name: string = 'EarlierRejectionError';
}
export class UserNotSignedUpError extends EarlierRejectionError {
  override readonly name = 'UserNotSignedUpError';
  constructor() {
    super('User is not signed up yet');
  }
}
export class NoSubscriptionError extends EarlierRejectionError {
  override readonly name = 'NoSubscriptionError';
  constructor() {
    super('No subscriptions available');
  }
}
export class InsufficientCreditsError extends EarlierRejectionError {
  override readonly name = 'InsufficientCreditsError';
  constructor() {
    super('Insufficient credits');
  }
}
export class EarlierTemplateMissingError extends EarlierRejectionError {
  override readonly name = 'EarlierTemplateMissingError';
  constructor() {
    super('Template does not exist');
  }
}
export class EarlierTemplateLanguageError extends EarlierRejectionError {
  override readonly name = 'EarlierTemplateLanguageError';
  constructor() {
    super('Invalid template language');
  }
}
export class InvalidPhoneNumberFormatError extends EarlierRejectionError {
  override readonly name = 'InvalidPhoneNumberFormatError';
  constructor() {
    super('Invalid phone number format');
  }
}
export class PricingNotAvailableError extends EarlierRejectionError {
  override readonly name = 'PricingNotAvailableError';
  constructor() {
    super('Pricing not available');
  }
}
export class RecipientLimitExceededError extends EarlierRejectionError {
  override readonly name = 'RecipientLimitExceededError';
  constructor() {
    super('Recipient limit exceeded');
  }
}
export class BroadcastNameTakenError extends EarlierRejectionError {
  override readonly name = 'BroadcastNameTakenError';
  constructor() {
    super('Broadcast with same name exists');
  }
}

/** generate-key for a number that is not onboarded or whose business account is not usable. */
export class SenderNotConnectedError extends Error {
  override readonly name = 'SenderNotConnectedError';
  constructor(phoneNumber: string) {
    super(`Phone number ${phoneNumber} was not found or is not connected to an active business account`);
  }
}

/**
 * The outbound queue refused or did not take the job's messages. Nothing of the job stays
 * recorded (it is discarded) and an Idempotency-Key is released, so retrying is safe and useful.
 */
export class OutboundQueueUnavailableError extends Error {
  override readonly name = 'OutboundQueueUnavailableError';
  constructor(options?: { cause?: unknown }) {
    super('The message queue is unavailable; nothing was queued; retry with backoff', options);
  }
}
