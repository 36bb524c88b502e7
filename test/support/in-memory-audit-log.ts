import { actorIdOf, auditEntryIdOf, isAuditEntryKept } from '../../shared/audit/audit-entry-id';
import type { AuditEntry } from '../../shared/audit/audit-entry';
import { decodeAuditCursor, encodeAuditCursor } from '../../shared/audit/audit-cursor';
import type { AuditLog, AuditPage, AuditQuery } from '../../shared/audit/ports';
import { systemClock, type Clock } from '../../shared/ports/clock';

const clone = <T>(value: T): T => structuredClone(value);

/** The audit log in memory, with the DynamoDB adapter's semantics (one entry per request, newest first, expiry on read). */
export class InMemoryAuditLog implements AuditLog {
  readonly entries = new Map<string, AuditEntry>();
  /** Set to make every `record` fail (a store outage) with this error. */
  failWith: Error | undefined;
  recordCalls = 0;

  constructor(private readonly clock: Clock = systemClock) {}

  async record(fields: Omit<AuditEntry, 'entryId'>): Promise<AuditEntry> {
    this.recordCalls += 1;
    if (this.failWith) throw this.failWith;
    let entry: AuditEntry = { ...clone(fields), entryId: auditEntryIdOf(fields.at, fields.requestId) };
    const taken = this.entries.get(this.keyOf(entry));
    if (taken && taken.requestId !== entry.requestId) entry = { ...entry, entryId: auditEntryIdOf(fields.at, fields.requestId, 'random') };
    this.entries.set(this.keyOf(entry), entry);
    return clone(entry);
  }

  async list(query: AuditQuery): Promise<AuditPage> {
    const after = query.cursor === undefined ? undefined : decodeAuditCursor(query.cursor);
    const now = this.clock.now();
    const matching = [...this.entries.values()]
      .filter((entry) => entry.organizationId === query.organizationId && isAuditEntryKept(entry, now))
      .filter(
        (entry) => (query.actorId === undefined || actorIdOf(entry.actor) === query.actorId) && (query.action === undefined || entry.action === query.action),
      )
      .filter((entry) => after === undefined || entry.entryId < after)
      .sort((a, b) => b.entryId.localeCompare(a.entryId));
    const page = matching.slice(0, query.limit).map(clone);
    return { entries: page, nextCursor: matching.length > query.limit ? encodeAuditCursor(page.at(-1)!.entryId) : null };
  }

  private keyOf(entry: AuditEntry): string {
    return `${entry.organizationId}|${entry.entryId}`;
  }
}
