/**
 * The audit log in its own table (keys and item shape: audit-items.ts). Recording is one
 * conditional put that never replaces another request's entry; reading is a Query newest first on
 * the organization's partition or one of its two indexes (an actor's, an action's), expired entries
 * filtered out (dynalite has no TTL; DynamoDB's is lazy).
 */
import { PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { auditEntryIdOf } from '../../audit/audit-entry-id';
import type { AuditEntry } from '../../audit/audit-entry';
import { decodeAuditCursor, encodeAuditCursor } from '../../audit/audit-cursor';
import type { AuditLog, AuditPage, AuditQuery } from '../../audit/ports';
import { systemClock, type Clock } from '../../ports/clock';
import { auditItem, auditListingKeys, decodeAuditEntry, type AuditListing } from './audit-items';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';

/** Entries one page reads at most when both filters apply (one is an index, the other a filter). */
const FILTERED_READ = 100;
/** Query calls of one page at most: a page whose filter matches rarely ends short, with a cursor. */
const MAX_READS_PER_PAGE = 10;
/** The largest page (the route allows 100). */
export const AUDIT_PAGE_MAX = 100;

export class DynamoDbAuditLog implements AuditLog {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock = systemClock,
  ) {
    classifyStoreFaults(client);
  }

  async record(fields: Omit<AuditEntry, 'entryId'>): Promise<AuditEntry> {
    const entry: AuditEntry = { ...fields, entryId: auditEntryIdOf(fields.at, fields.requestId) };
    // The request's own entry (a retried write that landed the first time) is rewritten as it was; another request's never.
    if (await this.put(entry, 'attribute_not_exists(pk) OR requestId = :requestId')) return entry;
    const salted: AuditEntry = { ...fields, entryId: auditEntryIdOf(fields.at, fields.requestId, 'random') };
    if (await this.put(salted, 'attribute_not_exists(pk)')) return salted;
    throw new Error(`Audit entry ids ${entry.entryId} and ${salted.entryId} are both taken`);
  }

  async list(query: AuditQuery): Promise<AuditPage> {
    const limit = Math.max(1, Math.min(query.limit, AUDIT_PAGE_MAX));
    const listing: AuditListing =
      query.actorId !== undefined
        ? { index: 'gsi1', actorId: query.actorId }
        : query.action !== undefined
          ? { index: 'gsi2', action: query.action }
          : { index: undefined };
    const keys = auditListingKeys(query.organizationId, listing);
    const actionFilter = listing.index === 'gsi1' && query.action !== undefined;
    const values: Record<string, unknown> = { ':pk': keys.value, ':now': Math.floor(this.clock.now().getTime() / 1000) };
    if (actionFilter) values[':action'] = query.action;
    let after = query.cursor === undefined ? undefined : decodeAuditCursor(query.cursor);
    const entries: AuditEntry[] = [];
    for (let reads = 0; reads < MAX_READS_PER_PAGE; reads += 1) {
      const wanted = limit - entries.length;
      const page = await this.client.send(
        new QueryCommand({
          TableName: this.tableName,
          ...(listing.index === undefined ? {} : { IndexName: listing.index }),
          KeyConditionExpression: `${keys.name} = :pk`,
          FilterExpression: actionFilter ? 'expiresAt > :now AND #action = :action' : 'expiresAt > :now',
          ...(actionFilter ? { ExpressionAttributeNames: { '#action': 'action' } } : {}),
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          Limit: actionFilter ? Math.max(wanted, FILTERED_READ) : wanted,
          ...(after === undefined ? {} : { ExclusiveStartKey: keys.startKey(after) }),
        }),
      );
      const items = (page.Items ?? []).map(decodeAuditEntry);
      entries.push(...items.slice(0, wanted));
      // Cut inside this page: the next one starts after the last entry kept; else after the last item read.
      if (items.length > wanted) return { entries, nextCursor: encodeAuditCursor(entries.at(-1)!.entryId) };
      const lastRead = page.LastEvaluatedKey?.sk;
      if (typeof lastRead !== 'string') return { entries, nextCursor: null };
      after = lastRead;
      if (entries.length >= limit) break;
    }
    return { entries, nextCursor: encodeAuditCursor(after!) };
  }

  /** True when written; false when the id is another request's entry. */
  private async put(entry: AuditEntry, condition: string): Promise<boolean> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: auditItem(entry),
          ConditionExpression: condition,
          ...(condition.includes(':requestId') ? { ExpressionAttributeValues: { ':requestId': entry.requestId } } : {}),
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      return false;
    }
  }
}
