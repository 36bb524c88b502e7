/**
 * What a running job is told, on its job item (messaging-table.ts): `cancelledAt` and the pause
 * (`pausedAt`, `pauseReason`, `pauseFailsAt`). Chunk workers read it often, so the read projects
 * those attributes only.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { JobControl, JobControlStore, JobPause } from '../../broadcast/broadcast-stores';
import { classifyStoreFaults } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';
import { isConditionFailure, type MessagingTable } from './messaging-table-requests';

export class DynamoDbJobControlStore implements JobControlStore {
  private readonly table: MessagingTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    classifyStoreFaults(client);
    this.table = { client, tableName };
  }

  async cancelJob(jobId: string, now: Date, reason?: string): Promise<string | undefined> {
    try {
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.job(jobId),
          // The first cancellation's time (and reason) stays: repeating a cancel changes nothing.
          UpdateExpression: `SET cancelledAt = if_not_exists(cancelledAt, :now)${reason === undefined ? '' : ', cancelReason = if_not_exists(cancelReason, :reason)'}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':now': now.toISOString(), ...(reason === undefined ? {} : { ':reason': reason }) },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return String(result.Attributes?.cancelledAt ?? now.toISOString());
    } catch (error) {
      if (isConditionFailure(error)) return undefined;
      throw error;
    }
  }

  async readJobControl(jobId: string): Promise<JobControl | undefined> {
    const { Item: item } = await this.table.client.send(
      new GetCommand({
        TableName: this.table.tableName,
        Key: messagingKeys.job(jobId),
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
      const result = await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.job(jobId),
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
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.job(jobId),
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
}

/** The pause stored on a job item, when all of its fields are. */
function pauseOf(item: Record<string, unknown>): JobPause | undefined {
  const { pausedAt, pauseReason, pauseFailsAt } = item;
  return typeof pausedAt === 'string' && typeof pauseReason === 'string' && typeof pauseFailsAt === 'string'
    ? { pausedAt, reason: pauseReason, failsAt: pauseFailsAt }
    : undefined;
}
