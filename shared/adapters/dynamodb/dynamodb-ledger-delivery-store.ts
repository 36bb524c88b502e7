/**
 * Meta's status events on the broadcast ledger (messaging table, keys in messaging-table.ts).
 * Two single-item writes per event, each idempotent and order-independent:
 *
 * 1. the ledger entry: `SET <stage>At = if_not_exists(…)` (+ Meta's error on failed, + the message
 *    id and its gsi1 keys when the entry had none), only on an existing entry;
 * 2. the recipient's tally code: `SET r = :code` only while the stored code ranks lower
 *    (a refused condition means a code of this rank or above is already there: nothing to do).
 *
 * The order matters for crashes: facts first, so a redelivered event that finds its facts already
 * written still moves the tally.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApplyResult, LedgerDeliveryStore, StatusEvent } from '../../delivery/ports';
import { tallyCodeOfEvent, tallyRankOf } from '../../delivery/recipient-status';
import { classifyStoreFaults } from './dynamodb-errors';
import { deliveryFactsUpdate, expiresAtFrom, ledgerIndexOf, ledgerLocationOf, messagingKeys, tallySlotOf } from './messaging-table';

const isConditionFailure = (error: unknown) => error instanceof ConditionalCheckFailedException;

type Location = { jobId: string; chunkIndex: number; index: number };

export class DynamoDbLedgerDeliveryStore implements LedgerDeliveryStore {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async jobOwner(jobId: string): Promise<{ organizationId: string; phoneNumberId: string } | undefined> {
    const result = await this.documentClient.send(
      new GetCommand({ TableName: this.tableName, Key: messagingKeys.job(jobId), ProjectionExpression: 'organizationId, phoneNumberId' }),
    );
    const { organizationId, phoneNumberId } = result.Item ?? {};
    if (typeof organizationId !== 'string' || typeof phoneNumberId !== 'string') return undefined;
    return { organizationId, phoneNumberId };
  }

  async locateMessage(messageId: string): Promise<Location | undefined> {
    // gsi1 is eventually consistent on AWS: an event within ~1 s of the send may miss; ours carry callback data.
    const { gsi1pk, gsi1sk } = messagingKeys.messageId(messageId);
    const page = await this.documentClient.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
        ExpressionAttributeValues: { ':pk': gsi1pk, ':sk': gsi1sk },
        Limit: 1,
      }),
    );
    const item = page.Items?.[0];
    const location = ledgerLocationOf(item?.pk);
    const index = ledgerIndexOf(item?.sk);
    return location && index !== undefined ? { ...location, index } : undefined;
  }

  async applyEvent(location: Location, event: StatusEvent): Promise<ApplyResult> {
    if (!(await this.addFacts(location, event))) return 'not-found';
    await this.raiseTally(location, event);
    return 'applied';
  }

  private async addFacts({ jobId, chunkIndex, index }: Location, event: StatusEvent): Promise<boolean> {
    const facts = deliveryFactsUpdate(event);
    const names: Record<string, string> = facts.names;
    const values: Record<string, unknown> = { ...facts.values, ':messageId': event.messageId, ...prefixed(messagingKeys.messageId(event.messageId)) };
    const assignments = [
      ...facts.set,
      'messageId = if_not_exists(messageId, :messageId)',
      'gsi1pk = if_not_exists(gsi1pk, :gsi1pk)',
      'gsi1sk = if_not_exists(gsi1sk, :gsi1sk)',
    ];
    try {
      await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: messagingKeys.ledger(jobId, chunkIndex, index),
          UpdateExpression: `SET ${assignments.join(', ')}`,
          // Never creates an entry: an event for a recipient we have no claim of is not ours to record.
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  private async raiseTally({ jobId, index }: Location, event: StatusEvent): Promise<void> {
    const slot = tallySlotOf(jobId, index);
    try {
      await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: slot.key,
          UpdateExpression: 'SET #r = :code, expiresAt = if_not_exists(expiresAt, :expiresAt)',
          ConditionExpression: 'attribute_not_exists(#r) OR #r < :rank',
          ExpressionAttributeNames: { '#r': slot.attribute },
          ExpressionAttributeValues: { ':code': tallyCodeOfEvent(event.stage, event.error?.code), ':rank': tallyRankOf(event.stage), ':expiresAt': expiresAtFrom(event.timestamp) },
        }),
      );
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
  }
}

const prefixed = (attributes: Record<string, string>): Record<string, string> =>
  Object.fromEntries(Object.entries(attributes).map(([name, value]) => [`:${name}`, value]));
