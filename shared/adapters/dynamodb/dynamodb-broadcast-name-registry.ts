import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { BroadcastNameRegistry } from '../../broadcast/ports';
import { classifyStoreFaults } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';

/** One claim item per organization and campaign name in the messaging table (key: messaging-table.ts). */
export class DynamoDbBroadcastNameRegistry implements BroadcastNameRegistry {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  private key(organizationId: string, broadcastName: string) {
    return messagingKeys.broadcastName(organizationId, broadcastName);
  }

  async claim(organizationId: string, broadcastName: string, jobId: string): Promise<boolean> {
    try {
      await this.documentClient.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...this.key(organizationId, broadcastName), broadcastName, jobId },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  }

  async release(organizationId: string, broadcastName: string, jobId: string): Promise<void> {
    try {
      await this.documentClient.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: this.key(organizationId, broadcastName),
          ConditionExpression: 'jobId = :jobId',
          ExpressionAttributeValues: { ':jobId': jobId },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
