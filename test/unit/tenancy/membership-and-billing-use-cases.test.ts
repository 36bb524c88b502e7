import { InsufficientBalanceError, InvalidTenancyInputError, OrganizationNotFoundError } from '../../../shared/tenancy/errors';
import { formatMicros, parseDecimalToMicros } from '../../../shared/tenancy/money';
import { isSubscriptionActive } from '../../../shared/tenancy/tenancy-entities';
import { createTenancyTestKit } from '../../support/tenancy-test-ports';

describe('employees', () => {
  test('e-mails are normalized; adding again changes the role and keeps joinedAt', async () => {
    const kit = createTenancyTestKit();
    const { organizationId } = await kit.services.admin.createOrganization({ name: 'Acme', plan: 'starter' });
    const first = await kit.services.admin.addEmployee({ organizationId, email: '  Alice@Example.COM ', role: 'member' });
    expect(first.email).toBe('alice@example.com');
    kit.clock.advanceBy(1000);
    const second = await kit.services.admin.addEmployee({ organizationId, email: 'alice@example.com', role: 'admin' });
    expect(second).toEqual({ ...first, role: 'admin' });
    expect(kit.repository.users.size).toBe(1);
    await expect(kit.services.admin.addEmployee({ organizationId, email: 'not-an-address', role: 'member' })).rejects.toBeInstanceOf(InvalidTenancyInputError);
  });

  test('bulk removal is partial, audited, and leaves other organizations alone', async () => {
    const kit = createTenancyTestKit();
    const acme = (await kit.services.admin.createOrganization({ name: 'Acme', plan: 'starter' })).organizationId;
    const other = (await kit.services.admin.createOrganization({ name: 'Other', plan: 'starter' })).organizationId;
    await kit.services.admin.addEmployee({ organizationId: acme, email: 'alice@x.example', role: 'admin' });
    await kit.services.admin.addEmployee({ organizationId: acme, email: 'carol@x.example', role: 'member' });
    await kit.services.admin.addEmployee({ organizationId: other, email: 'carol@x.example', role: 'member' });
    await kit.services.admin.addEmployee({ organizationId: other, email: 'dave@x.example', role: 'member' });

    const result = await kit.services.removeEmployees({
      organizationId: acme,
      emails: ['CAROL@x.example', 'dave@x.example', 'nobody@x.example', 'carol@x.example'],
      removedBy: 'cred_0001',
    });

    expect(result).toEqual({ removedEmails: ['carol@x.example'], notFoundEmails: ['dave@x.example', 'nobody@x.example'] });
    expect((await kit.repository.listMembershipsOfOrganization(acme)).map((membership) => membership.email)).toEqual(['alice@x.example']);
    expect((await kit.repository.listMembershipsOfUser('carol@x.example')).map((membership) => membership.organizationId)).toEqual([other]);
    expect(kit.repository.users.has('carol@x.example')).toBe(true);
    expect(await kit.repository.listMembershipRemovals(acme)).toEqual([
      expect.objectContaining({ email: 'carol@x.example', role: 'member', removedBy: 'cred_0001', removedAt: '2025-01-15T10:00:00.000Z' }),
    ]);
    await expect(kit.services.removeEmployees({ organizationId: acme, emails: [' '], removedBy: 'x' })).rejects.toBeInstanceOf(InvalidTenancyInputError);
  });
});

describe('wallet', () => {
  test('top-ups add, charges subtract, and a charge never overdraws', async () => {
    const kit = createTenancyTestKit();
    const { organizationId } = await kit.services.admin.createOrganization({ name: 'Acme', plan: 'starter' });
    await expect(kit.services.chargeWallet({ organizationId, amountMicros: 1 })).rejects.toBeInstanceOf(InsufficientBalanceError);

    await kit.services.admin.topUpWallet({ organizationId, amountMicros: parseDecimalToMicros('1.00') });
    await kit.services.chargeWallet({ organizationId, amountMicros: 600_000 });
    await expect(kit.services.chargeWallet({ organizationId, amountMicros: 400_001 })).rejects.toBeInstanceOf(InsufficientBalanceError);
    const wallet = await kit.services.chargeWallet({ organizationId, amountMicros: 400_000 });
    expect(wallet).toMatchObject({ balanceMicros: 0, currency: 'USD' });
  });

  test('amounts must be positive; unknown organizations cannot be topped up', async () => {
    const kit = createTenancyTestKit();
    const { organizationId } = await kit.services.admin.createOrganization({ name: 'Acme', plan: 'starter' });
    for (const amountMicros of [0, -5, 1.5]) {
      await expect(kit.services.admin.topUpWallet({ organizationId, amountMicros })).rejects.toBeInstanceOf(InvalidTenancyInputError);
    }
    await expect(kit.services.admin.topUpWallet({ organizationId: 'org_missing', amountMicros: 1 })).rejects.toBeInstanceOf(OrganizationNotFoundError);
  });
});

