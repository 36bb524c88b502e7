/**
 * Jobs, chunk progress and the per-recipient ledger in the messaging table (keys and item shapes:
 * messaging-table.ts). No write spans items atomically (dynalite has no transactions); the ledger
 * claim is conditional.
 */
import { randomUUID } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import {
  BatchWriteCommand,
  DeleteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  paginateQuery,
  type QueryCommandInput,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import type { BroadcastJob, ChunkProgress } from '../../broadcast/broadcast-job';
import type {
  BroadcastRepository,
  ChunkRecipientRecords,
  ClaimResult,
  ClaimState,
  JobControl,
  JobPause,
  JobListPage,
  JobListQuery,
  JobProgress,
  JobRecipient,
  LedgerEntry,
  LedgerEntryLocation,
  ProgressDelta,
} from '../../broadcast/ports';
import { locateLedgerMessage } from './ledger-message-ids';
import { classifyStoreFaults } from './dynamodb-errors';
import {
  FAILURE_PREFIX,
  claimItem,
  decodeChunk,
  decodeDeliveryFacts,
  decodeJob,
  decodeRecipients,
  decodeTally,
  decodeLedgerEntry,
  decodeLedgerStatus,
  expiresAtFrom,
  failureReasonsOf,
  jobItem,
  ledgerLocationOf,
  messagingKeys,
  ledgerIndexOf,
  newChunkItem,
  organizationJobsStartKey,
  messageIdRecordItem,
  outcomeUpdate,
  recipientsItem,
  tallyOutcomeUpdates,
  tallySlotOf,
} from './messaging-table';
import { tallyCodeOfOutcome } from '../../broadcast/chunk-outcomes';

const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException;
const { job: jobKey, chunk: chunkKey, ledger: ledgerKey, ledgerPartition } = messagingKeys;

export class DynamoDbBroadcastRepository implements BroadcastRepository {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  /** True when this call wrote the item. */
  private async putIfAbsent(item: Record<string, unknown>): Promise<boolean> {
    try {
      await this.documentClient.send(
        new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
      );
      return true;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      return false;
    }
  }

  /**
   * The job item first, conditionally: it decides `created`. A new job's other items (its chunks
   * and recipient lists) then go in one BatchWrite; none of them can hold anything to keep, since
   * chunks are only worked on once their job exists, and a discarded job's items are all deleted
   * before its job item. A job that already existed (a retry with the same id) gets only the items
   * it lacks, each a conditional put, so the progress of its chunks is never reset.
   */
  async createJob(job: BroadcastJob, chunkSizes: readonly number[], recipients: readonly JobRecipient[] = []): Promise<{ created: boolean }> {
    const expiresAt = expiresAtFrom(new Date(job.createdAt));
    const recipientsByChunk = new Map<number, JobRecipient[]>();
    for (const recipient of recipients) {
      const chunkIndex = Math.floor(recipient.index / job.chunkSize);
      const listed = recipientsByChunk.get(chunkIndex);
      if (listed) listed.push(recipient);
      else recipientsByChunk.set(chunkIndex, [recipient]);
    }
    const items = [
      ...chunkSizes.map((recipientCount, chunkIndex) => newChunkItem(job.jobId, chunkIndex, recipientCount, expiresAt)),
      ...[...recipientsByChunk].map(([chunkIndex, listed]) => recipientsItem(job.jobId, chunkIndex, listed, expiresAt)),
    ];
    const created = await this.putIfAbsent(jobItem(job));
    if (created) await this.batchWrite(items.map((item) => ({ PutRequest: { Item: item } })), 'New job items stayed unprocessed');
    else await Promise.all(items.map((item) => this.putIfAbsent(item)));
    return { created };
  }

  async discardJob(jobId: string): Promise<void> {
    type ItemKey = { pk: string; sk: string };
    const keysOf = async (pk: string): Promise<ItemKey[]> =>
      (await this.queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk }, ProjectionExpression: 'pk, sk', ConsistentRead: true })) as ItemKey[];
    const jobItems = await keysOf(messagingKeys.jobPartition(jobId));
    const chunkCount = jobItems.filter((key) => key.sk.startsWith(messagingKeys.chunkPrefix)).length;
    const ledgerItems = (await Promise.all(Array.from({ length: chunkCount }, (_, chunkIndex) => keysOf(ledgerPartition(jobId, chunkIndex))))).flat();
    // The job item goes last: while any of its items remain, the job can still be found and discarded again.
    const ordered = [...ledgerItems, ...jobItems.filter((key) => key.sk !== 'JOB'), ...jobItems.filter((key) => key.sk === 'JOB')];
    await this.batchWrite(ordered.map((key) => ({ DeleteRequest: { Key: key } })), 'Discarded job items stayed unprocessed');
  }

  /** Every item a query matches, over all its pages. */
  private async queryAll(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Array<Record<string, unknown>>> {
    const items: Array<Record<string, unknown>> = [];
    for await (const page of paginateQuery({ client: this.documentClient }, { ...input, TableName: this.tableName })) items.push(...(page.Items ?? []));
    return items;
  }

  async getJob(jobId: string): Promise<BroadcastJob | undefined> {
    const result = await this.documentClient.send(new GetCommand({ TableName: this.tableName, Key: jobKey(jobId) }));
    return result.Item ? decodeJob(result.Item) : undefined;
  }

  async listJobsOfOrganization(organizationId: string, query: JobListQuery): Promise<JobListPage> {
    const { gsi1pk } = messagingKeys.organizationJobs(organizationId, '');
    const bounds: string[] = [];
    const values: Record<string, unknown> = { ':pk': gsi1pk };
    if (query.from !== undefined) values[':from'] = query.from;
    if (query.to !== undefined) values[':to'] = query.to;
    if (query.from !== undefined && query.to !== undefined) bounds.push('gsi1sk BETWEEN :from AND :to');
    else if (query.from !== undefined) bounds.push('gsi1sk >= :from');
    else if (query.to !== undefined) bounds.push('gsi1sk <= :to');
    const jobs: BroadcastJob[] = [];
    let startKey = query.after ? organizationJobsStartKey(organizationId, query.after) : undefined;
    // A page of the index may hold fewer items than asked (1 MB per page): read on until `limit` or the end.
    do {
      const page = await this.documentClient.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: 'gsi1',
          KeyConditionExpression: ['gsi1pk = :pk', ...bounds].join(' AND '),
          ExpressionAttributeValues: values,
          ScanIndexForward: false,
          Limit: query.limit - jobs.length,
          ExclusiveStartKey: startKey,
        }),
      );
      jobs.push(...(page.Items ?? []).map(decodeJob));
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined && jobs.length < query.limit);
    const last = jobs.at(-1);
    return startKey !== undefined && last ? { jobs, next: { createdAt: last.createdAt, jobId: last.jobId } } : { jobs };
  }

  async cancelJob(jobId: string, now: Date): Promise<string | undefined> {
    try {
      const result = await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: jobKey(jobId),
          // The first cancellation's time stays: repeating a cancel changes nothing.
          UpdateExpression: 'SET cancelledAt = if_not_exists(cancelledAt, :now)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': now.toISOString() },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return String(result.Attributes?.cancelledAt ?? now.toISOString());
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async isCancelled(jobId: string): Promise<boolean> {
    const result = await this.documentClient.send(
      new GetCommand({ TableName: this.tableName, Key: jobKey(jobId), ProjectionExpression: 'cancelledAt', ConsistentRead: true }),
    );
    return typeof result.Item?.cancelledAt === 'string';
  }

  async readJobControl(jobId: string): Promise<JobControl | undefined> {
    const { Item: item } = await this.documentClient.send(
      new GetCommand({
        TableName: this.tableName,
        Key: jobKey(jobId),
        ProjectionExpression: 'createdAt, cancelledAt, pausedAt, pauseReason, pauseFailsAt',
        ConsistentRead: true,
      }),
    );
    if (!item) return undefined;
    const pause = pauseOf(item);
    return { cancelled: typeof item.cancelledAt === 'string', createdAt: String(item.createdAt), ...(pause ? { pause } : {}) };
  }

  async pauseJob(jobId: string, pause: JobPause): Promise<JobPause | undefined> {
    try {
      const result = await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: jobKey(jobId),
          // The first pauser wins: a pause already set keeps its time, reason and deadline.
          UpdateExpression: 'SET pausedAt = if_not_exists(pausedAt, :at), pauseReason = if_not_exists(pauseReason, :reason), pauseFailsAt = if_not_exists(pauseFailsAt, :failsAt)',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':at': pause.pausedAt, ':reason': pause.reason, ':failsAt': pause.failsAt },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return pauseOf(result.Attributes ?? {}) ?? pause;
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async resumeJob(jobId: string, pausedAt: string): Promise<boolean> {
    try {
      await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: jobKey(jobId),
          UpdateExpression: 'REMOVE pausedAt, pauseReason, pauseFailsAt',
          ConditionExpression: 'pausedAt = :at',
          ExpressionAttributeValues: { ':at': pausedAt },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  async getChunkProgress(jobId: string): Promise<ChunkProgress[]> {
    const items = await this.queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :chunk)',
      ExpressionAttributeValues: { ':pk': messagingKeys.jobPartition(jobId), ':chunk': messagingKeys.chunkPrefix },
    });
    return items.map(decodeChunk);
  }

  async getJobProgress(jobId: string): Promise<JobProgress> {
    // Two queries, not one over the partition: the RECIPIENTS# items (~14 KB each) sort between CHUNK# and TALLY#.
    const partitionItems = (prefix: string) =>
      this.queryAll({
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': messagingKeys.jobPartition(jobId), ':prefix': prefix },
        ConsistentRead: true,
      });
    const [chunks, tallies] = await Promise.all([partitionItems(messagingKeys.chunkPrefix), partitionItems(messagingKeys.tallyPrefix)]);
    return { chunks: chunks.map(decodeChunk), tally: tallies.flatMap(decodeTally) };
  }

  async readChunkRecipients(jobId: string, chunkIndex: number): Promise<ChunkRecipientRecords> {
    const [listed, ledger] = await Promise.all([
      this.documentClient.send(new GetCommand({ TableName: this.tableName, Key: messagingKeys.recipients(jobId, chunkIndex), ConsistentRead: true })),
      this.queryAll({
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': ledgerPartition(jobId, chunkIndex) },
        ConsistentRead: true,
      }),
    ]);
    return {
      ...(listed.Item ? { listed: decodeRecipients(listed.Item) } : {}),
      ledger: ledger.map((item) => ({ entry: decodeLedgerEntry(item), facts: decodeDeliveryFacts(item) })).sort((a, b) => a.entry.index - b.entry.index),
    };
  }

  async markChunkStarted(jobId: string, chunkIndex: number, now: Date): Promise<boolean> {
    try {
      await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: chunkKey(jobId, chunkIndex),
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

  async claimRecipient(jobId: string, chunkIndex: number, index: number, to: string, now: Date, as: ClaimState = 'SENDING'): Promise<ClaimResult> {
    const key = ledgerKey(jobId, chunkIndex, index);
    // Marks this claim as ours: when the SDK retries the put after an attempt that was applied but
    // timed out, the retry fails its own condition, and must not be read as another worker's claim.
    const claimToken = randomUUID();
    try {
      await this.documentClient.send(
        new PutCommand({
          TableName: this.tableName,
          Item: claimItem(jobId, chunkIndex, index, to, now, claimToken, as),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { claimed: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const existing = await this.documentClient.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    if (existing.Item?.claimToken === claimToken) return { claimed: true };
    if (!existing.Item) throw new Error(`Ledger entry ${key.pk} ${key.sk} refused the claim but cannot be read`);
    return { claimed: false, existing: decodeLedgerEntry(existing.Item) };
  }

  /**
   * One UpdateItem per entry, setting only the outcome's own attributes: Meta's facts that an event
   * may already have added to the entry (it can arrive before the outcome is written) stay. Then
   * the recipients' tally codes, one UpdateItem per tally item, never lowering an event's code.
   */
  async recordOutcomes(jobId: string, chunkIndex: number, entries: readonly LedgerEntry[]): Promise<void> {
    const expiresAt = expiresAtFrom(new Date());
    // The message ids' records first: an outcome naming a message id is always findable by it.
    const records = entries.flatMap((entry) => (entry.messageId ? [{ PutRequest: { Item: messageIdRecordItem(entry.messageId, { jobId, chunkIndex, index: entry.index }, expiresAt) } }] : []));
    await this.batchWrite(records, 'message id records still unprocessed after retries');
    await Promise.all(entries.map((entry) => this.documentClient.send(new UpdateCommand({ TableName: this.tableName, ...outcomeUpdate(jobId, chunkIndex, entry, expiresAt) }))));
    await this.writeTallyCodes(jobId, entries, expiresAt);
  }

  async recordSettled(jobId: string, entries: ReadonlyArray<Pick<LedgerEntry, 'index' | 'status' | 'failureReasonCode' | 'updatedAt'>>): Promise<void> {
    await this.writeTallyCodes(jobId, entries, expiresAtFrom(new Date()));
  }

  /** `if_not_exists` codes of recorded outcomes, grouped per tally item. */
  private async writeTallyCodes(jobId: string, entries: ReadonlyArray<Pick<LedgerEntry, 'index' | 'status' | 'failureReasonCode' | 'updatedAt'>>, expiresAt: number): Promise<void> {
    const codes = entries.flatMap((entry) => {
      const code = tallyCodeOfOutcome(entry);
      return code === undefined ? [] : [{ index: entry.index, code }];
    });
    await Promise.all(
      tallyOutcomeUpdates(jobId, codes, expiresAt).map((update) => this.documentClient.send(new UpdateCommand({ TableName: this.tableName, ...update }))),
    );
  }

  /**
   * Every tally code below its ledger outcome's code is raised to it, each with the max-register
   * condition (`#r < :code`) so a delivery event's higher code written meanwhile is never lowered.
   * One consistent Query of the chunk's tally items; writes only where they disagree (rare).
   */
  private async raiseTallyCodes(jobId: string, entries: ReadonlyArray<Pick<LedgerEntry, 'index' | 'status' | 'failureReasonCode' | 'updatedAt'>>): Promise<void> {
    const expected = entries.flatMap((entry) => {
      const code = tallyCodeOfOutcome(entry);
      return code === undefined ? [] : [{ slot: tallySlotOf(jobId, entry.index), code }];
    });
    if (expected.length === 0) return;
    const keys = expected.map(({ slot }) => slot.key.sk).sort();
    const items = await this.queryAll({
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
          await this.documentClient.send(
            new UpdateCommand({
              TableName: this.tableName,
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

  private async batchWrite(requests: ReadonlyArray<Record<string, unknown>>, exhausted: string): Promise<void> {
    for (let start = 0; start < requests.length; start += 25) {
      let batch = requests.slice(start, start + 25);
      // BatchWrite may hand back unprocessed items under load; keep offering them, with a short pause.
      for (let attempt = 0; batch.length > 0; attempt += 1) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(1000, 25 * 2 ** attempt)));
        const result = await this.documentClient.send(new BatchWriteCommand({ RequestItems: { [this.tableName]: batch as never } }));
        batch = (result.UnprocessedItems?.[this.tableName] ?? []) as typeof batch;
        if (attempt > 8 && batch.length > 0) throw new Error(exhausted);
      }
    }
  }

  async releaseClaim(jobId: string, chunkIndex: number, index: number): Promise<boolean> {
    try {
      await this.documentClient.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: ledgerKey(jobId, chunkIndex, index),
          ConditionExpression: '#status = :sending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':sending': 'SENDING' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
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
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    await this.writeTallyCodes(jobId, [{ index, status: 'UNKNOWN', updatedAt: now.toISOString() }], expiresAtFrom(now));
    return true;
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
    const location = await locateLedgerMessage(this.documentClient, this.tableName, messageId);
    if (!location) return undefined;
    const stored = await this.documentClient.send(
      new GetCommand({ TableName: this.tableName, Key: ledgerKey(location.jobId, location.chunkIndex, location.index), ConsistentRead: true }),
    );
    if (!stored.Item) return undefined;
    return { jobId: location.jobId, chunkIndex: location.chunkIndex, entry: decodeLedgerEntry(stored.Item) };
  }

  async reconcileChunk(jobId: string, chunkIndex: number, now: Date): Promise<{ done: boolean }> {
    const chunk = await this.documentClient.send(
      new GetCommand({ TableName: this.tableName, Key: chunkKey(jobId, chunkIndex), ConsistentRead: true }),
    );
    const recipientCount = Number(chunk.Item?.recipientCount ?? 0);
    const counts = { SENT: 0, FAILED: 0, UNKNOWN: 0, SENDING: 0, CANCELLED: 0 };
    const failuresByReason: Record<string, number> = {};
    const ledger = await this.queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': ledgerPartition(jobId, chunkIndex) },
      ProjectionExpression: 'sk, #status, failureReasonCode, updatedAt',
      ExpressionAttributeNames: { '#status': 'status' },
      ConsistentRead: true,
    });
    const outcomes: Array<Pick<LedgerEntry, 'index' | 'status' | 'failureReasonCode' | 'updatedAt'>> = [];
    for (const item of ledger) {
      const { status, failureReasonCode } = decodeLedgerStatus(item);
      const index = ledgerIndexOf(item.sk);
      if (index !== undefined && typeof item.updatedAt === 'string') outcomes.push({ index, status, failureReasonCode, updatedAt: item.updatedAt });
      counts[status] += 1;
      if (status === 'FAILED') {
        const reason = failureReasonCode ?? 'TEMPLATE_SEND_FAILED';
        failuresByReason[reason] = (failuresByReason[reason] ?? 0) + 1;
      }
    }

    // Cancelled recipients are settled too (never sent), so a cancelled job's chunks finish.
    const accounted = counts.SENT + counts.FAILED + counts.UNKNOWN + counts.CANCELLED;
    // Only a complete ledger is the final truth; partial reads would race with other parts' live counters.
    if (accounted < recipientCount) return { done: false };
    // A worker that crashed between an outcome and its tally code left the code unwritten, and its
    // redelivery skips the recipient: the complete ledger writes every missing code (if_not_exists).
    await this.writeTallyCodes(jobId, outcomes, expiresAtFrom(now));
    // A duplicate delivery of this chunk may have marked another worker's in-flight claim UNKNOWN
    // (tally 0U) before that worker recorded its real outcome over it in the ledger: raise such codes.
    await this.raiseTallyCodes(jobId, outcomes);

    const names: Record<string, string> = { '#unknown': 'unknown' };
    const values: Record<string, unknown> = { ':sent': counts.SENT, ':failed': counts.FAILED, ':unknown': counts.UNKNOWN, ':now': now.toISOString() };
    const assignments = ['sent = :sent', 'failed = :failed', '#unknown = :unknown', 'doneAt = if_not_exists(doneAt, :now)'];
    const knownReasons = new Set([...failureReasonsOf(chunk.Item), ...Object.keys(failuresByReason)]);
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

/** The pause stored on a job item, when all of its fields are. */
function pauseOf(item: Record<string, unknown>): JobPause | undefined {
  const { pausedAt, pauseReason, pauseFailsAt } = item;
  return typeof pausedAt === 'string' && typeof pauseReason === 'string' && typeof pauseFailsAt === 'string'
    ? { pausedAt, reason: pauseReason, failsAt: pauseFailsAt }
    : undefined;
}
