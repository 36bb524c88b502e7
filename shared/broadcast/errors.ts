/** Failures of the broadcast module. No HTTP here: shared/http/error-responses.ts maps them. */

export class DuplicateRecipientError extends Error {
  override readonly name = 'DuplicateRecipientError';
  readonly code = 'DUPLICATE_RECIPIENT';
  constructor(
    readonly index: number,
    readonly firstIndex: number,
  ) {
    super(`data[${index}] duplicates data[${firstIndex}]: each recipient may appear once; nothing was queued`);
  }
}

export class RecipientNumberError extends Error {
  override readonly name = 'RecipientNumberError';
  readonly code = 'RECIPIENT_NUMBER';
}

/** A template Meta does not send to a business-scoped user id (its error 131062), named with the recipient's index. */
export class UserIdNotSupportedError extends Error {
  override readonly name = 'UserIdNotSupportedError';
  readonly code = 'TEMPLATE_NOT_SENDABLE_TO_USER_ID';
}

/** A MARKETING template to a US recipient while Meta's US marketing pause holds (us-marketing-guard.ts), named with the recipient's index and field. */
export class UsMarketingPausedError extends Error {
  override readonly name = 'UsMarketingPausedError';
  readonly code = 'US_MARKETING_PAUSED';
}

/** The sender number is not one of the organization's (or not the one the key is bound to). */
export class SenderNotOwnedError extends Error {
  override readonly name = 'SenderNotOwnedError';
  readonly code = 'SENDER_NOT_OWNED';
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
  readonly code = 'OPERATION_OUTSIDE_KEY_SCOPE';
  constructor(operation: string) {
    super(`This API key was issued by generate-key and may call only send-single, send-bulk and the status of its own jobs, not ${operation}`);
  }
}

/** The business account behind a sender lacks what sending needs; the message names the fields. */
export class BusinessAccountIncompleteError extends Error {
  override readonly name = 'BusinessAccountIncompleteError';
  readonly code = 'BUSINESS_ACCOUNT_INCOMPLETE';
  constructor(readonly missingFields: readonly string[]) {
    super(`Business account configuration is incomplete: missing ${missingFields.join(', ')}`);
  }
}

export class NoBusinessAccountError extends Error {
  override readonly name = 'NoBusinessAccountError';
  readonly code = 'NO_BUSINESS_ACCOUNT';
  constructor() {
    super('No business account is connected to this organization');
  }
}

/**
 * A free-form message to a customer whose 24-hour customer-service window is known to be closed:
 * Meta would refuse it (131047). Refused before anything is recorded or sent.
 */
export class OutsideServiceWindowError extends Error {
  override readonly name = 'OutsideServiceWindowError';
  readonly code = 'OUTSIDE_SERVICE_WINDOW';
  constructor() {
    super(
      "toPhoneNumber has not written to fromPhoneNumber in the last 24 hours: free-form messages are allowed only within 24 hours of the customer's last message; send an approved template instead",
    );
  }
}

export class TemplateNotFoundError extends Error {
  override readonly name = 'TemplateNotFoundError';
  readonly code = 'TEMPLATE_NOT_FOUND';
}

export class TemplateNotApprovedError extends Error {
  override readonly name = 'TemplateNotApprovedError';
  readonly code = 'TEMPLATE_NOT_APPROVED';
}

export class TemplateMismatchError extends Error {
  override readonly name = 'TemplateMismatchError';
  readonly code = 'TEMPLATE_MISMATCH';
}

export class TemplateParameterCountError extends Error {
  override readonly name = 'TemplateParameterCountError';
  readonly code = 'TEMPLATE_PARAMETER_COUNT';
}

export class JobNotFoundError extends Error {
  override readonly name = 'JobNotFoundError';
  readonly code = 'JOB_NOT_FOUND';
  constructor(jobId: string) {
    super(`Job ${jobId} does not exist`);
  }
}

/** A listing cursor (recipients, broadcasts) that this listing did not issue: other filters, or not a cursor at all. */
export class InvalidListCursorError extends Error {
  override readonly name = 'InvalidListCursorError';
  readonly code = 'INVALID_CURSOR';
  constructor(sameWhat: string) {
    super(`cursor is not a nextCursor of this listing (${sameWhat}); start without a cursor`);
  }
}

