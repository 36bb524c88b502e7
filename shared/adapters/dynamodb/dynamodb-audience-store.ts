/**
 * Saved audiences (shared/audiences/ports.ts `AudienceStore`) on the inbox table
 * (docs/DATA-MODEL.md "Inbox table"): one item per audience (`ORG#<org>#AUDIENCES`,
 * `AUDIENCE#<id>`: name, `memberCount`, `byCountry`, `deletedAt` once deleted, the write lease),
 * one partition per audience of its members (`ORG#<org>#AUDIENCE#<id>`, `MEMBER#<personKey>`).
 *
 * Counts stay exact without transactions: member writes hold the audience's write lease
 * (audience-write-lease.ts), read the page's members strongly consistently, write them 25 per
 * BatchWriteItem and add to the counters exactly what was applied (audience-member-items.ts), one
 * UpdateItem per 1,000 members (in `finally`, so a failed page still counts what it wrote).
 */
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Audience, AudienceMember } from '../../audiences/audience';
import type { AudienceDetail, AudienceStore, MemberPage, MemberUpsert, PageRequest } from '../../audiences/ports';
import { applyBatchedWrites, CounterDeltas, memberOfItem, MEMBERS_PER_PAGE, mergedItem, readMembersByKey, type BatchedWrite } from './audience-member-items';
import { withWriteLease } from './audience-write-lease';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { inboxKeys, InboxTable, toEntity, type Item } from './inbox-table';

const audiencePrefix = 'AUDIENCE#';
const memberPrefix = 'MEMBER#';

const audienceOfItem = (item: Item): AudienceDetail => {
  const entity = toEntity<Record<string, unknown>>(item)!;
  const byCountry = Object.fromEntries(Object.entries((entity.byCountry ?? {}) as Record<string, number>).filter(([, count]) => Number(count) > 0));
  return {
    audienceId: String(entity.audienceId),
    organizationId: String(entity.organizationId),
    name: String(entity.name),
    memberCount: Math.max(0, Number(entity.memberCount ?? 0)),
    byCountry,
    createdAt: String(entity.createdAt),
    updatedAt: String(entity.updatedAt),
  };
};

export class DynamoDbAudienceStore implements AudienceStore {
  private readonly table: InboxTable;

  constructor(documentClient: DynamoDBDocumentClient, tableName: string) {
    this.table = new InboxTable(documentClient, tableName);
  }

