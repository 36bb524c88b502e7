/**
 * Meta's status events on sends made through /upstream (UpstreamDeliveryStore), and the ids of
 * messages an organization received (ReceivedMessageIds), in the messaging table next to the
 * wrapper's id records (dynamodb-wrapper-id-records.ts, docs/DATA-MODEL.md).
 *
 * Every key carries the organization the event processor resolved from the event's phone number,
 * so an event can only ever reach that organization's records: another organization's sendId or
 * message id is simply absent ('not-found'), whatever the event claims.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ApplyResult, StatusEvent, UpstreamDeliveryStore } from '../../delivery/ports';
import type { Clock } from '../../ports/clock';
import type { ReceivedMessageIds } from '../../upstream/ports';
import { deliveryFactsUpdate } from './messaging-tally-items';
import { messagingKeys } from './messaging-table';
import { wrapperIdItem } from './dynamodb-wrapper-id-records';

export class DynamoDbUpstreamDeliveryStore implements UpstreamDeliveryStore, ReceivedMessageIds {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly clock: Clock,
  ) {}

  /**
   * By our callback data (`u1:<sendId>`) first, else by the message id the wrapper recorded for
   * the organization (with its sendId). Facts are added only where absent (idempotent, order-free).
   */
  async applyEvent(organizationId: string, event: StatusEvent): Promise<ApplyResult> {
    if (event.reference?.kind === 'upstream-send' && (await this.applyToSend(organizationId, event.reference.sendId, event)) === 'applied') return 'applied';
    const sendId = await this.sendIdOfMessage(organizationId, event.messageId);
    return sendId === undefined ? 'not-found' : this.applyToSend(organizationId, sendId, event);
  }

  /** The message id record of a message the organization received (`direction: received`); idempotent. */
  async recordReceivedMessageId(organizationId: string, wabaId: string, phoneNumberId: string, messageId: string): Promise<void> {
    await this.putIfAbsent(
      wrapperIdItem('MESSAGE', { organizationId, wabaId, phoneNumberId, id: messageId, recordedAt: this.clock.now() }, { direction: 'received' }),
    );
  }

  private async applyToSend(organizationId: string, sendId: string, event: StatusEvent): Promise<ApplyResult> {
    const facts = deliveryFactsUpdate(event);
    let updated: Record<string, unknown> | undefined;
    try {
      const result = await this.documentClient.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: messagingKeys.upstreamSend(organizationId, sendId),
          // An unknown send learns its message id from its first event.
          UpdateExpression: `SET ${[...facts.set, '#messageId = if_not_exists(#messageId, :messageId)'].join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { ...facts.names, '#messageId': 'messageId' },
          ExpressionAttributeValues: { ...facts.values, ':messageId': event.messageId },
          ReturnValues: 'ALL_NEW',
        }),
      );
      updated = result.Attributes;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return 'not-found';
      throw error;
    }
    // The organization now owns the message id of a send whose answer never came: it may reply, react, mark read.
    if (updated?.outcome === 'UNKNOWN' && updated.messageId === event.messageId) {
      await this.putIfAbsent(
        wrapperIdItem(
          'MESSAGE',
          {
            organizationId,
            wabaId: String(updated.wabaId ?? ''),
            phoneNumberId: String(updated.phoneNumberId ?? ''),
            id: event.messageId,
            recordedAt: this.clock.now(),
          },
          { direction: 'sent', sendId },
        ),
      );
    }
    return 'applied';
  }

  private async sendIdOfMessage(organizationId: string, messageId: string): Promise<string | undefined> {
    const result = await this.documentClient.send(
      new GetCommand({
        TableName: this.tableName,
        Key: messagingKeys.wrapperId(organizationId, 'MESSAGE', messageId),
        ConsistentRead: true,
        ProjectionExpression: 'sendId',
      }),
    );
    const sendId = result.Item?.sendId;
    return typeof sendId === 'string' ? sendId : undefined;
  }

  /** Redelivered events and messages write nothing more (and never move a record's time). */
  private async putIfAbsent(item: Record<string, unknown>): Promise<void> {
    try {
      await this.documentClient.send(new PutCommand({ TableName: this.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
    }
  }
}