/** A cancel of a job whose every chunk is done: there is nothing left to stop. */
export class JobAlreadyFinishedError extends Error {
  override readonly name = 'JobAlreadyFinishedError';
  readonly code = 'JOB_ALREADY_FINISHED';
  constructor(jobId: string, status: string, action: 'cancelled' | 'paused' = 'cancelled') {
    super(`Job ${jobId} has already finished (${status}); only a queued or running job can be ${action}`);
  }
}

/** A resume of a job that is not held until resumed (not paused, or a template pause, which ends by itself). */
export class JobNotResumableError extends Error {
  override readonly name = 'JobNotResumableError';
  readonly code = 'JOB_NOT_PAUSED';
  constructor(jobId: string, status: string, templatePause: boolean) {
    super(
      templatePause
        ? `Job ${jobId} is paused because Meta paused its template; it resumes by itself when Meta approves the template again`
        : `Job ${jobId} is not paused (${status}); only a job Meta's refusal of the account paused can be resumed`,
    );
  }
}

/** Said as 401 by the contract, without confirming whose job it is. */
export class JobOfAnotherOrganizationError extends Error {
  override readonly name = 'JobOfAnotherOrganizationError';
  readonly code = 'JOB_OF_ANOTHER_ORGANIZATION';
  constructor() {
    super('This job belongs to another organization');
  }
}

export class IdempotencyKeyInProgressError extends Error {
  override readonly name = 'IdempotencyKeyInProgressError';
  readonly code = 'IDEMPOTENCY_KEY_IN_PROGRESS';
  constructor() {
    super('A request with this Idempotency-Key is still being processed; retry after it completes');
  }
}

export class IdempotencyKeyReusedError extends Error {
  override readonly name = 'IdempotencyKeyReusedError';
  readonly code = 'IDEMPOTENCY_KEY_REUSED';
  constructor() {
    super('This Idempotency-Key was already used with a different request body; use a new key for a new broadcast');
  }
}

/**
 * The Idempotency-Key names a job accepted longer ago than the key's window (48 h): its record is
 * gone, so this is not a retry but the same key used again, and the earlier job is named instead of
 * being answered as if this request were queued (docs/BROADCAST.md "Idempotency-Key").
 */
export class IdempotencyKeyExpiredError extends Error {
  override readonly name = 'IdempotencyKeyExpiredError';
  readonly code = 'IDEMPOTENCY_KEY_EXPIRED';
  constructor(
    readonly earlierJobId: string,
    /** When the earlier job was accepted (ISO). */
    readonly earlierAcceptedAt: string,
    windowHours: number,
  ) {
    super(
      `This Idempotency-Key was already used for job ${earlierJobId}, accepted at ${earlierAcceptedAt}; a key can be retried for ${windowHours} hours only. ` +
        'Nothing was queued: use a new key to send this broadcast again',
    );
  }

  /** What the answer carries besides the message (data.error.earlierJob). */
  get details(): { earlierJob: { jobId: string; acceptedAt: string } } {
    return { earlierJob: { jobId: this.earlierJobId, acceptedAt: this.earlierAcceptedAt } };
  }
}

export class InvalidIdempotencyKeyError extends Error {
  override readonly name = 'InvalidIdempotencyKeyError';
  readonly code = 'INVALID_IDEMPOTENCY_KEY';
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
  readonly code: string = 'EARLIER_REJECTION';
}
export class UserNotSignedUpError extends EarlierRejectionError {
  override readonly name = 'UserNotSignedUpError';
  override readonly code = 'USER_NOT_SIGNED_UP';
  constructor() {
    super('User is not signed up yet');
  }
}
export class NoSubscriptionError extends EarlierRejectionError {
  override readonly name = 'NoSubscriptionError';
  override readonly code = 'NO_SUBSCRIPTION';
  constructor() {
    super('No subscriptions available');
  }
}
export class InsufficientCreditsError extends EarlierRejectionError {
  override readonly name = 'InsufficientCreditsError';
  override readonly code = 'INSUFFICIENT_CREDITS';
  constructor() {
    super('Insufficient credits');
  }
}
export class EarlierTemplateMissingError extends EarlierRejectionError {
  override readonly name = 'EarlierTemplateMissingError';
  override readonly code = 'EARLIER_TEMPLATE_MISSING';
  constructor() {
    super('Template does not exist');
  }
}
export class EarlierTemplateLanguageError extends EarlierRejectionError {
  override readonly name = 'EarlierTemplateLanguageError';
  override readonly code = 'EARLIER_TEMPLATE_LANGUAGE';
  constructor() {
    super('Invalid template language');
  }
}
export class InvalidPhoneNumberFormatError extends EarlierRejectionError {
  override readonly name = 'InvalidPhoneNumberFormatError';
  override readonly code = 'INVALID_PHONE_NUMBER_FORMAT';
  /** The field and the rule it breaks (the contract's message stays as it is; they ride beside it). */
  constructor(private readonly issue?: { field: string; rule: string }) {
    super('Invalid phone number format');
  }