  async createAudience(audience: Audience): Promise<void> {
    await this.table.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: { ...inboxKeys.audience(audience.organizationId, audience.audienceId), entity: 'audience', ...audience, byCountry: {} },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getAudience(organizationId: string, audienceId: string): Promise<Audience | undefined> {
    const detail = await this.getAudienceDetail(organizationId, audienceId);
    if (!detail) return undefined;
    const { byCountry: _byCountry, ...audience } = detail;
    return audience;
  }

  async getAudienceDetail(organizationId: string, audienceId: string): Promise<AudienceDetail | undefined> {
    const item = await this.table.get(inboxKeys.audience(organizationId, audienceId));
    return item && item.deletedAt === undefined ? audienceOfItem(item) : undefined;
  }

  async listAudiences(organizationId: string, page: PageRequest): Promise<{ audiences: Audience[]; nextCursor?: string }> {
    const audiences: Audience[] = [];
    let startKey: Item | undefined = page.cursor === undefined ? undefined : inboxKeys.audience(organizationId, page.cursor);
    do {
      const result = await this.table.send(
        new QueryCommand({
          ...this.table.partitionQuery(inboxKeys.audience(organizationId, '').pk, audiencePrefix),
          ExclusiveStartKey: startKey,
          // One more than the page: whether another page follows is known without an empty last page.
          // Deleted audiences awaiting their purge are skipped, so a page may need more than one read.
          Limit: page.limit + 1 - audiences.length,
          FilterExpression: 'attribute_not_exists(deletedAt)',
        }),
      );
      for (const item of result.Items ?? []) audiences.push(this.withoutCounts(item));
      startKey = result.LastEvaluatedKey;
    } while (startKey && audiences.length <= page.limit);
    if (audiences.length <= page.limit) return { audiences };
    const kept = audiences.slice(0, page.limit);
    return { audiences: kept, nextCursor: kept.at(-1)!.audienceId };
  }

  private withoutCounts(item: Item): Audience {
    const { byCountry: _byCountry, ...audience } = audienceOfItem(item);
    return audience;
  }

  async deleteAudience(organizationId: string, audienceId: string): Promise<boolean> {
    try {
      await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: inboxKeys.audience(organizationId, audienceId),
          UpdateExpression: 'SET deletedAt = :now',
          ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt)',
          ExpressionAttributeValues: { ':now': new Date().toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }

  async purgeDeletedMembers(organizationId: string, audienceId: string, maxMembers: number): Promise<{ removed: number; done: boolean } | undefined> {
    const key = inboxKeys.audience(organizationId, audienceId);
    const item = await this.table.get(key);
    if (!item || item.deletedAt === undefined) return undefined;
    let removed = 0;
    let cursor: string | undefined;
    do {
      const page = await this.readMembers(organizationId, audienceId, { limit: Math.min(MEMBERS_PER_PAGE, maxMembers - removed), cursor });
      const deletes = page.members.map(
        (member): BatchedWrite => ({
          request: { DeleteRequest: { Key: inboxKeys.audienceMember(organizationId, audienceId, member.personKey) } },
          applied: () => void (removed += 1),
        }),
      );
      await applyBatchedWrites(this.table, deletes);
      cursor = page.nextCursor;
      if (cursor === undefined) {
        // Nothing left: the mark goes.
        await this.deleteMark(key);
        return { removed, done: true };
      }
    } while (removed < maxMembers);
    return { removed, done: false };
  }

  /** Deletes the mark of a deleted audience (only while it is one). */
  private async deleteMark(key: Item): Promise<void> {
    try {
      await this.table.send(new DeleteCommand({ TableName: this.table.tableName, Key: key, ConditionExpression: 'attribute_exists(deletedAt)' }));
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  async upsertMembers(organizationId: string, audienceId: string, members: readonly MemberUpsert[]): Promise<{ added: number; updated: number }> {
    const counts = { added: 0, updated: 0 };
    await withWriteLease(this.table, organizationId, audienceId, async () => {
      for (let start = 0; start < members.length; start += MEMBERS_PER_PAGE) {
        const page = members.slice(start, start + MEMBERS_PER_PAGE);
        const stored = await readMembersByKey(
          this.table,
          organizationId,
          audienceId,
          page.map((member) => member.personKey),
        );
        const deltas = new CounterDeltas();
        const writes = page.map((member): BatchedWrite => {
          const before = stored.get(member.personKey);
          const applied = before ? () => void (counts.updated += 1) : () => (deltas.count(member.personKey, 1), (counts.added += 1));
          return { request: { PutRequest: { Item: mergedItem(organizationId, audienceId, before, member) } }, applied };
        });
        try {
          await applyBatchedWrites(this.table, writes);
        } finally {
          await this.addToCounters(organizationId, audienceId, deltas, page[0]!.updatedAt);
        }
      }
    });
    return counts;
  }

  async removeMembers(organizationId: string, audienceId: string, personKeys: readonly string[]): Promise<{ removed: number }> {
    let removed = 0;
    const unique = [...new Set(personKeys)];
    await withWriteLease(this.table, organizationId, audienceId, async () => {
      for (let start = 0; start < unique.length; start += MEMBERS_PER_PAGE) {
        const stored = await readMembersByKey(this.table, organizationId, audienceId, unique.slice(start, start + MEMBERS_PER_PAGE));
        const deltas = new CounterDeltas();
        const deletes = [...stored.keys()].map(
          (personKey): BatchedWrite => ({
            request: { DeleteRequest: { Key: inboxKeys.audienceMember(organizationId, audienceId, personKey) } },
            applied: () => (deltas.count(personKey, -1), (removed += 1)),
          }),
        );
        try {
          await applyBatchedWrites(this.table, deletes);
        } finally {
          await this.addToCounters(organizationId, audienceId, deltas, new Date().toISOString());
        }
      }
    });
    return { removed };
  }

  /** One UpdateItem: the member count and each calling code's count (`byCountry.<code>`, created at 0). */
  private async addToCounters(organizationId: string, audienceId: string, deltas: CounterDeltas, at: string): Promise<void> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':members': deltas.members, ':zero': 0, ':at': at };
    const sets = ['memberCount = if_not_exists(memberCount, :zero) + :members', 'updatedAt = :at'];
    [...deltas.byCountry.entries()]
      .filter(([, delta]) => delta !== 0)
      .forEach(([code, delta], index) => {
        names[`#c${index}`] = code;
        values[`:c${index}`] = delta;
        sets.push(`byCountry.#c${index} = if_not_exists(byCountry.#c${index}, :zero) + :c${index}`);
      });
    await this.table
      .send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: inboxKeys.audience(organizationId, audienceId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          // Never recreate an audience that was purged meanwhile.
          ConditionExpression: 'attribute_exists(pk)',
          ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: values,
        }),
      )
      .catch((error: unknown) => (isConditionalCheckFailure(error) ? undefined : Promise.reject(error)));
  }

  async readMembers(organizationId: string, audienceId: string, page: PageRequest): Promise<MemberPage> {
    const pk = inboxKeys.audienceMember(organizationId, audienceId, '').pk;
    const result = await this.table.send(
      new QueryCommand({
        ...this.table.partitionQuery(pk, memberPrefix),
        ScanIndexForward: true,
        // One more than the page: whether another page follows is known without an empty last page.
        Limit: page.limit + 1,
        ...(page.cursor === undefined ? {} : { ExclusiveStartKey: inboxKeys.audienceMember(organizationId, audienceId, page.cursor) }),
      }),
    );
    const members = (result.Items ?? []).map(memberOfItem);
    // Fewer than asked with a key to go on: the 1 MB a Query returns at most cut the page short.
    if (members.length <= page.limit) return result.LastEvaluatedKey && members.length > 0 ? { members, nextCursor: members.at(-1)!.personKey } : { members };
    const kept = members.slice(0, page.limit);
    return { members: kept, nextCursor: kept.at(-1)!.personKey };
  }

  async membersAmong(organizationId: string, audienceId: string, personKeys: readonly string[]): Promise<Map<string, AudienceMember>> {
    return readMembersByKey(this.table, organizationId, audienceId, [...new Set(personKeys)]);
  }
}
