/**
 * The daily redelivery quota (shared/customer-events/redelivery-quota.ts) in the rateLimits table:
 * one item per organization and UTC day, `REDELIVERY_QUOTA#<orgId>#<YYYY-MM-DD>`, `used` counting
 * the events redelivered that day, left to TTL a day after the day ends.
 *
 * One conditional update adds a request's events unless the total would pass the limit. Like the
 * rate limiter, each granted request writes its own token attribute (`t_<token>`) and the condition
 * refuses a write whose token is there already: an update the table applied but answered with a
 * timeout, retried by the SDK, fails the condition instead of counting twice, and the read-back
 * finds the token (granted). Only granted requests add a token, each of at least one event, so an
 * item holds at most the quota's number of tokens (5,000 × ~15 bytes).
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RedeliveryQuota } from '../../customer-events/redelivery-quota';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';

const DAY_SECONDS = 86_400;

export class DynamoDbRedeliveryQuota implements RedeliveryQuota {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.client);
  }

  async reserve(organizationId: string, day: string, count: number, limit: number): Promise<{ granted: boolean; used: number }> {
    const key = { pk: `REDELIVERY_QUOTA#${organizationId}#${day}` };
    const token = `t_${randomBytes(9).toString('base64url')}`;
    if (count > limit) return { granted: false, used: await this.used(key) };
    try {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key,
          UpdateExpression: 'ADD used :count SET #token = :count, expiresAt = if_not_exists(expiresAt, :expiresAt)',
          ConditionExpression: '(attribute_not_exists(used) OR used <= :most) AND attribute_not_exists(#token)',
          ExpressionAttributeNames: { '#token': token },
          ExpressionAttributeValues: { ':count': count, ':most': limit - count, ':expiresAt': Date.parse(`${day}T00:00:00Z`) / 1000 + 2 * DAY_SECONDS },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return { granted: true, used: Number(result.Attributes?.used ?? count) };
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      const item = await this.read(key, token);
      return { granted: item[token] !== undefined, used: typeof item.used === 'number' ? item.used : 0 };
    }
  }

  private async used(key: { pk: string }): Promise<number> {
    const item = await this.read(key);
    return typeof item.used === 'number' ? item.used : 0;
  }

  /** The day's count (and, for a read-back, whether `token` is there): never the whole token list. */
  private async read(key: { pk: string }, token?: string): Promise<Record<string, unknown>> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: key,
        ConsistentRead: true,
        ProjectionExpression: token ? 'used, #token' : 'used',
        ...(token ? { ExpressionAttributeNames: { '#token': token } } : {}),
      }),
    );
    return result.Item ?? {};
  }
}
