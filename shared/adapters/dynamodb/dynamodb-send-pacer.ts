/**
 * The shared send schedule of each business account: one item holding the next free slot
 * (epoch ms). A reservation moves it forward by count/rate seconds with a conditional update,
 * so concurrent workers in any number of Lambdas get disjoint slots and the account's rate is
 * never exceeded. One write per block of ~100 ms of sends, not per message.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SendPacer } from '../../sending/ports';
import { classifyStoreFaults } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';

const pacerKey = messagingKeys.pacer;

export class DynamoDbSendPacer implements SendPacer {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async reserve(accountKey: string, count: number, ratePerSecond: number, nowMs: number): Promise<number> {
    const durationMs = (count * 1000) / ratePerSecond;
    // Two cases, each one atomic conditional update: the schedule is idle (starts now) or busy (append).
    for (let attempt = 0; attempt < 20; attempt += 1) {
      try {
        await this.documentClient.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: pacerKey(accountKey),
            UpdateExpression: 'SET nextFreeAt = :end',
            ConditionExpression: 'attribute_not_exists(nextFreeAt) OR nextFreeAt <= :now',
            ExpressionAttributeValues: { ':now': nowMs, ':end': nowMs + durationMs },
          }),
        );
        return nowMs;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
      try {
        const result = await this.documentClient.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: pacerKey(accountKey),
            UpdateExpression: 'SET nextFreeAt = nextFreeAt + :duration',
            ConditionExpression: 'nextFreeAt > :now',
            ExpressionAttributeValues: { ':now': nowMs, ':duration': durationMs },
            ReturnValues: 'UPDATED_NEW',
          }),
        );
        return Number(result.Attributes?.nextFreeAt) - durationMs;
      } catch (error) {
        if (!(error instanceof ConditionalCheckFailedException)) throw error;
      }
    }
    throw new Error(`Send pacer for ${accountKey} stayed contended`);
  }

  async holdUntil(accountKey: string, untilMs: number): Promise<void> {
    try {
      await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: pacerKey(accountKey),
          UpdateExpression: 'SET nextFreeAt = :until',
          ConditionExpression: 'attribute_not_exists(nextFreeAt) OR nextFreeAt < :until',
          ExpressionAttributeValues: { ':until': untilMs },
        }),
      );
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }

  /** An eventually consistent read (half a read unit): a moment's staleness only shifts when a waiting chunk starts. */
  async bookedUntil(accountKey: string): Promise<number | undefined> {
    const result = await this.documentClient.send(new GetCommand({ TableName: this.tableName, Key: pacerKey(accountKey), ProjectionExpression: 'nextFreeAt' }));
    const nextFreeAt = result.Item?.nextFreeAt;
    return nextFreeAt === undefined ? undefined : Number(nextFreeAt);
  }
}
