/**
 * Saved audiences (shared/audiences/ports.ts `AudienceStore`) on the inbox table
 * (docs/DATA-MODEL.md "Inbox table"): one item per audience (`ORG#<org>#AUDIENCES`,
 * `AUDIENCE#<id>`: name, `memberCount`, `byCountry`, `deletedAt` once deleted), one partition per
 * audience of its members (`ORG#<org>#AUDIENCE#<id>`, `MEMBER#<personKey>`).
 *
 * Counts stay exact without transactions: each member is one single-item write that says whether
 * it created (or removed) the item (audience-member-items.ts), and the audience's counters get the
 * sum of those, one UpdateItem per 1,000 members written (in `finally`, so a failed page still
 * counts what it wrote).
 */
import { BatchGetCommand, DeleteCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Audience, AudienceMember } from '../../audiences/audience';
import type { AudienceDetail, AudienceStore, MemberPage, MemberUpsert, PageRequest } from '../../audiences/ports';
import { InboxStoreUnavailableError } from '../../inbox/errors';
import {
  CounterDeltas,
  deleteMember,
  inLanes,
  memberOfItem,
  MEMBER_WRITE_LANES,
  MEMBERS_PER_COUNTER_UPDATE,
  writeMember,
} from './audience-member-items';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { inboxKeys, InboxTable, toEntity, type Item } from './inbox-table';

const maxKeysPerBatchGet = 100;
const maxBatchGetRounds = 5;
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
      const page = await this.readMembers(organizationId, audienceId, { limit: Math.min(1000, maxMembers - removed), cursor });
      await inLanes(page.members, MEMBER_WRITE_LANES, async (member) => {
        if (await deleteMember(this.table, organizationId, audienceId, member.personKey)) removed += 1;
      });
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
    let added = 0;
    let updated = 0;
    for (let start = 0; start < members.length; start += MEMBERS_PER_COUNTER_UPDATE) {
      const deltas = new CounterDeltas();
      try {
        await inLanes(members.slice(start, start + MEMBERS_PER_COUNTER_UPDATE), MEMBER_WRITE_LANES, async (member) => {
          if (await writeMember(this.table, organizationId, audienceId, member)) (deltas.count(member.personKey, 1), (added += 1));
          else updated += 1;
        });
      } finally {
        await this.addToCounters(organizationId, audienceId, deltas, members[0]?.updatedAt);
      }
    }
    return { added, updated };
  }

  async removeMembers(organizationId: string, audienceId: string, personKeys: readonly string[]): Promise<{ removed: number }> {
    let removed = 0;
    const unique = [...new Set(personKeys)];
    for (let start = 0; start < unique.length; start += MEMBERS_PER_COUNTER_UPDATE) {
      const deltas = new CounterDeltas();
      try {
        await inLanes(unique.slice(start, start + MEMBERS_PER_COUNTER_UPDATE), MEMBER_WRITE_LANES, async (personKey) => {
          if (await deleteMember(this.table, organizationId, audienceId, personKey)) (deltas.count(personKey, -1), (removed += 1));
        });
      } finally {
        await this.addToCounters(organizationId, audienceId, deltas, new Date().toISOString());
      }
    }
    return { removed };
  }

  /** One UpdateItem: the member count and each calling code's count (`byCountry.<code>`, created at 0). */
  private async addToCounters(organizationId: string, audienceId: string, deltas: CounterDeltas, at: string | undefined): Promise<void> {
    if (deltas.isEmpty && at === undefined) return;
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':members': deltas.members, ':zero': 0, ':at': at ?? new Date().toISOString() };
    const sets = ['memberCount = if_not_exists(memberCount, :zero) + :members', 'updatedAt = :at'];
    [...deltas.byCountry.entries()]
      .filter(([, delta]) => delta !== 0)
      .forEach(([code, delta], index) => {
        names[`#c${index}`] = code === '' ? 'unknown' : code;
        values[`:c${index}`] = delta;
        sets.push(`byCountry.#c${index} = if_not_exists(byCountry.#c${index}, :zero) + :c${index}`);
      });
    await this.table.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: inboxKeys.audience(organizationId, audienceId),
        UpdateExpression: `SET ${sets.join(', ')}`,
        // Never recreate an audience that was purged meanwhile.
        ConditionExpression: 'attribute_exists(pk)',
        ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
        ExpressionAttributeValues: values,
      }),
    ).catch((error: unknown) => (isConditionalCheckFailure(error) ? undefined : Promise.reject(error)));
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
    const found = new Map<string, AudienceMember>();
    const unique = [...new Set(personKeys)];
    const tableName = this.table.tableName;
    for (let start = 0; start < unique.length; start += maxKeysPerBatchGet) {
      let pending: Item[] = unique.slice(start, start + maxKeysPerBatchGet).map((key) => inboxKeys.audienceMember(organizationId, audienceId, key));
      for (let round = 0; pending.length > 0; round += 1) {
        if (round >= maxBatchGetRounds) throw new InboxStoreUnavailableError('Inbox store left audience member reads unprocessed');
        const result = await this.table.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }));
        for (const item of result.Responses?.[tableName] ?? []) {
          const member = memberOfItem(item);
          found.set(member.personKey, member);
        }
        pending = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Item[];
      }
    }
    return found;
  }
}
