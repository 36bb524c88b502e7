/** Errors of saved audiences (docs/CAMPAIGNS.md "Audiences"). No HTTP here: shared/http/error-responses.ts maps them. */

/** No audience of that id in the caller's organization (never was, deleted, or another organization's). */
export class AudienceNotFoundError extends Error {
  override readonly name = 'AudienceNotFoundError';
  readonly code = 'AUDIENCE_NOT_FOUND';
  constructor(audienceId: string) {
    super(`Audience ${audienceId} does not exist`);
  }
}

/** A write to `contacts`, the organization's v1 contacts read as an audience: they change through /v1/contacts. */
export class ContactsAudienceReadOnlyError extends Error {
  override readonly name = 'ContactsAudienceReadOnlyError';
  readonly code = 'CONTACTS_AUDIENCE_READ_ONLY';
  constructor(action: string) {
    super(`The contacts audience is the organization's v1 contacts and cannot be ${action} here; change contacts through /v1/contacts`);
  }
}

/** A listing cursor this listing did not issue (another audience, or not a cursor at all). */
export class InvalidAudienceCursorError extends Error {
  override readonly name = 'InvalidAudienceCursorError';
  readonly code = 'INVALID_AUDIENCE_CURSOR';
  constructor() {
    super('cursor is not a nextCursor of this listing; start without a cursor');
  }
}

/** A key minted by generate-key (scope `earlier-sender`) may not read or change audiences. */
export class AudienceOutsideKeyScopeError extends Error {
  override readonly name = 'AudienceOutsideKeyScopeError';
  readonly code = 'AUDIENCE_OUTSIDE_KEY_SCOPE';
  constructor() {
    super('This API key was issued by generate-key and may call only send-single, send-bulk and the status of its own jobs, not audiences');
  }
}

/** Another request is writing this audience's members (one writer at a time keeps its counts exact): retry shortly. */
export class AudienceBusyError extends Error {
  override readonly name = 'AudienceBusyError';
  readonly code = 'AUDIENCE_BUSY';
  constructor(audienceId: string) {
    super(`Another request is changing the members of audience ${audienceId}; retry in a few seconds`);
  }
}
