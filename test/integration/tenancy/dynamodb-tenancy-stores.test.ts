import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { buildServices, type Services } from '../../../functions/composition';
import { generateLocalTokenKey } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { dynamoDbTenancyStores } from '../../../shared/adapters/dynamodb/dynamodb-tenancy-stores';
import { tenancyKeys } from '../../../shared/adapters/dynamodb/tenancy-table';
import { parseAppConfig } from '../../../shared/config/app-config';
import { hashSecret } from '../../../shared/crypto/secret-generator';
import {
  CredentialStoreUnavailableError,
  IdentifierClaimedByAnotherOrganizationError,
  InsufficientBalanceError,
  InvalidCredentialError,
  KeyGenerationNotEnabledError,
  OrganizationNotFoundError,
  TenancyStoreUnavailableError,
} from '../../../shared/tenancy/errors';
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

async function onboard(name: string, wabaId: string, digits: string, phoneNumberId: string) {
  const { organizationId } = await services.tenancy.admin.createOrganization({ name, plan: 'enterprise' });
  await services.tenancy.admin.connectBusinessAccount({ organizationId, wabaId, businessId: `b${wabaId}`, name, accessToken: `EAAG-${name}` });
  await services.tenancy.admin.addPhoneNumber({ organizationId, wabaId, digits, phoneNumberId });
  return organizationId;
}

test('organization onboarding, credentials and authentication end to end', async () => {
  const organizationId = await onboard('Acme', '5001', '15557000001', '6001');
  const key = await services.tenancy.admin.issueCredential({ organizationId, kind: 'broadcast-api-key', boundPhoneNumber: '15557000001' });
  const token = await services.tenancy.admin.issueCredential({ organizationId, kind: 'upstream-access-token', expiresInDays: 1 });

  await expect(services.tenancy.authenticate('broadcast-api-key', key.secret)).resolves.toMatchObject({
    organizationId,
    credentialKind: 'broadcast-api-key',
    scope: { kind: 'sender', phoneNumber: '15557000001' },
    plan: 'enterprise',
  });
  await expect(services.tenancy.authenticate('upstream-access-token', key.secret)).rejects.toBeInstanceOf(InvalidCredentialError);
  await expect(services.tenancy.isBroadcastApiKeyEnabled(key.secret)).resolves.toBe(true);

  // Listing through gsi1; revocation found through it as well.
  const listed = await services.tenancy.repository.listCredentials(organizationId);
  expect(listed.map((credential) => credential.credentialId).sort()).toEqual([key.credential.credentialId, token.credential.credentialId].sort());
  await services.tenancy.admin.revokeCredential({ organizationId, credentialId: key.credential.credentialId });
  await expect(services.tenancy.authenticate('broadcast-api-key', key.secret)).rejects.toBeInstanceOf(InvalidCredentialError);

  await expect(services.tenancy.decryptUpstreamAccessToken(organizationId, '5001')).resolves.toBe('EAAG-Acme');
  expect(await services.tenancy.repository.findPhoneNumberById('6001')).toMatchObject({ organizationId, digits: '15557000001', wabaId: '5001' });
  expect(await services.tenancy.repository.listPhoneNumbers(organizationId)).toHaveLength(1);
  expect(await services.tenancy.repository.listBusinessAccounts(organizationId)).toHaveLength(1);

  const overview = await services.tenancy.admin.describeOrganization(organizationId);
  expect(overview.credentials).toHaveLength(2);
  expect(JSON.stringify(overview)).not.toMatch(/secretHash|encryptedAccessToken|EAAG/);
});

test('the table holds hashes and ciphertexts only', async () => {
  const organizationId = await onboard('Hashy', '5101', '15557000101', '6101');
  const issued = await services.tenancy.admin.issueCredential({ organizationId, kind: 'organization-token' });

  const raw = await dynamo.documentClient.send(
    new GetCommand({ TableName: dynamo.tableNames.tenancy, Key: tenancyKeys.credential(hashSecret(issued.secret)) }),
  );
  expect(raw.Item).toMatchObject({ gsi1pk: `CREDENTIALS#ORG#${organizationId}`, gsi1sk: issued.credential.credentialId, kind: 'organization-token' });
  const everything = JSON.stringify((await dynamo.documentClient.send(new ScanCommand({ TableName: dynamo.tableNames.tenancy }))).Items);
  expect(everything).not.toContain(issued.secret);
  expect(everything).not.toContain('EAAG-Hashy');
});

