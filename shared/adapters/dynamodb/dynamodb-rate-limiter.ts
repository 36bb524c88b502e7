import { randomBytes } from 'node:crypto';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { RateLimitDecision, RateLimiter } from '../../rate-limiting/rate-limiter';
import { currentWindowAllowance, secondsUntilAdmitted, WINDOW_MS, windowStartMs } from '../../rate-limiting/sliding-window';
import { RateLimitStoreUnavailableError } from '../../rate-limiting/errors';
import { classifyStoreFaults, storeFault } from './dynamodb-errors';

interface WindowItem {
  requestCount?: number;
  [tokenAttribute: string]: unknown;
}

/** Each admitted request's token is an attribute of its own (`t_<token>`), not a member of one set: see below. */
const tokenAttribute = (token: string) => `t_${token}`;

/**
 * One item per bucket and minute. A request reads the previous minute's count (that window is
 * closed), works out how many requests the current minute may still hold (sliding-window.ts), and
 * increments the current minute's item with one conditional update that is refused once that
 * allowance is reached, so concurrent Lambdas never let more than the limit through. No
 * transaction is needed: the only item written is the current minute's.
 *
 * Every admitted request adds its own random token to the item, and the condition refuses a write
 * whose token is already there. When the SDK retries an update the table applied but answered with
 * a timeout, the retry fails that condition instead of counting twice, and the read-back finds the
 * token: the request was admitted (not refused for a conflict with itself). Tokens are 12
 * characters and only admitted requests add one, so an item stays under limit × 15 bytes.
 *
 * A token is an attribute of its own rather than a member of one string set: the update's
 * `UPDATED_NEW` answer then carries the count, the one new token and the expiry, where a set
 * carried every token of the minute back with every request (up to ~8 KB at 600/min, unmarshalled
 * into a Set each time), and the condition is one attribute lookup instead of a scan of the set.
 * Reads project only what they use, for the same reason.
 */
export class DynamoDbRateLimiter implements RateLimiter {
  /**
   * A closed minute's count no longer changes, so each bucket's previous-minute count is read once
   * per minute and process (a warm Lambda serves many requests of one key per minute), halving the
   * reads. A request in flight across the boundary may still land in the closed minute after the
   * read: at most a few requests the estimate does not see. Only the current minute's buckets are
   * kept: the map never outgrows one minute's keys.
   */
  private closedWindows: { start: number; counts: Map<string, number> } = { start: 0, counts: new Map() };

  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async consume(bucket: string, limitPerMinute: number, now: Date): Promise<RateLimitDecision> {
    try {
      return await this.decide(bucket, limitPerMinute, now.getTime());
    } catch (error) {
      throw storeFault(error, RateLimitStoreUnavailableError, 'Rate-limit store');
    }
  }

  private async decide(bucket: string, limit: number, nowMs: number): Promise<RateLimitDecision> {
    const currentStart = windowStartMs(nowMs);
    const currentKey = this.keyOf(bucket, currentStart);
    const previous = await this.previousCount(bucket, currentStart);
    const allowance = currentWindowAllowance(limit, previous, nowMs);
    const refuse = (current: number): RateLimitDecision => ({
      allowed: false,
      retryAfterSeconds: secondsUntilAdmitted(limit, { previous, current }, nowMs),
      remaining: 0,
    });
    // The previous minute alone fills the limit: nothing to write.
    if (allowance <= 0) return refuse((await this.read(currentKey)).requestCount ?? 0);

    const token = tokenAttribute(randomBytes(9).toString('base64url'));
    try {
      const result = await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: currentKey,
          UpdateExpression: 'ADD requestCount :one SET #token = :one, expiresAt = if_not_exists(expiresAt, :expiresAt)',
          ConditionExpression: '(attribute_not_exists(requestCount) OR requestCount < :allowance) AND attribute_not_exists(#token)',
          ExpressionAttributeNames: { '#token': token },
          ExpressionAttributeValues: {
            ':one': 1,
            ':allowance': allowance,
            // Kept while it can still be another minute's "previous" window, then left to TTL.
            ':expiresAt': (currentStart + 3 * WINDOW_MS) / 1000,
          },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return this.admitted(allowance, Number(result.Attributes?.requestCount ?? 1));
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // DynamoDB can return the item with the failure (ReturnValuesOnConditionCheckFailure); dynalite
      // cannot, so the item is read back consistently either way.
      const item = await this.read(currentKey, token);
      const current = item.requestCount ?? 0;
      return item[token] !== undefined ? this.admitted(allowance, current) : refuse(current);
    }
  }

  private async previousCount(bucket: string, currentStart: number): Promise<number> {
    if (this.closedWindows.start !== currentStart) this.closedWindows = { start: currentStart, counts: new Map() };
    const known = this.closedWindows.counts.get(bucket);
    if (known !== undefined) return known;
    const count = (await this.read(this.keyOf(bucket, currentStart - WINDOW_MS))).requestCount ?? 0;
    this.closedWindows.counts.set(bucket, count);
    return count;
  }

  private admitted(allowance: number, current: number): RateLimitDecision {
    return { allowed: true, retryAfterSeconds: 0, remaining: Math.max(0, allowance - current) };
  }

  private keyOf(bucket: string, windowStart: number) {
    return { pk: `RL#${bucket}#${windowStart / 1000}` };
  }

  /** The window's count (and, for a read-back, whether `token` is in it): never the whole token list. */
  private async read(key: { pk: string }, token?: string): Promise<WindowItem> {
    const result = await this.documentClient.send(
      new GetCommand({
        TableName: this.tableName,
        Key: key,
        ConsistentRead: true,
        ProjectionExpression: token ? 'requestCount, #token' : 'requestCount',
        ...(token ? { ExpressionAttributeNames: { '#token': token } } : {}),
      }),
    );
    return (result.Item ?? {}) as WindowItem;
  }
}
