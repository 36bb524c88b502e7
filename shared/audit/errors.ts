/** Failures of the audit module. No HTTP here: shared/http/error-responses.ts maps them. */

/** A cursor of GET /audit-log this listing did not issue (or not a cursor at all). */
export class InvalidAuditCursorError extends Error {
  override readonly name = 'InvalidAuditCursorError';
  readonly code = 'INVALID_AUDIT_CURSOR';
  constructor() {
    super('cursor is not a nextCursor of the audit log; start without a cursor');
  }
}