describe('money', () => {
  test.each([
    ['500', 500_000_000],
    ['500.00', 500_000_000],
    ['0.1', 100_000],
    ['0.0085', 8_500],
    ['0.000001', 1],
  ])('%s is %d micro-units', (text, micros) => {
    expect(parseDecimalToMicros(text)).toBe(micros);
  });

  test.each(['-1', '1.0000001', 'abc', '1e3', '', '1,00'])('%s is refused', (text) => {
    expect(() => parseDecimalToMicros(text)).toThrow(InvalidTenancyInputError);
  });

  test('formats with at least two decimals', () => {
    expect(formatMicros(500_000_000)).toBe('500.00');
    expect(formatMicros(8_500)).toBe('0.0085');
    expect(formatMicros(1_234_560)).toBe('1.23456');
  });
});

describe('pricing and subscriptions', () => {
  test('pricing per country calling code and category', async () => {
    const kit = createTenancyTestKit();
    await kit.services.admin.setCountryPricing({ countryCallingCode: '+44', pricesMicros: { MARKETING: 52_900, UTILITY: 22_000, AUTHENTICATION: 35_800 } });
    expect(await kit.repository.getCountryPricing('44')).toMatchObject({ pricesMicros: { MARKETING: 52_900, UTILITY: 22_000, AUTHENTICATION: 35_800 } });
    await expect(
      kit.services.admin.setCountryPricing({ countryCallingCode: '0044', pricesMicros: { MARKETING: 1, UTILITY: 1, AUTHENTICATION: 1 } }),
    ).rejects.toBeInstanceOf(InvalidTenancyInputError);
    await expect(
      kit.services.admin.setCountryPricing({ countryCallingCode: '1', pricesMicros: { MARKETING: -1, UTILITY: 1, AUTHENTICATION: 1 } }),
    ).rejects.toBeInstanceOf(InvalidTenancyInputError);
  });

  test('a subscription is active only with status active and a period that has not ended', async () => {
    const kit = createTenancyTestKit('2025-01-15T10:00:00.000Z');
    const { organizationId } = await kit.services.admin.createOrganization({ name: 'Acme', plan: 'professional' });
    const subscription = await kit.services.admin.setSubscription({ organizationId, status: 'active', plan: 'professional', currentPeriodEnd: '2025-02-01' });
    expect(subscription.currentPeriodEnd).toBe('2025-02-01T00:00:00.000Z');
    expect(isSubscriptionActive(subscription, new Date('2025-01-31T23:59:59Z'))).toBe(true);
    expect(isSubscriptionActive(subscription, new Date('2025-02-01T00:00:00Z'))).toBe(false);
    expect(isSubscriptionActive({ ...subscription, status: 'inactive' }, new Date('2025-01-20T00:00:00Z'))).toBe(false);
    expect(isSubscriptionActive(undefined, new Date())).toBe(false);
  });

  test('plans are validated and the add-on kept when not given', async () => {
    const kit = createTenancyTestKit();
    const { organizationId } = await kit.services.admin.createOrganization({ name: 'Acme', plan: 'starter', apiAddOn: true });
    await expect(kit.services.admin.setOrganizationPlan({ organizationId, plan: 'gold' as never })).rejects.toBeInstanceOf(InvalidTenancyInputError);
    expect(await kit.services.admin.setOrganizationPlan({ organizationId, plan: 'professional' })).toMatchObject({ plan: 'professional', apiAddOn: true });
  });
});
