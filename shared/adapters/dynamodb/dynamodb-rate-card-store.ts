/** Rate cards: one item of the tenancy table per owner, `PLATFORM` / `RATE_CARD` or `ORG#<id>` / `RATE_CARD` (docs/DATA-MODEL.md). */
import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { PLATFORM_RATE_CARD, type RateCardStore, type StoredRateCard } from '../../pricing/rate-cards';
import { classifyStoreFaults } from './dynamodb-errors';
import { tenancyKeys } from './tenancy-table';

const keyOf = (owner: string) => (owner === PLATFORM_RATE_CARD ? tenancyKeys.platformRateCard() : tenancyKeys.organizationRateCard(owner));

export class DynamoDbRateCardStore implements RateCardStore {
  constructor(
    private readonly client: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.client);
  }

  async storedRateCard(owner: string): Promise<StoredRateCard | undefined> {
    const item = (await this.client.send(new GetCommand({ TableName: this.tableName, Key: keyOf(owner) }))).Item;
    if (!item || typeof item.currency !== 'string' || typeof item.rates !== 'object' || item.rates === null) return undefined;
    return { currency: item.currency, rates: item.rates as StoredRateCard['rates'], updatedAt: String(item.updatedAt ?? '') };
  }

  async putRateCard(owner: string, card: StoredRateCard): Promise<void> {
    // A whole card replaces the last one: single-item put, nothing to decide.
    await this.client.send(new PutCommand({ TableName: this.tableName, Item: { ...keyOf(owner), entity: 'RATE_CARD', ...card } }));
  }
}
