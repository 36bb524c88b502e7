import type { AuditEntry } from './audit-entry';

export interface AuditQuery {
  organizationId: string;
  /** Only this person's entries (their `personId`), or this credential's (`credentialId`). */
  actorId?: string;
  /** Only this operation (`launchCampaign`). */
  action?: string;
  /** Newest first; at most this many (the adapter caps it). */
  limit: number;
  /** Opaque, from the previous page's `nextCursor`. */
  cursor?: string;
}

export interface AuditPage {
  entries: AuditEntry[];
  nextCursor: string | null;
}

/** The audit log's store: append-only per organization, read newest first. */
export interface AuditLog {
  /** Records one entry; `entryId` is the adapter's (returned). Never overwrites another entry. */
  record(entry: Omit<AuditEntry, 'entryId'>): Promise<AuditEntry>;
  list(query: AuditQuery): Promise<AuditPage>;
}
