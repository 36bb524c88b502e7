/**
 * Template states from Meta's `message_template_status_update` events, one item per template and
 * language under the business account's partition of the messaging table (messaging-table.ts). A
 * conditional put keeps the newest event: an older or repeated one changes nothing. Items expire
 * after 30 days; the catalog only needs them until its cached list is read again (a minute).
 */
import { GetCommand, PutCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import type { TemplateState, TemplateStates } from '../../broadcast/ports';
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

export class DynamoDbTemplateStates implements TemplateStates {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  async record(wabaId: string, state: TemplateState): Promise<boolean> {
    const at = state.at.toISOString();
    try {
      await this.documentClient.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
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
          // ISO 8601 UTC strings of one format compare like the times they name.
          ConditionExpression: 'attribute_not_exists(pk) OR #at < :at',
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: { ':at': at },
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
    const states: TemplateState[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.documentClient.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': messagingKeys.templateStatePartition(wabaId) },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      states.push(...(page.Items ?? []).map(decodeState));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return states;
  }
}
