/** The broadcast module's billing port over the tenancy module's wallet, prices and subscription. */
import { InsufficientCreditsError } from '../broadcast/errors';
import type { BillingPort } from '../broadcast/ports';
import { InsufficientBalanceError } from '../tenancy/errors';
import { isSubscriptionActive, type MessageCategory } from '../tenancy/tenancy-entities';
import type { TenancyServices } from '../tenancy/tenancy-services';
import type { BillingStore } from '../tenancy/tenancy-stores';

/** What billing reads and changes of tenancy: the billing store, the wallet's charge and top-up. */
export type BillingTenancy = Pick<TenancyServices, 'chargeWallet'> & {
  readonly repository: BillingStore;
  readonly admin: Pick<TenancyServices['admin'], 'topUpWallet'>;
};

export class TenancyBilling implements BillingPort {
  constructor(private readonly tenancy: BillingTenancy) {}

  async hasActiveSubscription(organizationId: string, now: Date): Promise<boolean> {
    return isSubscriptionActive(await this.tenancy.repository.getSubscription(organizationId), now);
  }

  async priceOf(countryCallingCode: string, category: string): Promise<number | undefined> {
    const pricing = await this.tenancy.repository.getCountryPricing(countryCallingCode);
    return pricing?.pricesMicros[category as MessageCategory];
  }

  async debit(organizationId: string, amountMicros: number): Promise<{ oldBalanceMicros: number; newBalanceMicros: number }> {
    try {
      const wallet = await this.tenancy.chargeWallet({ organizationId, amountMicros });
      return { oldBalanceMicros: wallet.balanceMicros + amountMicros, newBalanceMicros: wallet.balanceMicros };
    } catch (error) {
      if (error instanceof InsufficientBalanceError) throw new InsufficientCreditsError();
      throw error;
    }
  }

  async credit(organizationId: string, amountMicros: number): Promise<void> {
    await this.tenancy.admin.topUpWallet({ organizationId, amountMicros });
  }

  async balanceOf(organizationId: string): Promise<number> {
    return (await this.tenancy.repository.getWallet(organizationId))?.balanceMicros ?? 0;
  }
}
