/**
 * One writer of an audience's members at a time: a lease on the audience item (`writerToken`,
 * `writerUntil`), taken by one conditional UpdateItem, given back by another. While it holds the
 * lease a request's strongly consistent reads of its members are what its writes change, so the
 * counts it adds are exact without transactions (dynalite has none). A lease outlives the longest
 * request (the functions' 29 s), so a crashed holder's lease lapses and the next writer takes it
 * (expiry checked in code: dynalite never expires items).
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { AudienceBusyError, AudienceNotFoundError } from '../../audiences/errors';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { inboxKeys, type InboxTable } from './inbox-table';

/** Longer than any request holding it (29 s). */
export const WRITE_LEASE_MS = 35_000;
/** How long a writer waits for a lease held by another before answering busy (409, retry). */
const waitForLeaseMs = 10_000;
const pollMs = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function takeLease(table: InboxTable, organizationId: string, audienceId: string, token: string): Promise<boolean> {
  const now = Date.now();
  try {
    await table.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: inboxKeys.audience(organizationId, audienceId),
        UpdateExpression: 'SET writerToken = :token, writerUntil = :until',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deletedAt) AND (attribute_not_exists(writerUntil) OR writerUntil < :now)',
        ExpressionAttributeValues: { ':token': token, ':until': now + WRITE_LEASE_MS, ':now': now },
      }),
    );
    return true;
  } catch (error) {
    if (!isConditionalCheckFailure(error)) throw error;
  }
  const item = await table.get(inboxKeys.audience(organizationId, audienceId));
  if (!item || item.deletedAt !== undefined) throw new AudienceNotFoundError(audienceId);
  return false;
}

async function giveBack(table: InboxTable, organizationId: string, audienceId: string, token: string): Promise<void> {
  try {
    await table.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: inboxKeys.audience(organizationId, audienceId),
        UpdateExpression: 'REMOVE writerToken, writerUntil',
        ConditionExpression: 'writerToken = :token',
        ExpressionAttributeValues: { ':token': token },
      }),
    );
  } catch (error) {
    // Lapsed and taken by another writer, or the audience purged: nothing of ours to give back.
    if (!isConditionalCheckFailure(error)) throw error;
  }
}

/**
 * Runs `work` holding the audience's write lease (waiting up to 10 s for another writer to finish:
 * AudienceBusyError after that; AudienceNotFoundError for an audience missing or deleted).
 */
export async function withWriteLease<T>(table: InboxTable, organizationId: string, audienceId: string, work: () => Promise<T>): Promise<T> {
  const token = randomUUID();
  const giveUpAt = Date.now() + waitForLeaseMs;
  while (!(await takeLease(table, organizationId, audienceId, token))) {
    if (Date.now() >= giveUpAt) throw new AudienceBusyError(audienceId);
    await sleep(pollMs);
  }
  try {
    return await work();
  } finally {
    await giveBack(table, organizationId, audienceId, token);
  }
}
