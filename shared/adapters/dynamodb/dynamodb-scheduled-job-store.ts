/**
 * Scheduled jobs in the messaging table (keys: messaging-table.ts): the held chunk messages under
 * the job (`HELD#<chunk>#<part>`, each one SQS body as `encodeOutboundMessage` writes it) and the
 * sparse due index gsi2 (`SCHEDULED` / `<scheduledAt>#<jobId>`) that the job item carries until a
 * firing finished. Single-item writes only, as everywhere in this table.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand, paginateQuery, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { decodeOutboundMessage, encodeOutboundMessage, type OutboundMessage } from '../../broadcast/chunk-message';
import type { ScheduledJobStore } from '../../broadcast/ports';
import { classifyStoreFaults } from './dynamodb-errors';
import { expiresAtFrom, messagingKeys } from './messaging-table';

export class DynamoDbScheduledJobStore implements ScheduledJobStore {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async holdMessages(jobId: string, messages: readonly OutboundMessage[]): Promise<void> {
    const parts = new Map<number, number>();
    const expiresAt = expiresAtFrom(new Date());
    await Promise.all(
      messages.map((message) => {
        const part = parts.get(message.chunkIndex) ?? 0;
        parts.set(message.chunkIndex, part + 1);
        const item = { ...messagingKeys.held(jobId, message.chunkIndex, part), body: encodeOutboundMessage(message), expiresAt };
        // Overwriting is harmless: a retried accept (same Idempotency-Key, same job id) holds the same messages.
        return this.documentClient.send(new PutCommand({ TableName: this.tableName, Item: item }));
      }),
    );
  }

  async heldMessages(jobId: string): Promise<OutboundMessage[]> {
    const messages: OutboundMessage[] = [];
    const pages = paginateQuery(
      { client: this.documentClient },
      {
        TableName: this.tableName,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :held)',
        ExpressionAttributeValues: { ':pk': messagingKeys.jobPartition(jobId), ':held': messagingKeys.heldPrefix },
        ConsistentRead: true,
      },
    );
    for await (const page of pages) for (const item of page.Items ?? []) messages.push(decodeOutboundMessage(String(item.body)));
    return messages;
  }

  async markFired(jobId: string, now: Date): ReturnType<ScheduledJobStore['markFired']> {
    try {
      const result = await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: messagingKeys.job(jobId),
          UpdateExpression: 'SET firedAt = if_not_exists(firedAt, :now)',
          // A job cancelled before any firing stays unfired: nothing of it is ever queued.
          ConditionExpression: 'attribute_exists(scheduledAt) AND (attribute_not_exists(cancelledAt) OR attribute_exists(firedAt))',
          ExpressionAttributeValues: { ':now': now.toISOString() },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return { fired: true, stillDue: result.Attributes?.gsi2pk !== undefined };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const current = await this.documentClient.send(
        new GetCommand({ TableName: this.tableName, Key: messagingKeys.job(jobId), ProjectionExpression: 'scheduledAt', ConsistentRead: true }),
      );
      // A job sent at once (or none at all) is no scheduled job: nothing to fire.
      return { fired: false, reason: typeof current.Item?.scheduledAt === 'string' ? 'CANCELLED' : 'NOT_FOUND' };
    }
  }

  async removeFromDueIndex(jobId: string): Promise<void> {
    try {
      await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: messagingKeys.job(jobId),
          UpdateExpression: 'REMOVE gsi2pk, gsi2sk',
          // Never recreate a discarded job as a bare key.
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  async dueJobs(until: Date, limit: number): Promise<string[]> {
    const { gsi2pk } = messagingKeys.dueIndex('', '');
    const result = await this.documentClient.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi2',
        // '#~' sorts after every `#<jobId>`, so every job of that very millisecond is included.
        KeyConditionExpression: 'gsi2pk = :pk AND gsi2sk <= :until',
        ExpressionAttributeValues: { ':pk': gsi2pk, ':until': `${until.toISOString()}#~` },
        ProjectionExpression: 'jobId',
        Limit: limit,
      }),
    );
    return (result.Items ?? []).map((item) => String(item.jobId));
  }
}
