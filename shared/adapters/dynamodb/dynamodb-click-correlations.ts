/**
 * Meta's `click_id` of clicks the redirect counted (shared/clicks/meta-link-clicks.ts): one item per
 * click id in the messaging table, `CLICKID#<click_id>` / `CLICK`, written once (conditional put) and
 * kept 8 days: Meta reports clicks on messages of the last 7 days only.
 */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClickReference } from '../../clicks/click-token';
import type { ClickCorrelations } from '../../clicks/ports';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';

const KEPT_SECONDS = 8 * 24 * 3600;

/**
 * @example
 * const correlations = new DynamoDbClickCorrelations(documentClient, 'messaging');
 * await correlations.remember('ARAkZ…', { jobId: 'pub_1', chunkIndex: 0, index: 7, buttonIndex: 0, scope: 'job' }, new Date());
 */
export class DynamoDbClickCorrelations implements ClickCorrelations {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(client);
  }

  async remember(clickId: string, reference: ClickReference, now: Date): Promise<void> {
    try {
      await this.client.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...messagingKeys.clickId(clickId), ...reference, at: now.toISOString(), expiresAt: Math.floor(now.getTime() / 1000) + KEPT_SECONDS },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      // The first writer's click stands (a click id names one click).
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  async find(clickId: string): Promise<ClickReference | undefined> {
    const { Item } = await this.client.send(new GetCommand({ TableName: this.tableName, Key: messagingKeys.clickId(clickId) }));
    if (!Item || (typeof Item.expiresAt === 'number' && Item.expiresAt * 1000 <= Date.now())) return undefined;
    const { jobId, chunkIndex, index, buttonIndex, scope } = Item as Record<string, unknown>;
    if (typeof jobId !== 'string' || typeof chunkIndex !== 'number' || typeof index !== 'number' || typeof buttonIndex !== 'number') return undefined;
    return { jobId, chunkIndex, index, buttonIndex, scope: scope === 'recipient' ? 'recipient' : 'job' };
  }
}