test('claims: a number and an account cannot be taken by a second organization', async () => {
  const owner = await onboard('Owner', '5201', '15557000201', '6201');
  const intruder = await onboard('Intruder', '5202', '15557000202', '6202');

  await expect(
    services.tenancy.admin.addPhoneNumber({ organizationId: intruder, wabaId: '5202', digits: '15557000201', phoneNumberId: '6299' }),
  ).rejects.toBeInstanceOf(IdentifierClaimedByAnotherOrganizationError);
  await expect(
    services.tenancy.admin.addPhoneNumber({ organizationId: intruder, wabaId: '5202', digits: '15557000299', phoneNumberId: '6201' }),
  ).rejects.toBeInstanceOf(IdentifierClaimedByAnotherOrganizationError);
  await expect(
    services.tenancy.admin.connectBusinessAccount({ organizationId: intruder, wabaId: '5201', businessId: 'b', name: 'n', accessToken: 't' }),
  ).rejects.toBeInstanceOf(IdentifierClaimedByAnotherOrganizationError);

  expect(await services.tenancy.repository.findPhoneNumberByDigits('15557000299')).toBeUndefined();
  expect(await services.tenancy.repository.findPhoneNumberByDigits('15557000201')).toMatchObject({ organizationId: owner });
  expect(await services.tenancy.repository.getIdentifierClaim('waba-id', '5201')).toMatchObject({ organizationId: owner });
});

test('concurrent claims of one number: exactly one organization wins', async () => {
  const first = await onboard('RaceA', '5301', '15557000301', '6301');
  const second = await onboard('RaceB', '5302', '15557000302', '6302');
  const results = await Promise.allSettled(
    [first, second].map((organizationId, index) =>
      services.tenancy.admin.addPhoneNumber({ organizationId, wabaId: index === 0 ? '5301' : '5302', digits: '15557000399', phoneNumberId: '6399' }),
    ),
  );
  expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
  const winner = (await services.tenancy.repository.findPhoneNumberByDigits('15557000399'))!.organizationId;
  expect((await services.tenancy.repository.findPhoneNumberById('6399'))!.organizationId).toBe(winner);
});

test('memberships: per organization, per user through gsi1, removal audited', async () => {
  const acme = (await services.tenancy.admin.createOrganization({ name: 'M1', plan: 'starter' })).organizationId;
  const other = (await services.tenancy.admin.createOrganization({ name: 'M2', plan: 'starter' })).organizationId;
  await services.tenancy.admin.addEmployee({ organizationId: acme, email: 'Carol@M.example', role: 'member' });
  await services.tenancy.admin.addEmployee({ organizationId: other, email: 'carol@m.example', role: 'admin' });

  expect((await services.tenancy.repository.listMembershipsOfUser('carol@m.example')).map((membership) => membership.organizationId).sort()).toEqual(
    [acme, other].sort(),
  );
  const result = await services.tenancy.removeEmployees({ organizationId: acme, emails: ['carol@m.example', 'zed@m.example'], removedBy: 'cred_x' });
  expect(result).toEqual({ removedEmails: ['carol@m.example'], notFoundEmails: ['zed@m.example'] });
  expect(await services.tenancy.repository.listMembershipsOfUser('carol@m.example')).toEqual([expect.objectContaining({ organizationId: other })]);
  expect(await services.tenancy.repository.listMembershipRemovals(acme)).toEqual([expect.objectContaining({ email: 'carol@m.example', removedBy: 'cred_x' })]);
  expect(await services.tenancy.repository.getUser('carol@m.example')).toBeDefined();
});

test('wallet: concurrent debits never overdraw', async () => {
  const { organizationId } = await services.tenancy.admin.createOrganization({ name: 'Wallet', plan: 'starter' });
  await expect(services.tenancy.chargeWallet({ organizationId, amountMicros: 1 })).rejects.toBeInstanceOf(InsufficientBalanceError);
  await services.tenancy.admin.topUpWallet({ organizationId, amountMicros: 1_000_000 });

  const attempts = 60;
  const results = await Promise.allSettled(Array.from({ length: attempts }, () => services.tenancy.chargeWallet({ organizationId, amountMicros: 30_000 })));
  const succeeded = results.filter((result) => result.status === 'fulfilled').length;
  const rejected = results.filter((result) => result.status === 'rejected');
  expect(succeeded).toBe(33);
  expect(rejected.every((result) => (result as PromiseRejectedResult).reason instanceof InsufficientBalanceError)).toBe(true);
  expect((await services.tenancy.repository.getWallet(organizationId))?.balanceMicros).toBe(10_000);
});

