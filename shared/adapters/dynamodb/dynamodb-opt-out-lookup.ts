/**
 * Which of many numbers are on an organization's opt-out list: the accept path's check (up to
 * 10,000 recipients) and the chunk worker's send-time check (up to 1,000), matched by opt-out key
 * (shared/recipients/opt-out-key.ts). Reads are strongly consistent: an opt-out that has answered
 * is seen by the next check.
 */
import { BatchGetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { InboxStoreUnavailableError } from '../../inbox/errors';
import { optOutKeyFormsOf, optOutKeyOf } from '../../recipients/opt-out-key';
import { inboxKeys, type InboxTable, type Item } from './inbox-table';

/** DynamoDB's BatchGetItem limit. */
const maxKeysPerBatchGet = 100;
/** Rounds of re-reading the keys a BatchGet left unprocessed (throttling) before giving up. */
const maxBatchGetRounds = 5;
/** BatchGets of one opt-out lookup in flight at once. */
const concurrentBatchGets = 10;

const sortKeyPrefix = 'PHONE#';
/** `state` is one of DynamoDB's reserved words. */
const projection = { ProjectionExpression: 'sk, #state', ExpressionAttributeNames: { '#state': 'state' } };

/** The opt-out key of an item on the list (an entry stored under an older form counts under its key); undefined when off the list. */
const keyOnList = (item: Item): string | undefined => (item.state === 'opted-in' ? undefined : optOutKeyOf(String(item.sk).slice(sortKeyPrefix.length)));

/**
 * The numbers of `phoneNumbers` (as given) whose opt-out key is on the list. Up to 100 numbers: one
 * BatchGet of every form of their keys. More: the list itself is read first, at most as many items
 * as numbers given, since a list is usually far shorter than a broadcast: one Query instead of a
 * BatchGet per 100 numbers, and cheaper (a Query pays by the bytes read, a BatchGet per key). A list
 * longer than that falls back to the BatchGets, up to 10 at a time.
 *
 * @example
 * await findSuppressedIn(table, 'org_1', ['5215512345678', '447700900123']); // Set { '5215512345678' } when 525512345678 opted out
 */
export async function findSuppressedIn(table: InboxTable, organizationId: string, phoneNumbers: readonly string[]): Promise<Set<string>> {
  if (phoneNumbers.length > maxKeysPerBatchGet) {
    const list = await keysOnListUpTo(table, organizationId, phoneNumbers.length);
    if (list) return list.size === 0 ? list : new Set(phoneNumbers.filter((phoneNumber) => list.has(optOutKeyOf(phoneNumber))));
  }
  const forms = [...new Set(phoneNumbers.flatMap(optOutKeyFormsOf))];
  const found = new Set<string>();
  for (const item of await batchGetOptOuts(table, organizationId, forms, projection)) {
    const key = keyOnList(item);
    if (key !== undefined) found.add(key);
  }
  return found.size === 0 ? found : new Set(phoneNumbers.filter((phoneNumber) => found.has(optOutKeyOf(phoneNumber))));
}

/** The keys on the organization's list, or undefined when its partition holds more than `limit` items. */
async function keysOnListUpTo(table: InboxTable, organizationId: string, limit: number): Promise<Set<string> | undefined> {
  const keys = new Set<string>();
  let read = 0;
  let startKey: Item | undefined;
  do {
    const query = table.partitionQuery(inboxKeys.optOut(organizationId, '').pk, sortKeyPrefix);
    const page = await table.send(
      new QueryCommand({
        ...query,
        ...projection,
        // One more than the limit tells a list of exactly `limit` from a longer one.
        Limit: limit + 1 - read,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      read += 1;
      const key = keyOnList(item);
      if (key !== undefined) keys.add(key);
    }
    if (read > limit) return undefined;
    startKey = page.LastEvaluatedKey;
  } while (startKey !== undefined);
  return keys;
}

/**
 * The stored opt-out items of `forms` (any number): strongly consistent BatchGets of 100, up to 10 at
 * a time; the keys one left unprocessed (throttling) are read again, up to 5 rounds.
 *
 * @example
 * await batchGetOptOuts(table, 'org_1', ['447700900123', 'GB.1349']); // the items found, any order
 */
export async function batchGetOptOuts(
  table: InboxTable,
  organizationId: string,
  forms: readonly string[],
  only: Partial<typeof projection> = {},
): Promise<Item[]> {
  const found: Item[] = [];
  const wave = maxKeysPerBatchGet * concurrentBatchGets;
  for (let start = 0; start < forms.length; start += wave) {
    const batches: string[][] = [];
    for (let offset = start; offset < Math.min(forms.length, start + wave); offset += maxKeysPerBatchGet) {
      batches.push(forms.slice(offset, Math.min(offset + maxKeysPerBatchGet, start + wave)));
    }
    for (const items of await Promise.all(batches.map((batch) => batchGetAmong(table, organizationId, batch, only)))) found.push(...items);
  }
  return found;
}

/** The stored items of up to 100 forms: one BatchGet, the unprocessed keys asked again. */
async function batchGetAmong(table: InboxTable, organizationId: string, forms: readonly string[], only: Partial<typeof projection>): Promise<Item[]> {
  const found: Item[] = [];
  let keys: Item[] = forms.map((form) => inboxKeys.optOut(organizationId, form));
  for (let round = 0; keys.length > 0; round += 1) {
    if (round >= maxBatchGetRounds) throw new InboxStoreUnavailableError('Inbox store left opt-out reads unprocessed');
    const tableName = table.tableName;
    const result = await table.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true, ...only } } }));
    found.push(...((result.Responses?.[tableName] ?? []) as Item[]));
    keys = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Item[];
  }
  return found;
}
