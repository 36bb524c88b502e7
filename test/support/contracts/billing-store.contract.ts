/**
 * What every BillingStore does, as observed through the port: run once against the in-memory fake
 * (test/unit/contracts) and once against the DynamoDB adapter on dynalite (test/integration/contracts),
 * so the fake the unit tests rely on cannot drift from the adapter. Where they disagree, the adapter
 * is the truth.
 */
import { InsufficientBalanceError } from '../../../shared/tenancy/errors';
import type { BillingStore } from '../../../shared/tenancy/tenancy-stores';
import { at, fresh, later, nextSequence } from './tenancy-contract-fixtures';

export function describeBillingStoreContract(name: string, makeRepository: () => BillingStore | Promise<BillingStore>): void {
  describe(`BillingStore contract: ${name}`, () => {
    let repository: BillingStore;
    beforeAll(async () => {
      repository = await makeRepository();
    });

    describe('wallet', () => {
      it('credit creates the wallet at zero first; debit never overdraws', async () => {
        const organizationId = fresh('org_');
        expect(await repository.getWallet(organizationId)).toBeUndefined();
        await expect(repository.debitWallet(organizationId, 1, at)).rejects.toBeInstanceOf(InsufficientBalanceError);
        expect(await repository.creditWallet(organizationId, 5_000, at)).toEqual({ organizationId, balanceMicros: 5_000, currency: 'USD', updatedAt: at });
        expect(await repository.creditWallet(organizationId, 1_000, later)).toEqual({
          organizationId,
          balanceMicros: 6_000,
          currency: 'USD',
          updatedAt: later,
        });
        expect(await repository.debitWallet(organizationId, 6_000, later)).toEqual({ organizationId, balanceMicros: 0, currency: 'USD', updatedAt: later });
        await expect(repository.debitWallet(organizationId, 1, later)).rejects.toBeInstanceOf(InsufficientBalanceError);
        expect(await repository.getWallet(organizationId)).toEqual({ organizationId, balanceMicros: 0, currency: 'USD', updatedAt: later });
      });

      it('concurrent debits take exactly what the balance covers', async () => {
        const organizationId = fresh('org_');
        await repository.creditWallet(organizationId, 3_000, at);
        const results = await Promise.allSettled(Array.from({ length: 5 }, () => repository.debitWallet(organizationId, 1_000, later)));
        expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(3);
        for (const result of results.filter((each) => each.status === 'rejected')) {
          expect((result as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientBalanceError);
        }
        expect((await repository.getWallet(organizationId))?.balanceMicros).toBe(0);
      });
    });

    describe('pricing and subscriptions', () => {
      it('puts (replacing) and reads country pricing; the list holds every country in calling-code order', async () => {
        const [low, high] = [`8${String(nextSequence()).padStart(5, '0')}`, `9${String(nextSequence()).padStart(5, '0')}`];
        const pricing = (countryCallingCode: string, marketing: number) => ({
          countryCallingCode,
          pricesMicros: { MARKETING: marketing, UTILITY: 2, AUTHENTICATION: 3 },
          currency: 'USD' as const,
          updatedAt: at,
        });
        await repository.putCountryPricing(pricing(high, 1));
        await repository.putCountryPricing(pricing(low, 1));
        await repository.putCountryPricing(pricing(high, 7));
        expect(await repository.getCountryPricing(high)).toEqual(pricing(high, 7));
        expect(await repository.getCountryPricing('0')).toBeUndefined();
        const codes = (await repository.listCountryPricing()).map((entry) => entry.countryCallingCode);
        expect(codes.filter((code) => code === low || code === high)).toEqual([low, high]);
        expect(codes).toEqual([...codes].sort());
      });

      it('puts (replacing) and reads the subscription', async () => {
        const organizationId = fresh('org_');
        const subscription = { organizationId, status: 'active' as const, plan: 'starter' as const, currentPeriodEnd: later, updatedAt: at };
        expect(await repository.getSubscription(organizationId)).toBeUndefined();
        await repository.putSubscription(subscription);
        await repository.putSubscription({ ...subscription, status: 'inactive' });
        expect(await repository.getSubscription(organizationId)).toEqual({ ...subscription, status: 'inactive' });
      });
    });
  });
}
