/**
 * Delivered service messages per business number and UTC month (shared/delivery/service-tier.ts) in
 * the messaging table: a counter item per number and month (`SVCTIER#<phoneNumberId>` / `MONTH#<YYYY-MM>`,
 * `delivered` ADDed) and a marker per counted message (`SVCMSG#<message id>` / `SVC#<phoneNumberId>`,
 * its `ordinal` and `month`). Single-item writes only (dynalite has no transactions):
 *
 * 1. the marker, read consistently: a message counted before answers its ordinal, nothing written;
 * 2. the counter ADDed by one (the new value is the message's ordinal);
 * 3. the marker put if absent. A concurrent count of the same message (its `delivered` and `read` in
 *    one batch) loses this condition: it takes the winner's ordinal back off the counter (ADD -1).
 *
 * A crash between 2 and 3 (or an SDK retry of 2 after a lost answer) counts that message once more
 * when its status is applied again: the month's count can run ahead by one per such fault, never
 * behind, so the tier is never over-granted. Meta's own `pricing.type` on the status stays the truth
 * for the price wherever Meta sends one.
 */
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ServiceMessageCounter } from '../../delivery/service-tier';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';

const DAY_SECONDS = 86_400;
/** Counters are kept a year and a month (a year of history); markers while statuses of the month may still come. */
const COUNTER_RETENTION_SECONDS = 400 * DAY_SECONDS;
const MARKER_RETENTION_SECONDS = 70 * DAY_SECONDS;

const monthStartSeconds = (month: string): number => Date.parse(`${month}-01T00:00:00Z`) / 1000;

export class DynamoDbServiceMessageCounter implements ServiceMessageCounter {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.client);
  }

  async countDelivery(phoneNumberId: string, month: string, messageId: string): Promise<{ ordinal: number; month: string }> {
    const markerKey = messagingKeys.serviceDelivery(phoneNumberId, messageId);
    const counted = await this.marker(markerKey);
    if (counted) return counted;
    const ordinal = await this.add(phoneNumberId, month, 1);
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...markerKey, ordinal, month, expiresAt: monthStartSeconds(month) + MARKER_RETENTION_SECONDS },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return { ordinal, month };
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      await this.add(phoneNumberId, month, -1);
      const winner = await this.marker(markerKey);
      if (!winner) throw new Error(`service message marker of ${messageId} vanished after its conditional put failed`);
      return winner;
    }
  }

  async deliveriesIn(phoneNumberId: string, month: string): Promise<number> {
    const result = await this.client.send(
      new GetCommand({ TableName: this.tableName, Key: messagingKeys.serviceTier(phoneNumberId, month), ConsistentRead: true, ProjectionExpression: 'delivered' }),
    );
    const delivered = result.Item?.delivered;
    return typeof delivered === 'number' ? delivered : 0;
  }

  private async add(phoneNumberId: string, month: string, count: number): Promise<number> {
    const result = await this.client.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: messagingKeys.serviceTier(phoneNumberId, month),
        UpdateExpression: 'ADD delivered :count SET expiresAt = if_not_exists(expiresAt, :expiresAt)',
        ExpressionAttributeValues: { ':count': count, ':expiresAt': monthStartSeconds(month) + COUNTER_RETENTION_SECONDS },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return Number(result.Attributes?.delivered ?? 0);
  }

  private async marker(key: { pk: string; sk: string }): Promise<{ ordinal: number; month: string } | undefined> {
    const result = await this.client.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    const item = result.Item;
    return item && typeof item.ordinal === 'number' && typeof item.month === 'string' ? { ordinal: item.ordinal, month: item.month } : undefined;
  }
}
