/**
 * Audience member items of the inbox table (keys `audienceMember` in inbox-table.ts): the item ↔
 * member mapping, the merge of an upsert into what is stored, the batched reads and writes of a page
 * of members, and the counter deltas a page adds to its audience (count and count by calling code).
 *
 * Writes are BatchWriteItem puts and deletes (one write unit per member item up to 1 KB): the
 * audience's write lease (audience-write-lease.ts) makes its writer the only one, so what a strongly
 * consistent BatchGet saw present is exactly what the writes add to or remove from the counts.
 */
import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { AttributeValue, AudienceMember } from '../../audiences/audience';
import type { MemberUpsert } from '../../audiences/ports';
import { InboxStoreUnavailableError } from '../../inbox/errors';
import { callingCodeOf } from '../../recipients/calling-code';
import { inboxKeys, toEntity, type InboxTable, type Item } from './inbox-table';

/** Members read, written and counted together: one counter update per page. */
export const MEMBERS_PER_PAGE = 1_000;
const maxKeysPerBatchGet = 100;
const maxItemsPerBatchWrite = 25;
const maxBatchRounds = 8;
/** Batch calls in flight at once while writing a page. */
const batchLanes = 8;

/** Changes of an audience's counters over a page of member writes. */
export class CounterDeltas {
  members = 0;
  readonly byCountry = new Map<string, number>();

  /** One member added (+1) or removed (-1) under this person key. */
  count(personKey: string, delta: 1 | -1): void {
    this.members += delta;
    const code = callingCodeOf(personKey) ?? 'unknown';
    this.byCountry.set(code, (this.byCountry.get(code) ?? 0) + delta);
  }
}

/** The member of a stored item (attributes and tags always present). */
export function memberOfItem(item: Item): AudienceMember {
  const entity = toEntity<Record<string, unknown>>(item)!;
  return {
    personKey: String(entity.personKey),
    to: String(entity.to),
    countryCode: String(entity.countryCode ?? ''),
    toPhoneNumber: String(entity.toPhoneNumber ?? ''),
    ...(typeof entity.userId === 'string' ? { userId: entity.userId } : {}),
    attributes: (entity.attributes ?? {}) as Record<string, AttributeValue>,
    tags: (entity.tags ?? []) as string[],
    updatedAt: String(entity.updatedAt),
  };
}

/**
 * The item an upsert leaves: the fields it gives replace the stored ones, the rest are kept; a
 * number learned from the contact book (`numberFromPair`) only fills a member stored without one.
 */
export function mergedItem(organizationId: string, audienceId: string, stored: AudienceMember | undefined, upsert: MemberUpsert): Item {
  const { numberFromPair, attributes, tags, ...fields } = upsert;
  // A field given as undefined is a field not given.
  const given = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as typeof fields;
  const keepNumber = numberFromPair === true && stored !== undefined && stored.countryCode !== '';
  const number = keepNumber ? { to: stored.to, countryCode: stored.countryCode, toPhoneNumber: stored.toPhoneNumber } : {};
  const member: AudienceMember = { ...stored, ...given, ...number, attributes: attributes ?? stored?.attributes ?? {}, tags: tags ?? stored?.tags ?? [] };
  if (member.userId === undefined) delete member.userId;
  return { ...inboxKeys.audienceMember(organizationId, audienceId, member.personKey), entity: 'audience-member', ...member };
}

/** Runs `work` over `items` with at most `lanes` calls in flight. */
export async function inLanes<T>(items: readonly T[], lanes: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next]!;
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, items.length) }, lane));
}

/** The stored members among the person keys (strongly consistent BatchGets of 100), by person key. */
export async function readMembersByKey(
  table: InboxTable,
  organizationId: string,
  audienceId: string,
  personKeys: readonly string[],
): Promise<Map<string, AudienceMember>> {
  const found = new Map<string, AudienceMember>();
  const tableName = table.tableName;
  const batches: Item[][] = [];
  for (let start = 0; start < personKeys.length; start += maxKeysPerBatchGet) {
    batches.push(personKeys.slice(start, start + maxKeysPerBatchGet).map((key) => inboxKeys.audienceMember(organizationId, audienceId, key)));
  }
  await inLanes(batches, batchLanes, async (keys) => {
    let pending = keys;
    for (let round = 0; pending.length > 0; round += 1) {
      if (round >= maxBatchRounds) throw new InboxStoreUnavailableError('Inbox store left audience member reads unprocessed');
      const result = await table.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of result.Responses?.[tableName] ?? []) {
        const member = memberOfItem(item);
        found.set(member.personKey, member);
      }
      pending = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Item[];
    }
  });
  return found;
}

/** A put of an item or a delete of a key, and what to call once DynamoDB has applied it. */
export interface BatchedWrite {
  request: { PutRequest: { Item: Item } } | { DeleteRequest: { Key: Item } };
  applied: () => void;
}

/**
 * Applies the writes in BatchWriteItem calls of 25 (unprocessed items sent again), calling each
 * write's `applied` once DynamoDB took it: a failure part-way leaves exactly the applied ones counted.
 */
export async function applyBatchedWrites(table: InboxTable, writes: readonly BatchedWrite[]): Promise<void> {
  const batches: BatchedWrite[][] = [];
  for (let start = 0; start < writes.length; start += maxItemsPerBatchWrite) batches.push(writes.slice(start, start + maxItemsPerBatchWrite));
  const tableName = table.tableName;
  await inLanes(batches, batchLanes, async (batch) => {
    let pending = batch;
    for (let round = 0; pending.length > 0; round += 1) {
      if (round >= maxBatchRounds) throw new InboxStoreUnavailableError('Inbox store left audience member writes unprocessed');
      const result = await table.send(new BatchWriteCommand({ RequestItems: { [tableName]: pending.map((write) => write.request) } }));
      const unprocessed = new Set((result.UnprocessedItems?.[tableName] ?? []).map((request) => keyOf(request as BatchedWrite['request'])));
      for (const write of pending) if (!unprocessed.has(keyOf(write.request))) write.applied();
      pending = pending.filter((write) => unprocessed.has(keyOf(write.request)));
    }
  });
}

const keyOf = (request: BatchedWrite['request']): string => {
  const item = 'PutRequest' in request ? request.PutRequest.Item : request.DeleteRequest.Key;
  return `${String(item.pk)}\n${String(item.sk)}`;
};
