/**
 * The audit log's cursor: the entry after which the next page starts, opaque to clients. Any store
 * of the log reads and writes it here, so a cursor that is not one is the same 400 everywhere.
 */
import { isAuditEntryId } from './audit-entry-id';
import { InvalidAuditCursorError } from './errors';

/**
 * @example
 * decodeAuditCursor(encodeAuditCursor('aud_20261202T092028123Z_0123456789abcdef')); // the same id
 */
export const encodeAuditCursor = (entryId: string): string => Buffer.from(JSON.stringify({ e: entryId })).toString('base64url');

/** The entry id a cursor holds, or InvalidAuditCursorError. */
export function decodeAuditCursor(text: string): string {
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidAuditCursorError();
  }
  const { e } = (cursor ?? {}) as { e?: unknown };
  if (typeof e !== 'string' || !isAuditEntryId(e)) throw new InvalidAuditCursorError();
  return e;
}
