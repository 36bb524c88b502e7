/**
 * The organization's own API keys (shared/tenancy/organization-api-keys.ts; docs/PEOPLE.md "API keys"):
 * only its broadcast keys are listed, never a hash; a new key is registered with the gateway and
 * recorded as the organization's; a sender number must be its own; revoking leaves the gateway;
 * another organization's id or another kind's is "not found"; a sender-bound key is out of scope.
 */
import { ApiKeyManagementOutsideKeyScopeError, ApiKeyNotFoundError, ApiKeySenderNotFoundError } from '../../../shared/tenancy/errors';
import { createTenancyTestKit, type TenancyTestKit } from '../../support/tenancy-test-ports';

const NUMBER = '15550100001';

async function organizationWithNumber(kit: TenancyTestKit, name: string, digits: string): Promise<string> {
  const { organizationId } = await kit.services.admin.createOrganization({ name, plan: 'enterprise' });
  await kit.services.admin.connectBusinessAccount({
    organizationId,
    wabaId: `waba-${digits}`,
    businessId: 'biz-1',
    name: 'WABA',
    accessToken: 'EAAG-upstream-token',
  });
  await kit.services.admin.addPhoneNumber({ organizationId, wabaId: `waba-${digits}`, digits, phoneNumberId: `pn-${digits}` });
  return organizationId;
}

describe('organization API keys', () => {
  test('lists only the organization’s broadcast keys, newest first, without a hash; a new key is the organization’s and registered', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await organizationWithNumber(kit, 'Keys Inc', NUMBER);
    const operatorKey = await kit.services.admin.issueCredential({ organizationId, kind: 'broadcast-api-key' });
    await kit.services.admin.issueCredential({ organizationId, kind: 'organization-token' });
    kit.clock.advanceBy(1000);
    const created = await kit.services.organizationApiKeys.create({ organizationId, scope: { kind: 'organization' } }, { phoneNumber: NUMBER });

    expect(created).toEqual({
      credentialId: expect.stringMatching(/^cred_/),
      apiKey: expect.stringMatching(/^wbk_/),
      boundPhoneNumber: NUMBER,
      createdAt: expect.any(String),
    });
    expect(kit.registry.registered.at(-1)).toMatchObject({ credentialId: created.credentialId, organizationId, origin: 'organization-admin' });
    await expect(kit.services.authenticate('broadcast-api-key', created.apiKey)).resolves.toMatchObject({
      organizationId,
      scope: { kind: 'sender', phoneNumber: NUMBER },
    });

    const keys = await kit.services.organizationApiKeys.list({ organizationId });
    expect(keys).toEqual([
      { credentialId: created.credentialId, boundPhoneNumber: NUMBER, origin: 'organization-admin', createdAt: created.createdAt },
      { credentialId: operatorKey.credential.credentialId, origin: 'operator', createdAt: operatorKey.credential.createdAt },
    ]);
  });

  test('a number of another organization is refused and nothing is issued', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await organizationWithNumber(kit, 'Keys Inc', NUMBER);
    await organizationWithNumber(kit, 'Other Inc', '15550100002');
    const before = kit.repository.credentials.size;
    await expect(kit.services.organizationApiKeys.create({ organizationId }, { phoneNumber: '15550100002' })).rejects.toBeInstanceOf(ApiKeySenderNotFoundError);
    expect(kit.repository.credentials.size).toBe(before);
    expect(kit.registry.registered).toHaveLength(0);
  });

  test('revoking removes the gateway key and stops the key; another organization’s id, another kind and a malformed id are not found', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await organizationWithNumber(kit, 'Keys Inc', NUMBER);
    const otherId = await organizationWithNumber(kit, 'Other Inc', '15550100002');
    const created = await kit.services.organizationApiKeys.create({ organizationId }, {});
    const theirs = await kit.services.organizationApiKeys.create({ organizationId: otherId }, {});
    const token = await kit.services.admin.issueCredential({ organizationId, kind: 'organization-token' });

    await expect(kit.services.organizationApiKeys.revoke({ organizationId }, created.credentialId)).resolves.toEqual({
      credentialId: created.credentialId,
      revoked: true,
    });
    expect(kit.registry.removed).toEqual([kit.registry.registered[0]!.gatewayApiKeyId]);
    await expect(kit.services.authenticate('broadcast-api-key', created.apiKey)).rejects.toThrow();
    // Twice is not an error.
    await expect(kit.services.organizationApiKeys.revoke({ organizationId }, created.credentialId)).resolves.toEqual({
      credentialId: created.credentialId,
      revoked: true,
    });

    for (const id of [theirs.credentialId, token.credential.credentialId, 'cred_doesNotExist', 'x'.repeat(2000)]) {
      await expect(kit.services.organizationApiKeys.revoke({ organizationId }, id)).rejects.toBeInstanceOf(ApiKeyNotFoundError);
    }
    await expect(kit.services.authenticate('broadcast-api-key', theirs.apiKey)).resolves.toMatchObject({ organizationId: otherId });
  });

  test('a key bound to one sender may not manage keys', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await organizationWithNumber(kit, 'Keys Inc', NUMBER);
    const bound = { organizationId, scope: { kind: 'sender' as const, phoneNumber: NUMBER } };
    await expect(kit.services.organizationApiKeys.list(bound)).rejects.toBeInstanceOf(ApiKeyManagementOutsideKeyScopeError);
    await expect(kit.services.organizationApiKeys.create(bound, {})).rejects.toBeInstanceOf(ApiKeyManagementOutsideKeyScopeError);
    await expect(kit.services.organizationApiKeys.revoke(bound, 'cred_1')).rejects.toBeInstanceOf(ApiKeyManagementOutsideKeyScopeError);
  });
});
