import { buildServices, type Services } from '../../../functions/composition';
import { demoSandboxAccounts, isDemoSeeded, seedDemoTenant, type SandboxBusinessAccount } from '../../../local/demo-seed';
import { generateLocalTokenKey } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { parseAppConfig } from '../../../shared/config/app-config';
import { isSubscriptionActive } from '../../../shared/tenancy/tenancy-entities';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;
let services: Services;

beforeAll(async () => {
  dynamo = await startTestDynamo();
  services = buildServices(parseAppConfig({ ...dynamo.environment, LOCAL_TOKEN_KEY: generateLocalTokenKey() }));
});

afterAll(async () => {
  services.destroy();
  await dynamo.stop();
});

test('the sandbox accounts are deterministic', () => {
  expect(demoSandboxAccounts()).toEqual(demoSandboxAccounts());
  const [retail, other] = demoSandboxAccounts();
  expect(retail!.phoneNumbers.length).toBeGreaterThanOrEqual(2);
  expect(other!.phoneNumbers).toHaveLength(1);
});

test('seeds two isolated organizations whose credentials all work, and can be re-run', async () => {
  const registered: SandboxBusinessAccount[] = [];
  expect(await isDemoSeeded(services)).toBe(false);

  const demo = await seedDemoTenant(services, { registerBusinessAccount: (account) => registered.push(account) });

  expect(registered.map((account) => account.wabaId)).toEqual(demoSandboxAccounts().map((account) => account.wabaId));
  expect(demo.templates).toEqual([
    { name: 'order_update', language: 'en_US', category: 'UTILITY', placeholders: 2, status: 'APPROVED' },
    { name: 'spring_sale', language: 'en', category: 'MARKETING', placeholders: 1, status: 'APPROVED' },
    { name: 'welcome_message', language: 'en_US', category: 'UTILITY', placeholders: 0, status: 'APPROVED' },
    { name: 'holiday_offer', language: 'en', category: 'MARKETING', placeholders: 1, status: 'PENDING' },
    { name: 'order_shipped', language: 'en_US', category: 'UTILITY', placeholders: 2, status: 'APPROVED' },
    { name: 'summer_coupon', language: 'en', category: 'MARKETING', placeholders: 1, status: 'APPROVED' },
    { name: 'welcome_named', language: 'en_US', category: 'UTILITY', placeholders: 0, status: 'APPROVED' },
    { name: 'spring_carousel', language: 'en', category: 'MARKETING', placeholders: 1, status: 'APPROVED' },
    { name: 'flash_deal', language: 'en', category: 'MARKETING', placeholders: 1, status: 'APPROVED' },
    { name: 'new_arrivals', language: 'en', category: 'MARKETING', placeholders: 1, status: 'APPROVED' },
    { name: 'capped_offer', language: 'en', category: 'MARKETING', placeholders: 1, status: 'APPROVED' },
  ]);
  expect(demo.phoneNumbers).toHaveLength(2);
  expect(demo.phoneNumberIds).toHaveLength(2);
  expect(demo.employees).toEqual(['alice@demo-retail.example', 'bob@demo-retail.example', 'carol@demo-retail.example']);

  const tenancy = services.tenancy;
  await expect(tenancy.authenticate('broadcast-api-key', demo.apiKey)).resolves.toMatchObject({ organizationId: demo.organizationId, plan: 'enterprise' });
  await expect(tenancy.authenticate('organization-token', demo.orgToken)).resolves.toMatchObject({ organizationId: demo.organizationId });
  await expect(tenancy.authenticate('upstream-access-token', demo.accessToken)).resolves.toMatchObject({ organizationId: demo.organizationId });
  await expect(tenancy.authenticate('v1-api-key', demo.v1ApiKey)).resolves.toMatchObject({ organizationId: demo.organizationId });
  await expect(tenancy.authenticate('v1-api-key', demo.otherOrg.v1ApiKey)).resolves.toMatchObject({
    organizationId: demo.otherOrg.organizationId,
    plan: 'professional',
    apiAddOn: true,
  });
  expect(demo.otherOrg.organizationId).not.toBe(demo.organizationId);

  await expect(tenancy.decryptUpstreamAccessToken(demo.organizationId, demo.wabaId)).resolves.toBe(registered[0]!.accessToken);
  await expect(tenancy.decryptUpstreamAccessToken(demo.otherOrg.organizationId, demo.otherOrg.wabaId)).resolves.toBe(registered[1]!.accessToken);
  await expect(tenancy.decryptUpstreamAccessToken(demo.otherOrg.organizationId, demo.wabaId)).rejects.toThrow();

  expect((await tenancy.repository.findPhoneNumberByDigits(demo.otherOrg.phoneNumber))?.organizationId).toBe(demo.otherOrg.organizationId);
  expect((await tenancy.repository.getWallet(demo.organizationId))?.balanceMicros).toBe(500_000_000);
  expect(isSubscriptionActive(await tenancy.repository.getSubscription(demo.organizationId), new Date())).toBe(true);
  expect((await tenancy.repository.listCountryPricing()).map((pricing) => pricing.countryCallingCode).sort()).toEqual(['1', '44', '49', '55', '91', '971']);
  expect((await tenancy.repository.listMembershipsOfUser('carol@demo-retail.example')).map((membership) => membership.organizationId).sort()).toEqual(
    [demo.organizationId, demo.otherOrg.organizationId].sort(),
  );
  expect(await isDemoSeeded(services)).toBe(true);

  // A second run (e.g. demo.json lost) finds the same organizations and issues fresh credentials.
  const again = await seedDemoTenant(services, { registerBusinessAccount: () => undefined });
  expect(again.organizationId).toBe(demo.organizationId);
  expect(again.otherOrg.organizationId).toBe(demo.otherOrg.organizationId);
  expect(again.apiKey).not.toBe(demo.apiKey);
  await expect(tenancy.authenticate('broadcast-api-key', again.apiKey)).resolves.toMatchObject({ organizationId: demo.organizationId });
}, 30_000);
