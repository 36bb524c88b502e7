/**
 * Jobs in the messaging table (keys and item shapes: messaging-table.ts, messaging-job-items.ts):
 * the job item, its chunk items and its recipients as accepted, written together at accept time.
 */
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BroadcastJob } from '../../broadcast/broadcast-job';
import type { JobListPage, JobListQuery, JobRecipient, JobStore } from '../../broadcast/broadcast-stores';
import { classifyStoreFaults } from './dynamodb-errors';
import { decodeJob, jobItem, newChunkItem, recipientsItem } from './messaging-job-items';
import { expiresAtFrom, messagingKeys, organizationJobsStartKey } from './messaging-table';
import { batchWrite, isConditionFailure, putIfAbsent, queryAll, type MessagingTable } from './messaging-table-requests';

export class DynamoDbJobStore implements JobStore {
  private readonly table: MessagingTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    classifyStoreFaults(client);
    this.table = { client, tableName };
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
    const recipientsByChunk = groupListedByChunk(recipients, job.chunkSize);
    const items = [
      ...chunkSizes.map((recipientCount, chunkIndex) => newChunkItem(job.jobId, chunkIndex, recipientCount, expiresAt)),
      ...[...recipientsByChunk].map(([chunkIndex, listed]) => recipientsItem(job.jobId, chunkIndex, listed, expiresAt)),
    ];
    const created = await putIfAbsent(this.table, jobItem(job));
    if (created)
      await batchWrite(
        this.table,
        items.map((item) => ({ PutRequest: { Item: item } })),
        'New job items stayed unprocessed',
      );
    else await Promise.all(items.map((item) => putIfAbsent(this.table, item)));
    return { created };
  }

  async discardJob(jobId: string): Promise<void> {
    type ItemKey = { pk: string; sk: string };
    const keysOf = async (pk: string): Promise<ItemKey[]> =>
      (await queryAll(this.table, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ProjectionExpression: 'pk, sk',
        ConsistentRead: true,
      })) as ItemKey[];
    const jobItems = await keysOf(messagingKeys.jobPartition(jobId));
    const chunkCount = jobItems.filter((key) => key.sk.startsWith(messagingKeys.chunkPrefix)).length;
    const ledgerItems = (
      await Promise.all(Array.from({ length: chunkCount }, (_, chunkIndex) => keysOf(messagingKeys.ledgerPartition(jobId, chunkIndex))))
    ).flat();
    // The job item goes last: while any of its items remain, the job can still be found and discarded again.
    const ordered = [...ledgerItems, ...jobItems.filter((key) => key.sk !== 'JOB'), ...jobItems.filter((key) => key.sk === 'JOB')];
    await batchWrite(
      this.table,
      ordered.map((key) => ({ DeleteRequest: { Key: key } })),
      'Discarded job items stayed unprocessed',
    );
  }

  async markAcceptFailed(jobId: string, at: Date): Promise<void> {
    await this.updateExistingJob(jobId, 'SET acceptFailedAt = :at', { ':at': at.toISOString() });
  }

  async clearAcceptFailed(jobId: string): Promise<void> {
    await this.updateExistingJob(jobId, 'REMOVE acceptFailedAt');
  }

  /** An update of the job item that never creates one (an UpdateItem would, for a job that does not exist). */
  private async updateExistingJob(jobId: string, updateExpression: string, values?: Record<string, unknown>, condition?: string): Promise<void> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.job(jobId),
          UpdateExpression: updateExpression,
          ConditionExpression: condition === undefined ? 'attribute_exists(pk)' : `attribute_exists(pk) AND ${condition}`,
          ...(values ? { ExpressionAttributeValues: values } : {}),
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }

  /**
   * Each new chunk item and its recipients item is a conditional put (a redelivered page creates
   * nothing twice); only the recipients of chunks this call created are added to `totalRecipients`
   * (an ADD), and `totalChunks` is raised only when it is lower (an expander behind another never lowers it).
   */
  async appendChunks(jobId: string, firstChunkIndex: number, chunkSizes: readonly number[], listedRecipients: readonly JobRecipient[]): Promise<void> {
    const job = await this.getJob(jobId);
    if (!job) return;
    const expiresAt = expiresAtFrom(new Date(job.createdAt));
    const listedByChunk = groupListedByChunk(listedRecipients, job.chunkSize);
    // Recipients first: a chunk item is what a worker and the summary count, so it goes last.
    await Promise.all([...listedByChunk].map(([chunkIndex, listed]) => putIfAbsent(this.table, recipientsItem(jobId, chunkIndex, listed, expiresAt))));
    const created = await Promise.all(
      chunkSizes.map((size, offset) => putIfAbsent(this.table, newChunkItem(jobId, firstChunkIndex + offset, size, expiresAt))),
    );
    const added = chunkSizes.reduce((sum, size, offset) => sum + (created[offset] ? size : 0), 0);
    if (added > 0) await this.updateExistingJob(jobId, 'ADD totalRecipients :added', { ':added': added });
    const totalChunks = firstChunkIndex + chunkSizes.length;
    await this.updateExistingJob(jobId, 'SET totalChunks = :chunks', { ':chunks': totalChunks }, 'totalChunks < :chunks');
  }

  async closeExpansion(jobId: string, totals: { totalRecipients: number; totalChunks: number; stopped?: boolean }): Promise<void> {
    await this.updateExistingJob(jobId, 'SET totalRecipients = :recipients, totalChunks = :chunks, expansion = :done', {
      ':recipients': totals.totalRecipients,
      ':chunks': totals.totalChunks,
      ':done': totals.stopped ? 'stopped' : 'done',
    });
  }

  async getJob(jobId: string): Promise<BroadcastJob | undefined> {
    const result = await this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: messagingKeys.job(jobId) }));
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
      const page = await this.table.client.send(
        new QueryCommand({
          TableName: this.table.tableName,
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
}

function groupListedByChunk(recipients: readonly JobRecipient[], chunkSize: number): Map<number, JobRecipient[]> {
  const recipientsByChunk = new Map<number, JobRecipient[]>();
  for (const recipient of recipients) {
    const chunkIndex = Math.floor(recipient.index / chunkSize);
    const listed = recipientsByChunk.get(chunkIndex);
    if (listed) listed.push(recipient);
    else recipientsByChunk.set(chunkIndex, [recipient]);
  }
  return recipientsByChunk;
}
