/**
 * Audience member items of the inbox table (keys `audienceMember` in inbox-table.ts): the write of
 * one member and what it tells (did it create the item?), the item ↔ member mapping, and the
 * counter deltas a page of writes adds to its audience (count and count by calling code).
 *
 * One UpdateItem per member, unconditioned, asking for the old image of what it set: the item did
 * not exist exactly when nothing old comes back. Single-item, so two requests adding the same
 * person at once count one `added` between them (dynalite has no transactions; none is needed).
 */
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AttributeValue, AudienceMember } from '../../audiences/audience';
import type { MemberUpsert } from '../../audiences/ports';
import { callingCodeOf } from '../../recipients/calling-code';
import { inboxKeys, toEntity, type InboxTable, type Item } from './inbox-table';

/** Member writes in flight at once per request: enough to keep a request of 10,000 members to seconds. */
export const MEMBER_WRITE_LANES = 32;

/** Members written between two counter updates: a crash loses at most this many counts (docs/CAMPAIGNS.md). */
export const MEMBERS_PER_COUNTER_UPDATE = 1_000;

/** Changes of an audience's counters over a page of member writes. */
export class CounterDeltas {
  members = 0;
  readonly byCountry = new Map<string, number>();

  /** One member added (+1) or removed (-1) under this person key. */
  count(personKey: string, delta: 1 | -1): void {
    this.members += delta;
    const code = callingCodeOf(personKey) ?? '';
    this.byCountry.set(code, (this.byCountry.get(code) ?? 0) + delta);
  }

  get isEmpty(): boolean {
    return [...this.byCountry.values()].every((delta) => delta === 0) && this.members === 0;
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
 * Writes one member (the fields given replace the stored ones; see MemberUpsert); true when the
 * write created the item. `personKey` is written on every write, so its old value is present
 * exactly when the item existed.
 */
export async function writeMember(table: InboxTable, organizationId: string, audienceId: string, member: MemberUpsert): Promise<boolean> {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  // Every name through a placeholder (`to` is a reserved word).
  const set = (name: string, value: unknown, mode: 'replace' | 'fill' = 'replace') => {
    names[`#${name}`] = name;
    values[`:${name}`] = value;
    sets.push(mode === 'fill' ? `#${name} = if_not_exists(#${name}, :${name})` : `#${name} = :${name}`);
  };
  set('entity', 'audience-member');
  set('personKey', member.personKey);
  set('updatedAt', member.updatedAt);
  // A number learned from the contact book fills a member without one; a number given replaces it.
  const numberMode = member.numberFromPair ? 'fill' : 'replace';
  set('to', member.to, numberMode);
  set('countryCode', member.countryCode, numberMode);
  set('toPhoneNumber', member.toPhoneNumber, numberMode);
  if (member.userId !== undefined) set('userId', member.userId);
  // A member first written without attributes or tags gets empty ones, so reads need no default.
  set('attributes', member.attributes ?? {}, member.attributes === undefined ? 'fill' : 'replace');
  set('tags', member.tags ?? [], member.tags === undefined ? 'fill' : 'replace');
  const result = await table.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: inboxKeys.audienceMember(organizationId, audienceId, member.personKey),
      UpdateExpression: `SET ${sets.join(', ')}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'UPDATED_OLD',
    }),
  );
  return result.Attributes?.personKey === undefined;
}

/** Deletes one member; true when this call removed an item. */
export async function deleteMember(table: InboxTable, organizationId: string, audienceId: string, personKey: string): Promise<boolean> {
  const result = (await table.send(
    new DeleteCommand({ TableName: table.tableName, Key: inboxKeys.audienceMember(organizationId, audienceId, personKey), ReturnValues: 'ALL_OLD' }),
  )) as { Attributes?: Item };
  return result.Attributes !== undefined;
}

/** Runs `work` over `items` with at most `lanes` calls in flight, in order of start. */
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
