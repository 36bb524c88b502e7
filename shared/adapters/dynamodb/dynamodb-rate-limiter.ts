import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { secondsUntilWindowEnds, windowOf, type RateLimitDecision, type RateLimiter } from '../../rate-limiting/rate-limiter';
import { RateLimitStoreUnavailableError } from '../../rate-limiting/errors';
import { classifyStoreFaults, storeFault } from './dynamodb-errors';

/**
 * One item per bucket and minute, incremented with a conditional update: the write is refused
 * once the window is full, so concurrent Lambdas never let more than the limit through.
 */
export class DynamoDbRateLimiter implements RateLimiter {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async consume(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision> {
    const window = windowOf(now);
    try {
      const result = await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: { pk: `RL#${bucket}#${window.startSeconds}` },
          UpdateExpression: 'ADD requestCount :one SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
          ConditionExpression: 'attribute_not_exists(requestCount) OR requestCount < :limit',
          ExpressionAttributeValues: { ':one': 1, ':limit': limitPerMinute, ':expiresAt': window.endSeconds + 60 },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      const used = Number(result.Attributes?.requestCount ?? 1);
      return { allowed: true, retryAfterSeconds: 0, remaining: Math.max(0, limitPerMinute - used) };
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) {
        return { allowed: false, retryAfterSeconds: secondsUntilWindowEnds(now), remaining: 0 };
      }
      throw storeFault(error, RateLimitStoreUnavailableError, 'Rate-limit store');
    }
  }
}
