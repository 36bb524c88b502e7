/**
 * Wallets, country pricing and subscriptions in the tenancy table (keys: tenancy-table.ts). Wallet
 * writes carry a token each (wallet-write-tokens.ts), so an SDK retry never charges or credits twice.
 */
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { InsufficientBalanceError } from '../../tenancy/errors';
import type { CountryPricing, Subscription, Wallet } from '../../tenancy/tenancy-entities';
import type { BillingStore } from '../../tenancy/tenancy-stores';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { TenancyTable, tenancyKeys, toEntity } from './tenancy-table';
import { balanceBeforeWrite, newWalletWriteToken, staleWalletTokens, walletOf } from './wallet-write-tokens';

export class DynamoDbBillingStore implements BillingStore {
  private readonly table: TenancyTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    this.table = new TenancyTable(client, tableName);
  }

  // Wallet

  async getWallet(organizationId: string): Promise<Wallet | undefined> {
    const item = await this.table.get(tenancyKeys.wallet(organizationId));
    return item && walletOf(item);
  }

  /**
   * Adds to the balance (a top-up or a refund), creating the wallet at zero first if needed. The
   * write carries a token (wallet-write-tokens.ts): an SDK retry of a credit the table applied
   * finds its token and answers that credit, so a refund is never paid twice.
   */
  async creditWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet> {
    const token = newWalletWriteToken(at);
    try {
      const result = await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: tenancyKeys.wallet(organizationId),
          // A missing balance counts as zero, so the first top-up creates the wallet. Both the sum
          // and the token read the balance in SET (operands see the item before the update; dynalite
          // would evaluate an ADD first).
          UpdateExpression:
            'SET entity = :entity, organizationId = :organizationId, currency = if_not_exists(currency, :currency), updatedAt = :at, balanceMicros = if_not_exists(balanceMicros, :zero) + :amount, #token = if_not_exists(balanceMicros, :zero)',
          ConditionExpression: 'attribute_not_exists(#token)',
          ExpressionAttributeNames: { '#token': token },
          ExpressionAttributeValues: {
            ':entity': 'wallet',
            ':organizationId': organizationId,
            ':currency': 'USD',
            ':at': at,
            ':amount': amountMicros,
            ':zero': 0,
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      // Awaited inside the try: a fault of the read-back must not skip the conditional-failure branch's type check.
      return await this.written(organizationId, result.Attributes!, at);
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      // Only our own token refuses a credit: this call's earlier attempt was applied.
      return this.ownWrite(organizationId, token, (before) => before + amountMicros, at);
    }
  }

  /**
   * Subtracts only if the balance covers the amount, in one conditional update carrying the
   * write's token: an SDK retry of a debit the table applied finds its token and answers that
   * debit instead of charging again or reporting the balance it left as insufficient.
   */
  async debitWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet> {
    const token = newWalletWriteToken(at);
    try {
      const result = await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: tenancyKeys.wallet(organizationId),
          // Condition and subtraction are evaluated atomically on the one item: concurrent debits
          // serialize, and the one that would overdraw fails instead. The token keeps the balance before.
          UpdateExpression: 'SET balanceMicros = balanceMicros - :amount, updatedAt = :at, #token = balanceMicros',
          ConditionExpression: 'balanceMicros >= :amount AND attribute_not_exists(#token)',
          ExpressionAttributeNames: { '#token': token },
          ExpressionAttributeValues: { ':amount': amountMicros, ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      );
      // Awaited inside the try: a fault of the read-back must not skip the conditional-failure branch's type check.
      return await this.written(organizationId, result.Attributes!, at);
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      const own = await this.findOwnWrite(organizationId, token, (before) => before - amountMicros, at);
      if (own) return own;
      throw new InsufficientBalanceError(organizationId, amountMicros);
    }
  }

  /** The wallet a write left; prunes old tokens first when the item has gathered many. */
  private async written(organizationId: string, item: Record<string, unknown>, at: string): Promise<Wallet> {
    const stale = staleWalletTokens(item, Date.parse(at));
    if (stale.length > 0) await this.removeTokens(organizationId, stale);
    return walletOf(item);
  }

  /** Best effort: a prune that fails is retried by a later write, and tokens left over cost nothing but bytes. */
  private async removeTokens(organizationId: string, tokens: readonly string[]): Promise<void> {
    const names = Object.fromEntries(tokens.map((token, index) => [`#t${index}`, token]));
    await this.table
      .send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: tenancyKeys.wallet(organizationId),
          UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
          // Never recreates a wallet deleted in between.
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: names,
        }),
      )
      .catch(() => undefined);
  }

  /** This call's write, found by its token after its retry was refused; undefined when it never applied. */
  private async findOwnWrite(organizationId: string, token: string, after: (before: number) => number, at: string): Promise<Wallet | undefined> {
    const item = await this.table.get(tenancyKeys.wallet(organizationId));
    const before = balanceBeforeWrite(item, token);
    if (before === undefined || !item) return undefined;
    // The balance this write left, even when other writes landed since.
    return { ...walletOf(item), balanceMicros: after(before), updatedAt: at };
  }

  private async ownWrite(organizationId: string, token: string, after: (before: number) => number, at: string): Promise<Wallet> {
    const own = await this.findOwnWrite(organizationId, token, after, at);
    if (!own) throw new Error(`Wallet of ${organizationId} refused a credit but holds no token of it`);
    return own;
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
