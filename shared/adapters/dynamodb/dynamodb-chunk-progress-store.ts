/**
 * Chunk progress in the messaging table (messaging-table.ts): live counters on each chunk item,
 * recounted from the ledger once every recipient is accounted for, and the job's tally items
 * (one code per recipient) that the status summaries count.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChunkProgressStore, JobProgress, LedgerEntry, ProgressDelta } from '../../broadcast/broadcast-stores';
import { tallyCodeOfOutcome } from '../../broadcast/chunk-outcomes';
import { classifyStoreFaults } from './dynamodb-errors';
import { decodeChunk, failureReasonsOf } from './messaging-job-items';
import { readChunkLedger } from './ledger-pages';
import { decodeTally, tallyOutcomesOf } from './messaging-tally-items';
import { countOutcomes } from '../../outcomes/count-outcomes';
import { FAILURE_PREFIX, expiresAtFrom, messagingKeys, tallySlotOf } from './messaging-table';
import { isConditionFailure, queryAll, writeTallyCodes, type MessagingTable, type SettledOutcome } from './messaging-table-requests';

export class DynamoDbChunkProgressStore implements ChunkProgressStore {
  private readonly table: MessagingTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    classifyStoreFaults(client);
    this.table = { client, tableName };
  }

  async markChunkStarted(jobId: string, chunkIndex: number, now: Date): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.chunk(jobId, chunkIndex),
          UpdateExpression: 'SET startedAt = if_not_exists(startedAt, :now)',
          // Never recreate the chunk of a discarded job.
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': now.toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async addChunkProgress(jobId: string, chunkIndex: number, delta: ProgressDelta): Promise<void> {
    const names: Record<string, string> = {};
    const values: Record<string, number> = { ':sent': delta.sent, ':failed': delta.failed, ':unknown': delta.unknown };
    const additions = ['sent :sent', 'failed :failed', '#unknown :unknown'];
    names['#unknown'] = 'unknown';
    Object.entries(delta.failuresByReason).forEach(([reason, count], position) => {
      names[`#f${position}`] = `${FAILURE_PREFIX}${reason}`;
      values[`:f${position}`] = count;
      additions.push(`#f${position} :f${position}`);
    });
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: messagingKeys.chunk(jobId, chunkIndex),
        UpdateExpression: `ADD ${additions.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  }

  async reconcileChunk(jobId: string, chunkIndex: number, now: Date): Promise<{ done: boolean }> {
    const chunk = await this.table.client.send(
      new GetCommand({ TableName: this.table.tableName, Key: messagingKeys.chunk(jobId, chunkIndex), ConsistentRead: true }),
    );
    const recipientCount = Number(chunk.Item?.recipientCount ?? 0);
    const { counts, failuresByReason, outcomes } = await countLedger(this.table, jobId, chunkIndex);

    // Cancelled and held-out recipients are settled too (never sent), so their chunks finish.
    const accounted = counts.SENT + counts.FAILED + counts.UNKNOWN + counts.CANCELLED + counts.HELD_OUT;
    // Only a complete ledger is the final truth; partial reads would race with other parts' live counters.
    if (accounted < recipientCount) return { done: false };
    // A worker that crashed between an outcome and its tally code left the code unwritten, and its
    // redelivery skips the recipient: the complete ledger writes every missing code (if_not_exists).
    await writeTallyCodes(this.table, jobId, outcomes, expiresAtFrom(now));
    // A duplicate delivery of this chunk may have marked another worker's in-flight claim UNKNOWN
    // (tally 0U) before that worker recorded its real outcome over it in the ledger: raise such codes.
    await raiseTallyCodes(this.table, jobId, outcomes);

    const names: Record<string, string> = { '#unknown': 'unknown' };
    const values: Record<string, unknown> = { ':sent': counts.SENT, ':failed': counts.FAILED, ':unknown': counts.UNKNOWN, ':now': now.toISOString() };
    const assignments = ['sent = :sent', 'failed = :failed', '#unknown = :unknown', 'doneAt = if_not_exists(doneAt, :now)'];
    const knownReasons = new Set([...failureReasonsOf(chunk.Item), ...Object.keys(failuresByReason)]);
    [...knownReasons].forEach((reason, position) => {
      names[`#f${position}`] = `${FAILURE_PREFIX}${reason}`;
      values[`:f${position}`] = failuresByReason[reason] ?? 0;
      assignments.push(`#f${position} = :f${position}`);
    });
    await this.table.client.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: messagingKeys.chunk(jobId, chunkIndex),
        UpdateExpression: `SET ${assignments.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return { done: true };
  }

  async getJobProgress(jobId: string): Promise<JobProgress> {
    // Two queries, not one over the partition: the RECIPIENTS# items (~14 KB each) sort between CHUNK# and TALLY#.
    const partitionItems = (prefix: string) =>
      queryAll(this.table, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': messagingKeys.jobPartition(jobId), ':prefix': prefix },
        ConsistentRead: true,
      });
    const [chunks, tallies] = await Promise.all([partitionItems(messagingKeys.chunkPrefix), partitionItems(messagingKeys.tallyPrefix)]);
    const tally = tallies.flatMap(decodeTally);
    // The outcome sets live on the same items: counted without another read.
    return {
      chunks: chunks.map(decodeChunk),
      tally,
      outcomes: countOutcomes(
        tally,
        tallies.flatMap((item) => [...tallyOutcomesOf(item)]),
      ),
    };
  }
}

/** The chunk's ledger (pages and older entries: a consistent read), counted by status and failure reason. */
async function countLedger(table: MessagingTable, jobId: string, chunkIndex: number) {
  const counts: Record<LedgerEntry['status'], number> = { SENT: 0, FAILED: 0, UNKNOWN: 0, SENDING: 0, CANCELLED: 0, HELD_OUT: 0 };
  const failuresByReason: Record<string, number> = {};
  const { entries } = await readChunkLedger(table, jobId, chunkIndex);
  const outcomes: SettledOutcome[] = [];
  for (const { index, status, failureReasonCode, updatedAt, held } of entries) {
    outcomes.push({ index, status, failureReasonCode, updatedAt, ...(held === true ? { held } : {}) });
    counts[status] += 1;
    if (status === 'FAILED') {
      const reason = failureReasonCode ?? 'TEMPLATE_SEND_FAILED';
      failuresByReason[reason] = (failuresByReason[reason] ?? 0) + 1;
    }
  }
  return { counts, failuresByReason, outcomes };
}

