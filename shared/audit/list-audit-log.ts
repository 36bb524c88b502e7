/**
 * GET /audit-log (docs/PEOPLE.md "Audit log"): the caller organization's entries, newest first,
 * filtered by actor and action, paged by the log's cursor. Organization-wide readers only: an
 * admin person, or a key of the whole organization (a sender-bound key reads as a campaign manager).
 */
import type { KeyScope } from '../tenancy/tenancy-entities';
import type { AuditEntry } from './audit-entry';
import { AuditLogOutsideKeyScopeError } from './errors';
import type { AuditLog } from './ports';

export const AUDIT_LOG_PAGE_DEFAULT = 50;
export const AUDIT_LOG_PAGE_MAX = 100;

export interface AuditLogReader {
  organizationId: string;
  scope?: KeyScope;
}

export interface AuditLogQuery {
  actorId?: string;
  action?: string;
  limit: number;
  cursor?: string;
}

/** An entry as the API shows it: the organization is the caller's own, so it is left out. */
export type AuditEntryView = Omit<AuditEntry, 'organizationId'>;

export interface AuditLogView {
  entries: AuditEntryView[];
  nextCursor: string | null;
}

/**
 * @example
 * await listAuditLog(auditLog, caller, { action: 'launchCampaign', limit: 20 }); // { entries: [...], nextCursor: null }
 */
export async function listAuditLog(auditLog: AuditLog, reader: AuditLogReader, query: AuditLogQuery): Promise<AuditLogView> {
  if (reader.scope !== undefined && reader.scope.kind !== 'organization') throw new AuditLogOutsideKeyScopeError();
  const page = await auditLog.list({ organizationId: reader.organizationId, ...query, limit: Math.min(query.limit, AUDIT_LOG_PAGE_MAX) });
  const entries = page.entries.filter((entry) => entry.organizationId === reader.organizationId).map(({ organizationId: _organizationId, ...view }) => view);
  return { entries, nextCursor: page.nextCursor };
}