  /** What the answer carries besides the message (data.error.field, data.error.rule). */
  get details(): { field: string; rule: string } | undefined {
    return this.issue === undefined ? undefined : { field: this.issue.field, rule: this.issue.rule };
  }
}
export class PricingNotAvailableError extends EarlierRejectionError {
  override readonly name = 'PricingNotAvailableError';
  override readonly code = 'PRICING_NOT_AVAILABLE';
  constructor() {
    super('Pricing not available');
  }
}
export class RecipientLimitExceededError extends EarlierRejectionError {
  override readonly name = 'RecipientLimitExceededError';
  override readonly code = 'RECIPIENT_LIMIT_EXCEEDED';
  constructor() {
    super('Recipient limit exceeded');
  }
}
export class BroadcastNameTakenError extends EarlierRejectionError {
  override readonly name = 'BroadcastNameTakenError';
  override readonly code = 'BROADCAST_NAME_TAKEN';
  constructor() {
    super('Broadcast with same name exists');
  }
}

/** generate-key for a number that is not onboarded or whose business account is not usable. */
export class SenderNotConnectedError extends Error {
  override readonly name = 'SenderNotConnectedError';
  readonly code = 'SENDER_NOT_CONNECTED';
  constructor(phoneNumber: string) {
    super(`Phone number ${phoneNumber} was not found or is not connected to an active business account`);
  }
}

/**
 * The outbound queue did not take all of the job's messages. Some may be queued (and sending): the
 * job is kept with its ledger and an Idempotency-Key is released, so a retry with the same key
 * lands on the same job, queues it again and the ledger sends nobody twice (job-fan-out.ts).
 */
export class OutboundQueueUnavailableError extends Error {
  override readonly name = 'OutboundQueueUnavailableError';
  readonly code = 'OUTBOUND_QUEUE_UNAVAILABLE';
  constructor(options?: { cause?: unknown }) {
    super('The message queue did not take every message of the job; retry with backoff and the same Idempotency-Key', options);
  }
}

/**
 * A broadcast would take its business portfolio past Meta's messaging limit (unique recipients
 * per moving 24 h, docs/BROADCAST.md "Messaging limits"). Refused at accept time; nothing queued.
 */
export class MessagingLimitExceededError extends Error {
  override readonly name = 'MessagingLimitExceededError';
  readonly code = 'MESSAGING_LIMIT_EXCEEDED';
  constructor(
    readonly businessId: string,
    readonly tier: string,
    readonly limit: number,
    readonly alreadyReached: number,
    readonly newRecipients: number,
  ) {
    super(
      `This broadcast would bring business portfolio ${businessId} to ${alreadyReached + newRecipients} unique recipients in a moving 24 hours ` +
        `(${alreadyReached} already reached, ${newRecipients} new); its messaging limit (${tier}) is ${limit}. ` +
        `Nothing was queued: send to at most ${Math.max(0, limit - alreadyReached)} new recipients, or later`,
    );
  }
}

/** A stored reach bucket that is not a serialized reach sketch (reach-sketch.ts): an internal fault, a 500. */
export class MalformedReachSketchError extends Error {
  override readonly name = 'MalformedReachSketchError';
  readonly code = 'MALFORMED_REACH_SKETCH';
}

/** `scheduledAt` outside its window (at least the minimum lead, at most 35 days ahead); the message names the rule. */
export class ScheduledAtError extends Error {
  override readonly name = 'ScheduledAtError';
  readonly code = 'SCHEDULED_AT';
}

/** A follow-up that reaches nobody, or whose parent cannot be followed up (docs/BROADCAST.md "Follow-ups"). */
export class FollowUpAudienceError extends Error {
  override readonly name = 'FollowUpAudienceError';
  readonly code = 'FOLLOW_UP_AUDIENCE';
}

/** A follow-up to 131049 failures younger than 24 hours without `force` (Meta's per-user marketing limit would refuse them again). */
export class FollowUpTooSoonError extends Error {
  override readonly name = 'FollowUpTooSoonError';
  readonly code = 'FOLLOW_UP_TOO_SOON';
}
