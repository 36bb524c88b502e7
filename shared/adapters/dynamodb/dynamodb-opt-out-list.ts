/**
 * The organization's opt-out list (the suppression list) on the inbox table: one item per opt-out
 * key (shared/recipients/opt-out-key.ts), counted in the organization's counters while on the
 * list, and the bulk lookup the accept path and the chunk worker make.
 *
 * Every change is read, decided (shared/inbox/opt-out-record.ts), then written as one conditional
 * Put on the record read (its `writeToken`, or its absence): dynalite has no transactions, and the
 * condition is what makes concurrent STOP and START end as the latest by Meta's time. A Put that
 * fails its condition is read back: our own token means an SDK retry of our applied write, anything
 * else means a concurrent writer, and the change is decided again on what it left.
 *
 * Entries written before the key existed sit under the number as it was given (`PHONE#521…`, a
 * Brazilian mobile without its ninth digit): lookups read every form of a key
 * (`optOutKeyFormsOf`), and the first change of such a number moves its entry to the key.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { InboxStoreUnavailableError } from '../../inbox/errors';
import type { ListResult, ListWindow } from '../../inbox/inbox-entities';
import { isOptedOut, optOutOf, type OptOut, type OptOutRecord } from '../../inbox/opt-out-record';
import type { OptOutChange, OptOutRepository } from '../../inbox/opt-outs';
import { optOutKeyFormsOf } from '../../recipients/opt-out-key';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { inboxKeys, toEntity, type InboxTable, type Item } from './inbox-table';
import { batchGetOptOuts, findSuppressedIn } from './dynamodb-opt-out-lookup';

/** Rounds of "a concurrent writer changed the record first" before giving up (503, retried by the caller). */
const maxUpdateRounds = 5;

type StoredRecord = OptOutRecord & { writeToken?: string };

/**
 * The record of a stored item; an item without `state` was written before records had one: on the list.
 *
 * @example
 * recordOfItem({ pk: 'ORG#o#OPTOUTS', sk: 'PHONE#447700900123', phoneNumber: '447700900123', source: 'api', createdAt: 'T' });
 * // { state: 'opted-out', phoneNumber: '447700900123', source: 'api', createdAt: 'T' }
 */
export function recordOfItem(item: Item): StoredRecord {
  const entity = toEntity<Record<string, unknown>>(item)!;
  const keywordAt = {
    ...(typeof entity.keywordAt === 'string' ? { keywordAt: entity.keywordAt } : {}),
    ...(typeof entity.preferenceAt === 'string' ? { preferenceAt: entity.preferenceAt } : {}),
  };
  const writeToken = typeof entity.writeToken === 'string' ? { writeToken: entity.writeToken } : {};
  const phoneNumber = String(entity.phoneNumber);
  if (entity.state === 'opted-in') return { state: 'opted-in', phoneNumber, ...keywordAt, ...writeToken };
  return { state: 'opted-out', phoneNumber, source: entity.source as OptOut['source'], createdAt: String(entity.createdAt), ...keywordAt, ...writeToken };
}

/** The record a key reads as: its own item's, else an older form's on the list, else an older form's. */
const recordOfForms = (canonical: StoredRecord | undefined, olderRecords: readonly StoredRecord[]): StoredRecord | undefined =>
  canonical ?? olderRecords.find(isOptedOut) ?? olderRecords[0];

export class DynamoDbOptOutList implements OptOutRepository {
  constructor(private readonly table: InboxTable) {}

  async updateOptOut(organizationId: string, phoneNumber: string, change: OptOutChange): Promise<{ before?: OptOutRecord; after?: OptOutRecord }> {
    const [key, ...olderForms] = optOutKeyFormsOf(phoneNumber) as [string, ...string[]];
    for (let round = 0; round < maxUpdateRounds; round += 1) {
      const [stored, ...older] = await Promise.all([key, ...olderForms].map((form) => this.table.get(inboxKeys.optOut(organizationId, form))));
      const moved = olderForms.filter((_, index) => older[index] !== undefined);
      const canonical = stored && recordOfItem(stored);
      const olderRecords = older.flatMap((item) => (item ? [recordOfItem(item)] : []));
      const before = recordOfForms(canonical, olderRecords);
      const after = change(before);
      if (after === before && moved.length === 0) return { before, after };
      if (after === undefined) throw new TypeError('An opt-out record is never deleted: a removal keeps its keyword time');
      if (!(await this.putIfUnchanged(organizationId, key, canonical, after))) continue;
      const movedOnList = await this.deleteOlderForms(organizationId, moved, olderRecords);
      const delta = (isOptedOut(after) ? 1 : 0) - (isOptedOut(canonical) ? 1 : 0) - movedOnList;
      if (delta !== 0) await this.table.addToCounters(organizationId, { optOuts: delta });
      return { before, after };
    }
    throw new InboxStoreUnavailableError('Opt-out kept changing under concurrent writes');
  }

