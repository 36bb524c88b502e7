/**
 * Jobs, chunk progress and the per-recipient ledger in the messaging table.
 *
 *   pk JOB#<jobId>                 sk JOB            the job (+ gsi1: ORG#<org>#JOBS / createdAt)
 *   pk JOB#<jobId>                 sk CHUNK#<0000>   a chunk: recipientCount, live counters, doneAt
 *   pk LEDGER#<jobId>#<chunk>      sk R#<00000>      one recipient: SENDING → SENT | FAILED | UNKNOWN
 *                                                    (+ gsi1: WAMID#<message id>, to match delivery events)
 * Every write is single-item (dynalite has no transactions); the ledger claim is conditional.
 */
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { BroadcastJob, ChunkProgress } from '../../broadcast/broadcast-job';
import type { BroadcastRepository, ClaimResult, LedgerEntry, LedgerEntryLocation, ProgressDelta } from '../../broadcast/ports';
import { classifyStoreFaults } from './dynamodb-errors';

const jobKey = (jobId: string) => ({ pk: `JOB#${jobId}`, sk: 'JOB' });
const chunkKey = (jobId: string, chunkIndex: number) => ({ pk: `JOB#${jobId}`, sk: `CHUNK#${String(chunkIndex).padStart(4, '0')}` });
const ledgerPartition = (jobId: string, chunkIndex: number) => `LEDGER#${jobId}#${chunkIndex}`;
const ledgerKey = (jobId: string, chunkIndex: number, index: number) => ({
  pk: ledgerPartition(jobId, chunkIndex),
  sk: `R#${String(index).padStart(5, '0')}`,
});
/** Failure counts live in top-level attributes so they can be ADDed without creating a map first. */
const FAILURE_PREFIX = 'fail#';
/** Jobs and their ledgers are kept for reporting and delivery matching, then expire. */
const RETENTION_SECONDS = 90 * 24 * 3600;

const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException;

export class DynamoDbBroadcastRepository implements BroadcastRepository {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  private expiresAt(from: Date): number {
    return Math.floor(from.getTime() / 1000) + RETENTION_SECONDS;
  }

  private async putIfAbsent(item: Record<string, unknown>): Promise<void> {
    try {
      await this.documentClient.send(
        new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  async createJob(job: BroadcastJob, chunkSizes: readonly number[]): Promise<void> {
    const expiresAt = this.expiresAt(new Date(job.createdAt));
    await Promise.all([
      this.putIfAbsent({ ...jobKey(job.jobId), ...job, gsi1pk: `ORG#${job.organizationId}#JOBS`, gsi1sk: job.createdAt, expiresAt }),
      ...chunkSizes.map((recipientCount, chunkIndex) =>
        this.putIfAbsent({ ...chunkKey(job.jobId, chunkIndex), chunkIndex, recipientCount, sent: 0, failed: 0, unknown: 0, expiresAt }),
      ),
    ]);
  }

  async getJob(jobId: string): Promise<BroadcastJob | undefined> {
    const result = await this.documentClient.send(new GetCommand({ TableName: this.tableName, Key: jobKey(jobId) }));
    if (!result.Item) return undefined;
    const { pk: _pk, sk: _sk, gsi1pk: _gsi1pk, gsi1sk: _gsi1sk, expiresAt: _expiresAt, ...job } = result.Item;
    return job as BroadcastJob;
  }

  async getChunkProgress(jobId: string): Promise<ChunkProgress[]> {
    const chunks: ChunkProgress[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documentClient.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :chunk)',
          ExpressionAttributeValues: { ':pk': `JOB#${jobId}`, ':chunk': 'CHUNK#' },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const failuresByReason: Record<string, number> = {};
        for (const [name, value] of Object.entries(item)) {
          if (name.startsWith(FAILURE_PREFIX) && Number(value) > 0) failuresByReason[name.slice(FAILURE_PREFIX.length)] = Number(value);
        }
        chunks.push({
          chunkIndex: Number(item.chunkIndex),
          recipientCount: Number(item.recipientCount),
          sent: Number(item.sent ?? 0),
          failed: Number(item.failed ?? 0),
          unknown: Number(item.unknown ?? 0),
          failuresByReason,
          started: item.startedAt !== undefined,
          done: item.doneAt !== undefined,
        });
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return chunks;
  }

  async markChunkStarted(jobId: string, chunkIndex: number, now: Date): Promise<void> {
    await this.documentClient.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: chunkKey(jobId, chunkIndex),
        UpdateExpression: 'SET startedAt = if_not_exists(startedAt, :now)',
        ExpressionAttributeValues: { ':now': now.toISOString() },
      }),
    );
  }

