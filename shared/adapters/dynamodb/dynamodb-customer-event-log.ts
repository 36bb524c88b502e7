/**
 * The organizations' customer events, kept 30 days for redelivery, in the messaging table
 * (messaging-table.ts): two items per event, one by id (written put-if-absent: it decides whether
 * the id is new, and answers `find`) and one by time (answers `between` with one key-condition
 * query). A republished id costs one failed conditional put and a read; its time item is written
 * again from the recorded event, so an interruption between the two writes mends itself.
 *
 * The event is stored as its JSON text: `data` is the customer's payload and keeps its exact shape.
 */
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { CustomerEventLogWriter } from '../../customer-events/delivery-ports';
import type { CustomerEvent } from '../../customer-events/ports';
import { classifyStoreFaults, isConditionalCheckFailure, storeFault } from './dynamodb-errors';
import { MalformedMessagingItemError, messagingKeys } from './messaging-table';

export const CUSTOMER_EVENT_RETENTION_DAYS = 30;
const DAY_SECONDS = 86_400;

const storedEventSchema = v.object({
  id: v.string(),
  type: v.string(),
  createdAt: v.string(),
  data: v.record(v.string(), v.unknown()),
});

type Item = Record<string, unknown>;

export class DynamoDbCustomerEventLog implements CustomerEventLogWriter {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async record(organizationId: string, event: CustomerEvent): Promise<CustomerEvent> {
    const expiresAt = Math.floor(new Date(event.createdAt).getTime() / 1000) + CUSTOMER_EVENT_RETENTION_DAYS * DAY_SECONDS;
    const attributes = { organizationId, eventId: event.id, event: JSON.stringify(event), expiresAt };
    let recorded = event;
    try {
      await this.documentClient.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...messagingKeys.customerEventById(organizationId, event.id), ...attributes },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw storeFault(error);
      recorded = (await this.find(organizationId, event.id, { ignoreExpiry: true })) ?? event;
    }
    try {
      await this.documentClient.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...messagingKeys.customerEventByTime(organizationId, recorded.createdAt, recorded.id),
            ...attributes,
            event: JSON.stringify(recorded),
          },
        }),
      );
    } catch (error) {
      throw storeFault(error);
    }
    return recorded;
  }

  async find(organizationId: string, eventId: string, options: { ignoreExpiry?: boolean } = {}): Promise<CustomerEvent | undefined> {
    let item: Item | undefined;
    try {
      ({ Item: item } = await this.documentClient.send(
        new GetCommand({ TableName: this.tableName, Key: messagingKeys.customerEventById(organizationId, eventId), ConsistentRead: true }),
      ));
    } catch (error) {
      throw storeFault(error);
    }
    if (!item || (!options.ignoreExpiry && this.expired(item))) return undefined;
    return this.decode(item);
  }

  async between(organizationId: string, from: Date, to: Date, limit: number): Promise<CustomerEvent[]> {
    const events: CustomerEvent[] = [];
    let startKey: Item | undefined;
    do {
      let page: { Items?: Item[]; LastEvaluatedKey?: Item };
      try {
        page = await this.documentClient.send(
          new QueryCommand({
            TableName: this.tableName,
            // Sort keys are `<ISO time>#<id>`: every key of an instant before `to` sorts below `to`'s ISO text.
            KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
            ExpressionAttributeValues: { ':pk': messagingKeys.customerEventPartition(organizationId), ':from': from.toISOString(), ':to': to.toISOString() },
            ExclusiveStartKey: startKey,
            Limit: Math.min(1000, Math.max(limit - events.length, 1) + 10),
          }),
        );
      } catch (error) {
        throw storeFault(error);
      }
      for (const item of page.Items ?? []) {
        if (events.length >= limit) break;
        if (!this.expired(item)) events.push(this.decode(item));
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey && events.length < limit);
    return events;
  }

  /** DynamoDB deletes expired items lazily (and dynalite never does). */
  private expired(item: Item): boolean {
    return typeof item.expiresAt === 'number' && item.expiresAt * 1000 <= this.now().getTime();
  }

  private decode(item: Item): CustomerEvent {
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(item.event));
    } catch {
      parsed = undefined;
    }
    const result = v.safeParse(storedEventSchema, parsed);
    if (!result.success) throw new MalformedMessagingItemError(`Stored customer event ${String(item.pk)} does not match the event schema`);
    return result.output as CustomerEvent;
  }
}