  /** The record written under `key` if the item is still as read (`read` undefined: still absent); false when someone wrote first. */
  private async putIfUnchanged(organizationId: string, key: string, read: StoredRecord | undefined, record: OptOutRecord): Promise<boolean> {
    const writeToken = randomUUID();
    const itemKey = inboxKeys.optOut(organizationId, key);
    const { writeToken: _previous, ...fields } = record as StoredRecord;
    try {
      await this.table.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: { ...itemKey, entity: 'opt-out', ...fields, writeToken },
          ...unchangedCondition(read),
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
    return (await this.table.get(itemKey))?.writeToken === writeToken;
  }

  /** Deletes the entries under older forms just moved to the key; how many of them were on the list (and counted). */
  private async deleteOlderForms(organizationId: string, forms: readonly string[], records: readonly StoredRecord[]): Promise<number> {
    const deleted = await Promise.all(
      forms.map(async (form, index) => {
        try {
          await this.table.send(
            new DeleteCommand({ TableName: this.table.tableName, Key: inboxKeys.optOut(organizationId, form), ConditionExpression: 'attribute_exists(pk)' }),
          );
          return isOptedOut(records[index]) ? 1 : 0;
        } catch (error) {
          if (isConditionalCheckFailure(error)) return 0;
          throw error;
        }
      }),
    );
    return deleted.reduce((sum: number, one) => sum + one, 0);
  }

  async listOptOuts(organizationId: string, window: ListWindow): Promise<ListResult<OptOut>> {
    const query = { ...this.table.partitionQuery(inboxKeys.optOut(organizationId, '').pk, 'PHONE#'), ScanIndexForward: true };
    const [total, page] = await Promise.all([
      this.table.counter(organizationId, ['optOuts']),
      // Numbers taken off the list keep a record (the time of their last keyword): skipped here.
      this.table.readWindow<Item>(query, (entity) => entity.state !== 'opted-in', window, false),
    ]);
    return { items: page.items.map((entity) => optOutOf(recordOfItem(entity) as OptOutRecord & { state: 'opted-out' })), total };
  }

  /**
   * Which of the numbers are on the organization's list, matched by opt-out key (opt-out-lookup.ts:
   * the list itself read when it is shorter than the numbers, else a BatchGet per 100 keys).
   */
  findSuppressed(organizationId: string, phoneNumbers: readonly string[]): Promise<Set<string>> {
    return findSuppressedIn(this.table, organizationId, phoneNumbers);
  }

  /** Every form of every key, read in BatchGets of 100 (dynamodb-opt-out-lookup.ts). */
  async recordsOf(organizationId: string, keys: readonly string[]): Promise<Map<string, OptOutRecord>> {
    const formsOf = new Map(keys.map((key) => [key, optOutKeyFormsOf(key)]));
    const forms = [...new Set([...formsOf.values()].flat())];
    const stored = new Map<string, StoredRecord>();
    for (const item of await batchGetOptOuts(this.table, organizationId, forms)) stored.set(String(item.sk), recordOfItem(item));
    const records = new Map<string, OptOutRecord>();
    const storedUnder = (form: string) => stored.get(inboxKeys.optOut(organizationId, form).sk);
    for (const [key, [canonical, ...olderForms]] of formsOf) {
      const record = recordOfForms(
        storedUnder(canonical!),
        olderForms.flatMap((form) => storedUnder(form) ?? []),
      );
      if (record) records.set(key, withoutToken(record));
    }
    return records;
  }
}

/** A record as the domain sees it (the write token is the adapter's). */
function withoutToken({ writeToken: _token, ...record }: StoredRecord): OptOutRecord {
  return record as OptOutRecord;
}

/** The Put's condition: the item is as it was read (same token; a token-less item written before tokens; or still absent). */
function unchangedCondition(
  read: StoredRecord | undefined,
): Pick<ConstructorParameters<typeof PutCommand>[0], 'ConditionExpression' | 'ExpressionAttributeValues'> {
  if (!read) return { ConditionExpression: 'attribute_not_exists(pk)' };
  if (read.writeToken === undefined) return { ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(writeToken)' };
  return { ConditionExpression: 'writeToken = :expected', ExpressionAttributeValues: { ':expected': read.writeToken } };
}