  async claimRecipient(jobId: string, chunkIndex: number, index: number, to: string, now: Date): Promise<ClaimResult> {
    const key = ledgerKey(jobId, chunkIndex, index);
    // Marks this claim as ours: when the SDK retries the put after an attempt that was applied but
    // timed out, the retry fails its own condition, and must not be read as another worker's claim.
    const claimToken = randomUUID();
    try {
      await this.documentClient.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...key, index, to, status: 'SENDING', attempts: 0, claimToken, updatedAt: now.toISOString(), expiresAt: this.expiresAt(now) },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { claimed: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const existing = await this.documentClient.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    if (existing.Item?.claimToken === claimToken) return { claimed: true };
    return { claimed: false, existing: existing.Item as LedgerEntry };
  }

  async recordOutcomes(jobId: string, chunkIndex: number, entries: readonly LedgerEntry[]): Promise<void> {
    const expiresAt = this.expiresAt(new Date());
    const requests = entries.map((entry) => ({
      PutRequest: {
        Item: {
          ...ledgerKey(jobId, chunkIndex, entry.index),
          ...entry,
          expiresAt,
          ...(entry.messageId ? { gsi1pk: `WAMID#${entry.messageId}`, gsi1sk: 'LEDGER' } : {}),
        },
      },
    }));
    for (let start = 0; start < requests.length; start += 25) {
      let batch = requests.slice(start, start + 25);
      // BatchWrite may hand back unprocessed items under load; keep offering them, with a short pause.
      for (let attempt = 0; batch.length > 0; attempt += 1) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
        const result = await this.documentClient.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: batch } }));
        batch = (result.UnprocessedItems?.[this.tableName] ?? []) as typeof batch;
        if (attempt > 8 && batch.length > 0) throw new Error('Ledger outcomes stayed unprocessed');
      }
    }
  }

  async markStaleAsUnknown(jobId: string, chunkIndex: number, index: number, now: Date): Promise<boolean> {
    try {
      await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: ledgerKey(jobId, chunkIndex, index),
          UpdateExpression: 'SET #status = :unknown, failureReasonCode = :reason, updatedAt = :now',
          ConditionExpression: '#status = :sending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':unknown': 'UNKNOWN',
            ':sending': 'SENDING',
            ':reason': 'UNKNOWN_OUTCOME: interrupted attempt',
            ':now': now.toISOString(),
          },
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
    await this.documentClient.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: chunkKey(jobId, chunkIndex),
        UpdateExpression: `ADD ${additions.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  }

  async findByMessageId(messageId: string): Promise<LedgerEntryLocation | undefined> {
    // gsi1 is eventually consistent on AWS: an event arriving within ~1 s of the send may need a retry.
    const page = await this.documentClient.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
        ExpressionAttributeValues: { ':pk': `WAMID#${messageId}`, ':sk': 'LEDGER' },
        Limit: 1,
      }),
    );
    const item = page.Items?.[0];
    const location = typeof item?.pk === 'string' ? /^LEDGER#(.+)#(\d+)$/.exec(item.pk) : null;
    if (!item || !location) return undefined;
    const { pk: _pk, sk: _sk, gsi1pk: _gsi1pk, gsi1sk: _gsi1sk, expiresAt: _expiresAt, claimToken: _claimToken, ...entry } = item;
    return { jobId: location[1]!, chunkIndex: Number(location[2]), entry: entry as LedgerEntry };
  }

  async reconcileChunk(jobId: string, chunkIndex: number, now: Date): Promise<{ done: boolean }> {
    const chunk = await this.documentClient.send(
      new GetCommand({ TableName: this.tableName, Key: chunkKey(jobId, chunkIndex), ConsistentRead: true }),
    );
    const recipientCount = Number(chunk.Item?.recipientCount ?? 0);
    const counts = { SENT: 0, FAILED: 0, UNKNOWN: 0, SENDING: 0 };
    const failuresByReason: Record<string, number> = {};
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documentClient.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': ledgerPartition(jobId, chunkIndex) },
          ProjectionExpression: '#status, failureReasonCode',
          ExpressionAttributeNames: { '#status': 'status' },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const status = item.status as keyof typeof counts;
        counts[status] += 1;
        if (status === 'FAILED') {
          const reason = String(item.failureReasonCode ?? 'TEMPLATE_SEND_FAILED');
          failuresByReason[reason] = (failuresByReason[reason] ?? 0) + 1;
        }
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);

    const accounted = counts.SENT + counts.FAILED + counts.UNKNOWN;
    // Only a complete ledger is the final truth; partial reads would race with other parts' live counters.
    if (accounted < recipientCount) return { done: false };

    const names: Record<string, string> = { '#unknown': 'unknown' };
    const values: Record<string, unknown> = { ':sent': counts.SENT, ':failed': counts.FAILED, ':unknown': counts.UNKNOWN, ':now': now.toISOString() };
    const assignments = ['sent = :sent', 'failed = :failed', '#unknown = :unknown', 'doneAt = if_not_exists(doneAt, :now)'];
    const knownReasons = new Set([
      ...Object.keys(chunk.Item ?? {}).filter((name) => name.startsWith(FAILURE_PREFIX)).map((name) => name.slice(FAILURE_PREFIX.length)),
      ...Object.keys(failuresByReason),
    ]);
    [...knownReasons].forEach((reason, position) => {
      names[`#f${position}`] = `${FAILURE_PREFIX}${reason}`;
      values[`:f${position}`] = failuresByReason[reason] ?? 0;
      assignments.push(`#f${position} = :f${position}`);
    });
    await this.documentClient.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: chunkKey(jobId, chunkIndex),
        UpdateExpression: `SET ${assignments.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
    return { done: true };
  }
}
