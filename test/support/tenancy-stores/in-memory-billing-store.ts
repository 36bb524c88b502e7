/** BillingStore in memory, as DynamoDbBillingStore: wallets never overdrawn, pricing and subscriptions replaced. */
import { InsufficientBalanceError } from '../../../shared/tenancy/errors';
import type { CountryPricing, Subscription, Wallet } from '../../../shared/tenancy/tenancy-entities';
import type { BillingStore } from '../../../shared/tenancy/tenancy-stores';
import { inKeyOrder, stored, type InMemoryTenancyState } from './in-memory-tenancy-state';

export class InMemoryBillingStore implements BillingStore {
  constructor(private readonly state: InMemoryTenancyState) {}

  async getWallet(organizationId: string): Promise<Wallet | undefined> {
    this.state.touch('getWallet');
    const wallet = this.state.wallets.get(organizationId);
    return wallet && stored(wallet);
  }

  async creditWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet> {
    this.state.touch('creditWallet', { organizationId, amountMicros, at });
    const wallet = this.state.wallets.get(organizationId) ?? { organizationId, balanceMicros: 0, currency: 'USD' as const, updatedAt: at };
    wallet.balanceMicros += amountMicros;
    wallet.updatedAt = at;
    this.state.wallets.set(organizationId, wallet);
    return stored(wallet);
  }

  async debitWallet(organizationId: string, amountMicros: number, at: string): Promise<Wallet> {
    this.state.touch('debitWallet', { organizationId, amountMicros, at });
    const wallet = this.state.wallets.get(organizationId);
    if (!wallet || wallet.balanceMicros < amountMicros) throw new InsufficientBalanceError(organizationId, amountMicros);
    wallet.balanceMicros -= amountMicros;
    wallet.updatedAt = at;
    return stored(wallet);
  }

  async putCountryPricing(pricing: CountryPricing): Promise<void> {
    this.state.touch('putCountryPricing', pricing);
    this.state.pricing.set(pricing.countryCallingCode, stored(pricing));
  }

  async getCountryPricing(countryCallingCode: string): Promise<CountryPricing | undefined> {
    this.state.touch('getCountryPricing');
    const pricing = this.state.pricing.get(countryCallingCode);
    return pricing && stored(pricing);
  }

  async listCountryPricing(): Promise<CountryPricing[]> {
    this.state.touch('listCountryPricing');
    return [...this.state.pricing.values()].sort(inKeyOrder((pricing) => pricing.countryCallingCode)).map(stored);
  }

  async putSubscription(subscription: Subscription): Promise<void> {
    this.state.touch('putSubscription', subscription);
    this.state.subscriptions.set(subscription.organizationId, stored(subscription));
  }

  async getSubscription(organizationId: string): Promise<Subscription | undefined> {
    this.state.touch('getSubscription');
    const subscription = this.state.subscriptions.get(organizationId);
    return subscription && stored(subscription);
  }
}