test('pricing, subscriptions and plans', async () => {
  await services.tenancy.admin.setCountryPricing({ countryCallingCode: '49', pricesMicros: { MARKETING: 136_500, UTILITY: 55_000, AUTHENTICATION: 76_800 } });
  expect((await services.tenancy.repository.getCountryPricing('49'))?.pricesMicros.MARKETING).toBe(136_500);
  expect((await services.tenancy.repository.listCountryPricing()).map((pricing) => pricing.countryCallingCode)).toContain('49');

  const { organizationId } = await services.tenancy.admin.createOrganization({ name: 'Plans', plan: 'starter' });
  await services.tenancy.admin.setSubscription({ organizationId, status: 'active', plan: 'starter', currentPeriodEnd: '2031-01-01T00:00:00Z' });
  expect(await services.tenancy.repository.getSubscription(organizationId)).toMatchObject({ status: 'active', plan: 'starter' });
  expect(await services.tenancy.admin.setOrganizationPlan({ organizationId, plan: 'enterprise', apiAddOn: false })).toMatchObject({ plan: 'enterprise' });
  await expect(services.tenancy.admin.setOrganizationPlan({ organizationId: 'org_missing', plan: 'enterprise', apiAddOn: false })).rejects.toBeInstanceOf(
    OrganizationNotFoundError,
  );
});

test('key generation: the setting and the minted keys (origin, source IP hash) persist; the plan is left alone', async () => {
  const organizationId = await onboard('Minting', '5091', '15557000091', '6091');
  const organization = await services.tenancy.admin.setKeyGeneration({ organizationId, enabled: true });
  expect(organization).toMatchObject({ keyGenerationEnabled: true, plan: 'enterprise', name: 'Minting' });
  expect(await services.tenancy.repository.getOrganization(organizationId)).toMatchObject({ keyGenerationEnabled: true, plan: 'enterprise' });
  expect(await services.tenancy.admin.setOrganizationPlan({ organizationId, plan: 'professional' })).toMatchObject({
    plan: 'professional',
    keyGenerationEnabled: true,
  });

  const minted = await services.tenancy.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15557000091', sourceIp: '192.0.2.10' });
  await expect(services.tenancy.authenticate('broadcast-api-key', minted.secret)).resolves.toMatchObject({
    scope: { kind: 'earlier-sender', phoneNumber: '15557000091' },
  });
  const stored = await services.tenancy.repository.getCredentialByHash(hashSecret(minted.secret));
  expect(stored).toMatchObject({ origin: 'generate-key', sourceIpHash: hashSecret('generate-key-source-ip:192.0.2.10') });
  expect(await services.tenancy.admin.listGeneratedKeys({ organizationId })).toEqual([
    {
      credentialId: minted.credential.credentialId,
      boundPhoneNumber: '15557000091',
      createdAt: minted.credential.createdAt,
      sourceIpHash: stored!.sourceIpHash,
      revokedAt: null,
    },
  ]);

  await services.tenancy.admin.setKeyGeneration({ organizationId, enabled: false });
  await expect(services.tenancy.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15557000091' })).rejects.toBeInstanceOf(KeyGenerationNotEnabledError);
  await expect(services.tenancy.admin.setKeyGeneration({ organizationId: 'org_missing', enabled: true })).rejects.toBeInstanceOf(OrganizationNotFoundError);
});

test('an unreachable store surfaces as unavailable (503), not as an invalid credential', async () => {
  const unreachable = buildServices(parseAppConfig({ ...dynamo.environment, DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' }));
  try {
    await expect(unreachable.tenancy.authenticate('broadcast-api-key', `wbk_${'a'.repeat(43)}`)).rejects.toBeInstanceOf(CredentialStoreUnavailableError);
    await expect(unreachable.tenancy.repository.getOrganization('org_x')).rejects.toBeInstanceOf(TenancyStoreUnavailableError);
  } finally {
    unreachable.destroy();
  }
});

test('a store that does not answer in time is unavailable too', async () => {
  // A TCP server that accepts and never responds: the client's request timeout must fire.
  const { createServer } = await import('node:net');
  const sockets: Array<import('node:net').Socket> = [];
  const silent = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  const port = (silent.address() as import('node:net').AddressInfo).port;
  const slow = buildServices(parseAppConfig({ ...dynamo.environment, DYNAMODB_ENDPOINT: `http://127.0.0.1:${port}` }));
  const started = Date.now();
  try {
    await expect(slow.tenancy.authenticate('broadcast-api-key', `wbk_${'a'.repeat(43)}`)).rejects.toBeInstanceOf(CredentialStoreUnavailableError);
    expect(Date.now() - started).toBeLessThan(8_000);
  } finally {
    slow.destroy();
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  }
}, 15_000);

test('the repository can be used on its own with a document client', async () => {
  const repository = dynamoDbTenancyStores(dynamo.documentClient, dynamo.tableNames.tenancy);
  await repository.putUserIfAbsent({ email: 'solo@x.example', createdAt: '2025-01-01T00:00:00.000Z' });
  await repository.putUserIfAbsent({ email: 'solo@x.example', createdAt: '2026-01-01T00:00:00.000Z' });
  expect(await repository.getUser('solo@x.example')).toEqual({ email: 'solo@x.example', createdAt: '2025-01-01T00:00:00.000Z' });
});