/**
 * Every tally code below its ledger outcome's code is raised to it, each with the max-register
 * condition (`#r < :code`) so a delivery event's higher code written meanwhile is never lowered.
 * One consistent Query of the chunk's tally items; writes only where they disagree (rare).
 */
async function raiseTallyCodes(table: MessagingTable, jobId: string, entries: readonly SettledOutcome[]): Promise<void> {
  const expected = entries.flatMap((entry) => {
    const code = tallyCodeOfOutcome(entry);
    return code === undefined ? [] : [{ slot: tallySlotOf(jobId, entry.index), code }];
  });
  if (expected.length === 0) return;
  const keys = expected.map(({ slot }) => slot.key.sk).sort();
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :first AND :last',
    ExpressionAttributeValues: { ':pk': messagingKeys.jobPartition(jobId), ':first': keys[0], ':last': keys[keys.length - 1] },
    ConsistentRead: true,
  });
  const stored = new Map(items.map((item) => [String(item.sk), item]));
  const raises = expected.filter(({ slot, code }) => {
    const current = stored.get(slot.key.sk)?.[slot.attribute];
    return typeof current === 'string' && current < code;
  });
  await Promise.all(
    raises.map(async ({ slot, code }) => {
      try {
        await table.client.send(
          new UpdateCommand({
            TableName: table.tableName,
            Key: slot.key,
            UpdateExpression: 'SET #r = :code',
            ConditionExpression: '#r < :code',
            ExpressionAttributeNames: { '#r': slot.attribute },
            ExpressionAttributeValues: { ':code': code },
          }),
        );
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
    }),
  );
}
