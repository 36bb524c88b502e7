/**
 * Delivered service messages per business number and UTC month (shared/delivery/service-tier.ts) in
 * the messaging table: a counter item per number and month (`SVCTIER#<phoneNumberId>` / `MONTH#<YYYY-MM>`,
 * `delivered`) and a marker per counted message (`SVCMSG#<message id>` / `SVC#<phoneNumberId>`, its
 * `ordinal` and `month`). Single-item conditional writes only (dynalite has no transactions), each
 * recognising its own earlier attempt (an SDK retry after a lost answer, or the batch applied again
 * after a crash):
 *
 * 1. the marker, read consistently: a message counted before answers its ordinal, nothing written;
 * 2. **claim**: the counter's `delivered` and the message's token attribute (`m_<hash of the id>`) both
 *    set to `delivered + 1` in one update, on condition the token is absent. A retry of a claim that
 *    was applied fails the condition and reads the token back: the same ordinal, never a second one;
 * 3. the marker put if absent. A concurrent count of the same message that already put its marker
 *    wins: a claim of another ordinal is taken back off the counter (ADD -1, with the token removed,
 *    on condition the token is still there, so it is taken back once);
 * 4. the token removed (the counter item holds tokens only while a count is under way).
 *
 * A crash after 3 leaves a token of a few bytes behind (harmless: that message answers from its
 * marker). The one way to count a message twice: two concurrent counts of the same message, the
 * second claiming after the first removed its token, and the second crashing before it took its
 * claim back; then the month's count runs ahead by one (never behind: the tier is never
 * over-granted). Meta's own `pricing.type` stays the truth for the price wherever Meta sends one.
 */
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ServiceMessageCounter } from '../../delivery/service-tier';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';

const DAY_SECONDS = 86_400;
/** Counters are kept a year and a month (a year of history); markers while statuses of the month may still come. */
const COUNTER_RETENTION_SECONDS = 400 * DAY_SECONDS;
const MARKER_RETENTION_SECONDS = 70 * DAY_SECONDS;

const monthStartSeconds = (month: string): number => Date.parse(`${month}-01T00:00:00Z`) / 1000;

/**
 * The counter attribute a message's claim writes: short, and free of characters an attribute name must not hold.
 *
 * @example claimTokenOf('wamid.HBgL…') // 'm_3Jx0…' (18 characters)
 */
export const claimTokenOf = (messageId: string): string => `m_${createHash('sha256').update(messageId).digest('base64url').slice(0, 16)}`;

type Counted = { ordinal: number; month: string };

export class DynamoDbServiceMessageCounter implements ServiceMessageCounter {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.client);
  }

  async countDelivery(phoneNumberId: string, month: string, messageId: string): Promise<Counted> {
    const markerKey = messagingKeys.serviceDelivery(phoneNumberId, messageId);
    const counted = await this.marker(markerKey);
    if (counted) return counted;
    const counterKey = messagingKeys.serviceTier(phoneNumberId, month);
    const token = claimTokenOf(messageId);
    const ordinal = await this.claim(counterKey, month, token);
    if (ordinal === undefined) {
      // The token went between the claim's refusal and its read: its count finished; the marker says.
      const finished = await this.marker(markerKey);
      if (finished) return finished;
      throw new Error(`service message count of ${messageId} found neither its claim nor its marker`);
    }
    const winner = await this.putMarker(markerKey, { ordinal, month });
    const ours = winner.ordinal === ordinal && winner.month === month;
    await this.release(counterKey, token, !ours);
    return winner;
  }

  async deliveriesIn(phoneNumberId: string, month: string): Promise<number> {
    const result = await this.client.send(
      new GetCommand({
        TableName: this.tableName,
        Key: messagingKeys.serviceTier(phoneNumberId, month),
        ConsistentRead: true,
        ProjectionExpression: 'delivered',
      }),
    );
    const delivered = result.Item?.delivered;
    return typeof delivered === 'number' ? delivered : 0;
  }

  /** The message's ordinal: a new one, or the one its earlier claim took (undefined: that claim was already released). */
  private async claim(counterKey: { pk: string; sk: string }, month: string, token: string): Promise<number | undefined> {
    try {
      const result = await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: counterKey,
          // Both operands read the item before the update: the token holds the new count, the message's ordinal.
          UpdateExpression:
            'SET delivered = if_not_exists(delivered, :zero) + :one, #token = if_not_exists(delivered, :zero) + :one, expiresAt = if_not_exists(expiresAt, :expiresAt)',
          ConditionExpression: 'attribute_not_exists(#token)',
          ExpressionAttributeNames: { '#token': token },
          ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':expiresAt': monthStartSeconds(month) + COUNTER_RETENTION_SECONDS },
          ReturnValues: 'UPDATED_NEW',
        }),
      );
      return Number(result.Attributes?.[token]);
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      const item = await this.client.send(
        new GetCommand({
          TableName: this.tableName,
          Key: counterKey,
          ConsistentRead: true,
          ProjectionExpression: '#token',
          ExpressionAttributeNames: { '#token': token },
        }),
      );
      const claimed = item.Item?.[token];
      return typeof claimed === 'number' ? claimed : undefined;
    }
  }

  /** Puts the marker unless one is there; answers the marker that stands (ours, or the concurrent winner's). */
  private async putMarker(markerKey: { pk: string; sk: string }, counted: Counted): Promise<Counted> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...markerKey, ...counted, expiresAt: monthStartSeconds(counted.month) + MARKER_RETENTION_SECONDS },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return counted;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      const standing = await this.marker(markerKey);
      if (!standing) throw new Error(`service message marker ${markerKey.pk} vanished after its conditional put failed`, { cause: error });
      return standing;
    }
  }

  /** Removes the claim's token; `takeBack` also takes its count off (once: only while the token is there). */
  private async release(counterKey: { pk: string; sk: string }, token: string, takeBack: boolean): Promise<void> {
    try {
      await this.client.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: counterKey,
          UpdateExpression: takeBack ? 'REMOVE #token ADD delivered :minusOne' : 'REMOVE #token',
          ConditionExpression: 'attribute_exists(#token)',
          ExpressionAttributeNames: { '#token': token },
          ...(takeBack ? { ExpressionAttributeValues: { ':minusOne': -1 } } : {}),
        }),
      );
    } catch (error) {
      // Released already (a concurrent count of the same message, or this release's own retry).
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  private async marker(key: { pk: string; sk: string }): Promise<Counted | undefined> {
    const result = await this.client.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    const item = result.Item;
    return item && typeof item.ordinal === 'number' && typeof item.month === 'string' ? { ordinal: item.ordinal, month: item.month } : undefined;
  }
}
