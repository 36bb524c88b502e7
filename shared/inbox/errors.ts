/**
 * Failures of the inbox (generic v1 API). Domain terms only; the HTTP error table gives each a
 * status and a stable code (CONTACT_NOT_FOUND, CONTACT_ALREADY_EXISTS, …).
 */

export class ContactNotFoundError extends Error {
  override readonly name = 'ContactNotFoundError';
  readonly code = 'CONTACT_NOT_FOUND';
  constructor(readonly contactId: string) {
    super(`Contact ${contactId} does not exist`);
  }
}

export class ConversationNotFoundError extends Error {
  override readonly name = 'ConversationNotFoundError';
  readonly code = 'CONVERSATION_NOT_FOUND';
  constructor(readonly conversationId: string) {
    super(`Conversation ${conversationId} does not exist`);
  }
}

/** The number is not one of the organization's connected sender numbers. */
export class SenderNotFoundError extends Error {
  override readonly name = 'SenderNotFoundError';
  readonly code = 'SENDER_NOT_FOUND';
  constructor(readonly phoneNumber: string) {
    super(`Phone number ${phoneNumber} is not a sender of this organization`);
  }
}

/** Phone numbers are unique per organization. */
export class ContactAlreadyExistsError extends Error {
  override readonly name = 'ContactAlreadyExistsError';
  readonly code = 'CONTACT_ALREADY_EXISTS';
  constructor(
    readonly phoneNumber: string,
    readonly existingContactId: string,
  ) {
    super(`A contact with phone number ${phoneNumber} already exists: ${existingContactId}`);
  }
}

/** At most one open conversation per sender number and contact. */
export class ConversationAlreadyOpenError extends Error {
  override readonly name = 'ConversationAlreadyOpenError';
  readonly code = 'CONVERSATION_ALREADY_OPEN';
  constructor(readonly openConversationId: string) {
    super(`This sender already has an open conversation with the contact: ${openConversationId}`);
  }
}

/** The inbox table timed out or could not be reached. Transient; worth a retry. */
export class InboxStoreUnavailableError extends Error {
  override readonly name = 'InboxStoreUnavailableError';
  readonly code = 'INBOX_STORE_UNAVAILABLE';
}

/**
 * A concurrent writer holds the claim of a contact or conversation an inbound message needs and has
 * not written the record yet, even after short waits. Transient: the webhook batch is redelivered and
 * applied again (a claim whose writer died is taken over after 60 s).
 */
export class InboxRecordPendingError extends Error {
  override readonly name = 'InboxRecordPendingError';
  readonly code = 'INBOX_RECORD_PENDING';
  constructor(readonly record: 'contact' | 'conversation') {
    super(`The ${record} of an inbound message is being created by a concurrent writer; apply the message again later`);
  }
}

/** The number is not on the organization's suppression list. */
export class OptOutNotFoundError extends Error {
  override readonly name = 'OptOutNotFoundError';
  readonly code = 'OPT_OUT_NOT_FOUND';
  constructor(readonly phoneNumber: string) {
    super(`Phone number ${phoneNumber} is not on the opt-out list`);
  }
}
