import type { Clock } from '../ports/clock';
import { InvalidTenancyInputError } from './errors';
import { requireOrganization } from './organization-use-cases';
import { messageCategories, type CountryPricing, type MessageCategory, type Wallet } from './tenancy-entities';
import { requirePositiveMicros } from './tenancy-input';
import type { BillingStore, OrganizationStore } from './tenancy-stores';

export async function topUpWallet(
  ports: { tenancy: OrganizationStore & BillingStore; clock: Clock },
  input: { organizationId: string; amountMicros: number },
): Promise<Wallet> {
  const amountMicros = requirePositiveMicros(input.amountMicros, 'amount');
  await requireOrganization(ports.tenancy, input.organizationId);
  return ports.tenancy.creditWallet(input.organizationId, amountMicros, ports.clock.now().toISOString());
}

/** Debits the wallet; throws InsufficientBalanceError rather than going below zero. */
export async function chargeWallet(ports: { tenancy: BillingStore; clock: Clock }, input: { organizationId: string; amountMicros: number }): Promise<Wallet> {
  const amountMicros = requirePositiveMicros(input.amountMicros, 'amount');
  return ports.tenancy.debitWallet(input.organizationId, amountMicros, ports.clock.now().toISOString());
}

export interface SetCountryPricingInput {
  /** Digits only, without `+`. */
  countryCallingCode: string;
  pricesMicros: Record<MessageCategory, number>;
}

export async function setCountryPricing(ports: { tenancy: BillingStore; clock: Clock }, input: SetCountryPricingInput): Promise<CountryPricing> {
  const countryCallingCode = input.countryCallingCode.trim().replace(/^\+/, '');
  if (!/^[1-9]\d{0,3}$/.test(countryCallingCode)) throw new InvalidTenancyInputError('country must be a calling code of 1 to 4 digits');
  for (const category of messageCategories) {
    const price = input.pricesMicros[category];
    if (!Number.isSafeInteger(price) || price < 0) throw new InvalidTenancyInputError(`price for ${category} must be a non-negative amount`);
  }
  const pricing: CountryPricing = {
    countryCallingCode,
    pricesMicros: {
      MARKETING: input.pricesMicros.MARKETING,
      UTILITY: input.pricesMicros.UTILITY,
      AUTHENTICATION: input.pricesMicros.AUTHENTICATION,
    },
    currency: 'USD',
    updatedAt: ports.clock.now().toISOString(),
  };
  await ports.tenancy.putCountryPricing(pricing);
  return pricing;
}
