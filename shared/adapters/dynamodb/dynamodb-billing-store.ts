/** Wallets, country pricing and subscriptions in the tenancy table (keys: tenancy-table.ts). */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { InsufficientBalanceError } from '../../tenancy/errors';
import type { CountryPricing, Subscription, Wallet } from '../../tenancy/tenancy-entities';
import type { BillingStore } from '../../tenancy/tenancy-stores';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { TenancyTable, tenancyKeys, toEntity } from './tenancy-table';

export class DynamoDbBillingStore implements BillingStore {
  private readonly table: TenancyTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.table = new TenancyTable(client, tableName);
  }

  // Wallet

  async getWallet(organizationId: string): Promise<Wallet | undefined> {
    return toEntity(await this.table.get(tenancyKeys.wallet(organizationId)));
  }

  async creditWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet> {
    const result = await this.table.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: tenancyKeys.wallet(organizationId),
        // ADD treats a missing balance as zero, so the first top-up creates the wallet.
        UpdateExpression:
          'SET entity = :entity, organizationId = :organizationId, currency = if_not_exists(currency, :currency), updatedAt = :at ADD balanceMicros :amount',
        ExpressionAttributeValues: { ':entity': 'wallet', ':organizationId': organizationId, ':currency': 'USD', ':at': at, ':amount': amountMicros },
        ReturnValues: 'ALL_NEW',
      }),
    );
    return toEntity<Wallet>(result.Attributes)!;
  }

  async debitWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet> {
    try {
      const result = await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: tenancyKeys.wallet(organizationId),
          // Condition and subtraction are evaluated atomically on the one item: concurrent debits
          // serialize, and the one that would overdraw fails instead.
          UpdateExpression: 'SET balanceMicros = balanceMicros - :amount, updatedAt = :at',
          ConditionExpression: 'balanceMicros >= :amount',
          ExpressionAttributeValues: { ':amount': amountMicros, ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return toEntity<Wallet>(result.Attributes)!;
    } catch (error) {
      if (isConditionalCheckFailure(error)) throw new InsufficientBalanceError(organizationId, amountMicros);
      throw error;
    }
  }

  // Pricing

  async putCountryPricing(pricing: CountryPricing): Promise<void> {
    await this.table.put({ ...tenancyKeys.countryPricing(pricing.countryCallingCode), entity: 'country-pricing', ...pricing });
  }

  async getCountryPricing(countryCallingCode: string): Promise<CountryPricing | undefined> {
    return toEntity(await this.table.get(tenancyKeys.countryPricing(countryCallingCode)));
  }

  async listCountryPricing(): Promise<CountryPricing[]> {
    return this.table.queryPartition('PRICING', 'COUNTRY#');
  }

  // Subscriptions

  async putSubscription(subscription: Subscription): Promise<void> {
    await this.table.put({ ...tenancyKeys.subscription(subscription.organizationId), entity: 'subscription', ...subscription });
  }

  async getSubscription(organizationId: string): Promise<Subscription | undefined> {
    return toEntity(await this.table.get(tenancyKeys.subscription(organizationId)));
  }
}
