/**
 * Template states from Meta's `message_template_status_update` events, one item per template and
 * language under the business account's partition of the messaging table (messaging-table.ts). A
 * conditional put keeps the newest event: an older or repeated one changes nothing. Items expire
 * after 30 days; the catalog only needs them until its cached list is read again (a minute).
 *
 * Quality and category (`message_template_quality_update`, `template_category_update`) are items of
 * their own partition, one per template, language and kind, so each kind keeps its own newest event
 * and a status event never erases a quality (nor the other way round).
 */
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { TemplateAttribute, TemplateState, TemplateStates } from '../../broadcast/ports';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';
import { MalformedMessagingItemError, messagingKeys } from './messaging-table';

const RETENTION_SECONDS = 30 * 24 * 3600;

const storedStateSchema = v.object({
  name: v.string(),
  language: v.string(),
  status: v.string(),
  reason: v.optional(v.string()),
  templateId: v.string(),
  at: v.pipe(v.string(), v.isoTimestamp()),
});

function decodeState(item: Record<string, unknown>): TemplateState {
  const result = v.safeParse(storedStateSchema, item);
  if (!result.success) throw new MalformedMessagingItemError(`Stored template state ${String(item.pk)} ${String(item.sk)} does not match its schema`);
  const { reason, at, ...state } = result.output;
  return { ...state, ...(reason !== undefined ? { reason } : {}), at: new Date(at) };
}

const storedAttributeSchema = v.object({
  name: v.string(),
  language: v.string(),
  templateId: v.string(),
  kind: v.picklist(['quality', 'category']),
  value: v.string(),
  at: v.pipe(v.string(), v.isoTimestamp()),
});

function decodeAttribute(item: Record<string, unknown>): TemplateAttribute {
  const result = v.safeParse(storedAttributeSchema, item);
  if (!result.success) throw new MalformedMessagingItemError(`Stored template attribute ${String(item.pk)} ${String(item.sk)} does not match its schema`);
  return { ...result.output, at: new Date(result.output.at) };
}

export class DynamoDbTemplateStates implements TemplateStates {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async record(wabaId: string, state: TemplateState): Promise<boolean> {
    const at = state.at.toISOString();
    return this.putIfNewer(
      {
        ...messagingKeys.templateState(wabaId, state.name, state.language),
        wabaId,
        name: state.name,
        language: state.language,
        status: state.status,
        ...(state.reason !== undefined ? { reason: state.reason } : {}),
        templateId: state.templateId,
        at,
        expiresAt: Math.floor(state.at.getTime() / 1000) + RETENTION_SECONDS,
      },
      '<',
    );
  }

  /**
   * Puts `item` unless the stored one is newer by `at` (`'<'`: strictly newer wins; `'<='`: the same
   * time is written again). ISO 8601 UTC strings of one format compare like the times they name.
   */
  private async putIfNewer(item: Record<string, unknown>, newerThan: '<' | '<='): Promise<boolean> {
    try {
      await this.documentClient.send(
        new PutCommand({
          TableName: this.tableName,
          Item: item,
          ConditionExpression: `attribute_not_exists(pk) OR #at ${newerThan} :at`,
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: { ':at': item.at },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }

  async stateOf(wabaId: string, name: string, language: string): Promise<TemplateState | undefined> {
    const { Item: item } = await this.documentClient.send(
      new GetCommand({ TableName: this.tableName, Key: messagingKeys.templateState(wabaId, name, language), ConsistentRead: true }),
    );
    return item ? decodeState(item) : undefined;
  }

  async statesOf(wabaId: string): Promise<TemplateState[]> {
    return (await this.wholePartition(messagingKeys.templateStatePartition(wabaId))).map(decodeState);
  }

  async recordAttribute(wabaId: string, attribute: TemplateAttribute): Promise<boolean> {
    const at = attribute.at.toISOString();
    // An equal time is written (see the port): the same event again writes the same item.
    return this.putIfNewer(
      {
        ...messagingKeys.templateAttribute(wabaId, attribute.name, attribute.language, attribute.kind),
        wabaId,
        name: attribute.name,
        language: attribute.language,
        templateId: attribute.templateId,
        kind: attribute.kind,
        value: attribute.value,
        at,
        expiresAt: Math.floor(attribute.at.getTime() / 1000) + RETENTION_SECONDS,
      },
      '<=',
    );
  }

  async attributesOf(wabaId: string): Promise<TemplateAttribute[]> {
    return (await this.wholePartition(messagingKeys.templateAttributePartition(wabaId))).map(decodeAttribute);
  }

  private async wholePartition(pk: string): Promise<Record<string, unknown>[]> {
    const items: Record<string, unknown>[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documentClient.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items;
  }
}
