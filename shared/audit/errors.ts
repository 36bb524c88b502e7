/** Failures of the audit module. No HTTP here: shared/http/error-responses.ts maps them. */

/** A cursor of GET /audit-log this listing did not issue (or not a cursor at all). */
export class InvalidAuditCursorError extends Error {
  override readonly name = 'InvalidAuditCursorError';
  readonly code = 'INVALID_AUDIT_CURSOR';
  constructor() {
    super('cursor is not a nextCursor of the audit log; start without a cursor');
  }
}

/** Keys bound to one sender (or minted by generate-key) may not read the organization's audit log. */
export class AuditLogOutsideKeyScopeError extends Error {
  override readonly name = 'AuditLogOutsideKeyScopeError';
  readonly code = 'AUDIT_LOG_OUTSIDE_KEY_SCOPE';
  constructor() {
    super('Only organization API keys (not bound to a sender number) and admins may read the audit log');
  }
}
