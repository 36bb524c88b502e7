/**
 * Entry ids of the audit log: time-ordered and unique (docs/PEOPLE.md "Audit log"). One request
 * is one entry: the id is the request's time and a digest of its request id, so recording the same
 * request again (a retried write whose first attempt did land) finds its own entry instead of
 * adding a second. Every store (the DynamoDB adapter, the in-memory fake) uses these functions.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AuditEntry, AuditActor } from './audit-entry';

/** Entries are kept this long (the table's TTL; also checked on read: expiry is lazy in DynamoDB and absent in dynalite). */
export const AUDIT_RETENTION_DAYS = 400;

const ENTRY_ID = /^aud_\d{8}T\d{9}Z_[0-9a-f]{16}$/;

/** `2026-12-02T09:20:28.123Z` → `20261202T092028123Z`: sorts as the time does. */
const compactTime = (at: string): string => new Date(at).toISOString().replace(/[-:.]/g, '');

/**
 * The entry id of a request's record; `salt` only when that id is already another request's (a
 * digest collision: a fresh random suffix).
 *
 * @example
 * auditEntryIdOf('2026-12-02T09:20:28.123Z', 'req-1'); // 'aud_20261202T092028123Z_<16 hex of sha256(req-1)>'
 */
export function auditEntryIdOf(at: string, requestId: string, salt?: 'random'): string {
  const suffix = salt === 'random' ? randomBytes(8).toString('hex') : createHash('sha256').update(requestId).digest('hex').slice(0, 16);
  return `aud_${compactTime(at)}_${suffix}`;
}

/**
 * Whether a text is an entry id (what a cursor carries).
 *
 * @example
 * isAuditEntryId('aud_20261202T092028123Z_0123456789abcdef'); // true
 */
export const isAuditEntryId = (text: string): boolean => ENTRY_ID.test(text);

/**
 * The id the `actorId` filter matches: a person's `personId`, a credential's `credentialId`, `operator:<name>` for an operator.
 *
 * @example
 * actorIdOf({ kind: 'person', personId: 'psn_1', email: 'a@example.com', role: 'admin' }); // 'psn_1'
 */
export function actorIdOf(actor: AuditActor): string {
  if (actor.kind === 'person') return actor.personId;
  return actor.kind === 'credential' ? actor.credentialId : `operator:${actor.name}`;
}

/**
 * When an entry recorded at `at` expires, epoch seconds (the table's TTL attribute).
 *
 * @example
 * auditExpiresAt('2026-01-01T00:00:00.000Z'); // 1801958400 (400 days later)
 */
export const auditExpiresAt = (at: string): number => Math.floor(new Date(at).getTime() / 1000) + AUDIT_RETENTION_DAYS * 86_400;

/** Whether an entry is still kept at `now` (expired ones read as gone). */
export const isAuditEntryKept = (entry: Pick<AuditEntry, 'at'>, now: Date): boolean => auditExpiresAt(entry.at) > Math.floor(now.getTime() / 1000);
