/**
 * Requests the broadcast stores' adapters share on the messaging table: paged queries, batch writes
 * offered again until processed, put-if-absent and the outcomes' tally codes. Plain functions over
 * the client and table name, so each adapter keeps only its own port's methods.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchWriteCommand, PutCommand, UpdateCommand, paginateQuery, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { LedgerEntry } from '../../broadcast/broadcast-stores';
import { tallyCodeOfOutcome } from '../../broadcast/chunk-outcomes';
import { StoreUnavailableError } from '../../ports/errors';
import { defaultStoreRetryPolicy, retryDelayMs, type StoreRetryPolicy } from '../../ports/store-retry';
import { tallyOutcomeUpdates } from './messaging-tally-items';

type Item = Record<string, unknown>;

/** The messaging table as an adapter reaches it. */
export interface MessagingTable {
  readonly client: DynamoDBDocumentClient;
  readonly tableName: string;
}

/** What an outcome's tally code is computed from. */
export type SettledOutcome = Pick<LedgerEntry, 'index' | 'status' | 'failureReasonCode' | 'updatedAt' | 'held'> & Partial<Pick<LedgerEntry, 'messageId'>>;

export const isConditionFailure = (error: unknown): boolean => error instanceof ConditionalCheckFailedException;

/**
 * Every item a query matches, over all its pages.
 *
 * @example
 * const chunks = await queryAll(table, { KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': messagingKeys.jobPartition(jobId) } });
 */
export async function queryAll(table: MessagingTable, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Item[]> {
  const items: Item[] = [];
  for await (const page of paginateQuery({ client: table.client }, { ...input, TableName: table.tableName })) items.push(...(page.Items ?? []));
  return items;
}

/**
 * Puts the item unless one with its key exists; true when this call wrote it.
 *
 * @example
 * const created = await putIfAbsent(table, jobItem(job));
 */
export async function putIfAbsent(table: MessagingTable, item: Item): Promise<boolean> {
  try {
    await table.client.send(new PutCommand({ TableName: table.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return false;
  }
}

/** Requests one BatchWriteItem takes at most. */
export const BATCH_WRITE_SIZE = 25;

/**
 * Puts and deletes in BatchWriteItem calls of 25, sent together. Items the table hands back
 * unprocessed (throttling) are offered again after the store-retry policy's pauses (shared/ports/store-retry.ts:
 * jittered, doubling); when some are still unprocessed after `policy.maxAttempts` calls, a
 * StoreUnavailableError (`exhausted` and the count): a fault the caller's store retry may mend, as
 * every request here is a Put or Delete that can be written again.
 *
 * @example
 * await batchWrite(table, keys.map((key) => ({ DeleteRequest: { Key: key } })), 'Discarded job items stayed unprocessed');
 */
export async function batchWrite(
  table: MessagingTable,
  requests: ReadonlyArray<Record<string, unknown>>,
  exhausted: string,
  policy: StoreRetryPolicy = defaultStoreRetryPolicy,
): Promise<void> {
  const batches: Array<ReadonlyArray<Record<string, unknown>>> = [];
  for (let start = 0; start < requests.length; start += BATCH_WRITE_SIZE) batches.push(requests.slice(start, start + BATCH_WRITE_SIZE));
  await Promise.all(batches.map((batch) => writeBatch(table, batch, exhausted, policy)));
}

async function writeBatch(table: MessagingTable, requests: ReadonlyArray<Record<string, unknown>>, exhausted: string, policy: StoreRetryPolicy): Promise<void> {
  let batch = requests;
  for (let attempt = 1; ; attempt += 1) {
    const result = await table.client.send(new BatchWriteCommand({ RequestItems: { [table.tableName]: batch as never } }));
    batch = (result.UnprocessedItems?.[table.tableName] ?? []) as typeof batch;
    if (batch.length === 0) return;
    if (attempt >= policy.maxAttempts) throw new StoreUnavailableError(`${exhausted}: ${batch.length} of ${requests.length} after ${attempt} calls`);
    const delayMs = retryDelayMs(policy, attempt, Math.random);
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}

/**
 * The tally codes of recorded outcomes, `if_not_exists` (a code an event wrote first stays), one
 * UpdateItem per tally item.
 *
 * @example
 * await writeTallyCodes(table, jobId, [{ index: 7, status: 'SENT', updatedAt }], expiresAtFrom(now));
 */
export async function writeTallyCodes(table: MessagingTable, jobId: string, entries: readonly SettledOutcome[], expiresAt: number): Promise<void> {
  const codes = entries.flatMap((entry) => {
    const code = tallyCodeOfOutcome(entry);
    return code === undefined ? [] : [{ index: entry.index, code, ...(entry.messageId === undefined ? {} : { messageId: entry.messageId }) }];
  });
  await Promise.all(
    tallyOutcomeUpdates(jobId, codes, expiresAt).map((update) => table.client.send(new UpdateCommand({ TableName: table.tableName, ...update }))),
  );
}
