import { hashSecret } from '../../../shared/crypto/secret-generator';
import {
  ApiKeyRegistrationError,
  CredentialNotFoundError,
  CredentialStoreUnavailableError,
  InvalidCredentialError,
  KeyGenerationNotEnabledError,
  OrganizationSuspendedError,
  PhoneNumberNotFoundError,
  PlanDoesNotIncludeFeatureError,
} from '../../../shared/tenancy/errors';
import { credentialKinds, scopeOfCredential, type CredentialKind } from '../../../shared/tenancy/tenancy-entities';
import { createTenancyTestKit, type TenancyTestKit } from '../../support/tenancy-test-ports';

const expectedPrefixes: Record<CredentialKind, string> = {
  'broadcast-api-key': 'wbk_',
  'organization-token': 'wot_',
  'upstream-access-token': 'wat_',
  'v1-api-key': 'wv1_',
};

async function organizationWithNumber(kit: TenancyTestKit, plan: 'starter' | 'professional' | 'enterprise' = 'enterprise', digits = '15550100001') {
  const organization = await kit.services.admin.createOrganization({ name: 'Acme', plan });
  await kit.services.admin.connectBusinessAccount({
    organizationId: organization.organizationId,
    wabaId: `waba-${digits}`,
    businessId: 'biz-1',
    name: 'Acme WABA',
    accessToken: 'EAAG-upstream-token',
  });
  await kit.services.admin.addPhoneNumber({ organizationId: organization.organizationId, wabaId: `waba-${digits}`, digits, phoneNumberId: `pn-${digits}` });
  return organization;
}

describe('issuing credentials', () => {
  test.each(credentialKinds)('%s: prefix plus 43 base64url characters, returned once, stored only as a SHA-256 hash', async (kind) => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);

    const issued = await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind });

    expect(issued.secret).toMatch(new RegExp(`^${expectedPrefixes[kind]}[A-Za-z0-9_-]{43}$`));
    expect(issued.credential.credentialId).toMatch(/^cred_/);
    expect(issued.credential).not.toHaveProperty('secretHash');
    const stored = kit.repository.credentials.get(hashSecret(issued.secret));
    expect(stored?.secretHash).toBe(hashSecret(issued.secret));
    expect(kit.repository.everythingWritten()).not.toContain(issued.secret);
    // Not even the random part without its prefix reaches storage.
    expect(kit.repository.everythingWritten()).not.toContain(issued.secret.slice(expectedPrefixes[kind].length));
  });

  test('secrets are distinct each time', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);
    const secrets = new Set<string>();
    for (let index = 0; index < 20; index += 1) {
      secrets.add((await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'organization-token' })).secret);
    }
    expect(secrets.size).toBe(20);
  });

  test('broadcast keys are registered with the API key registry; other kinds are not', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);
    const key = await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'broadcast-api-key' });
    await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'organization-token' });

    expect(kit.registry.registered).toEqual([
      {
        credentialId: key.credential.credentialId,
        organizationId: organization.organizationId,
        plaintextKey: key.secret,
        origin: 'operator',
        gatewayApiKeyId: 'gw-1',
      },
    ]);
    expect(key.credential.gatewayApiKeyId).toBe('gw-1');
  });

  test('a failed registration stores nothing', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);
    kit.registry.failNextRegistration = true;
    await expect(kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'broadcast-api-key' })).rejects.toBeInstanceOf(
      ApiKeyRegistrationError,
    );
    expect(kit.repository.credentials.size).toBe(0);
  });

  test('a broadcast key can be bound to one of the organization’s numbers, not to another organization’s', async () => {
    const kit = createTenancyTestKit();
    const acme = await organizationWithNumber(kit, 'enterprise', '15550100001');
    await organizationWithNumber(kit, 'enterprise', '15550100009');

    const bound = await kit.services.admin.issueCredential({ organizationId: acme.organizationId, kind: 'broadcast-api-key', boundPhoneNumber: '15550100001' });
    expect(bound.credential.boundPhoneNumber).toBe('15550100001');
    const caller = await kit.services.authenticate('broadcast-api-key', bound.secret);
    expect(caller.scope).toEqual({ kind: 'sender', phoneNumber: '15550100001' });

    await expect(
      kit.services.admin.issueCredential({ organizationId: acme.organizationId, kind: 'broadcast-api-key', boundPhoneNumber: '15550100009' }),
    ).rejects.toBeInstanceOf(PhoneNumberNotFoundError);
  });

  test('v1 keys need the enterprise plan or the API add-on', async () => {
    const kit = createTenancyTestKit();
    const starter = await kit.services.admin.createOrganization({ name: 'Small', plan: 'starter' });
    await expect(kit.services.admin.issueCredential({ organizationId: starter.organizationId, kind: 'v1-api-key' })).rejects.toBeInstanceOf(
      PlanDoesNotIncludeFeatureError,
    );
    await kit.services.admin.setOrganizationPlan({ organizationId: starter.organizationId, plan: 'starter', apiAddOn: true });
    const issued = await kit.services.admin.issueCredential({ organizationId: starter.organizationId, kind: 'v1-api-key' });
    expect(await kit.services.authenticate('v1-api-key', issued.secret)).toMatchObject({ plan: 'starter', apiAddOn: true });
  });

  test('generate-key: issues a key bound to the number, for the organization owning it, once the organization turned generation on', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);
    expect((await kit.services.admin.describeOrganization(organization.organizationId)).organization.keyGenerationEnabled).toBeUndefined();
    await expect(kit.services.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15550100001' })).rejects.toBeInstanceOf(KeyGenerationNotEnabledError);
    expect(kit.repository.credentials.size).toBe(0);

    await kit.services.admin.setKeyGeneration({ organizationId: organization.organizationId, enabled: true });
    const issued = await kit.services.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15550100001', sourceIp: '203.0.113.7' });
    expect(issued.credential).toMatchObject({
      organizationId: organization.organizationId,
      boundPhoneNumber: '15550100001',
      kind: 'broadcast-api-key',
      origin: 'generate-key',
      sourceIpHash: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(kit.repository.everythingWritten()).not.toContain('203.0.113.7');
    expect(kit.registry.registered.at(-1)).toMatchObject({ credentialId: issued.credential.credentialId, origin: 'generate-key' });
    const caller = await kit.services.authenticate('broadcast-api-key', issued.secret);
    expect(caller.scope).toEqual({ kind: 'earlier-sender', phoneNumber: '15550100001' });
    await expect(kit.services.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15550100077' })).rejects.toBeInstanceOf(PhoneNumberNotFoundError);

    await kit.services.admin.setKeyGeneration({ organizationId: organization.organizationId, enabled: false });
    await expect(kit.services.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15550100001' })).rejects.toBeInstanceOf(KeyGenerationNotEnabledError);
    // Turning generation off also revokes the keys minted so far (issue 23 item 7; generated-keys.test.ts).
    await expect(kit.services.authenticate('broadcast-api-key', issued.secret)).rejects.toBeInstanceOf(InvalidCredentialError);
  });

  test('generate-key: a suspended organization gets no key even with generation on', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);
    await kit.services.admin.setKeyGeneration({ organizationId: organization.organizationId, enabled: true });
    kit.repository.organizations.get(organization.organizationId)!.status = 'suspended';
    await expect(kit.services.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15550100001' })).rejects.toBeInstanceOf(KeyGenerationNotEnabledError);
  });

  test('minted keys are listed without secrets and revoked through the admin use cases; other credentials are not theirs to revoke', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);
    const organizationId = organization.organizationId;
    await kit.services.admin.setKeyGeneration({ organizationId, enabled: true });
    const operatorKey = await kit.services.admin.issueCredential({ organizationId, kind: 'broadcast-api-key', boundPhoneNumber: '15550100001' });
    const first = await kit.services.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15550100001', sourceIp: '203.0.113.7' });
    kit.clock.advanceBy(1_000);
    const second = await kit.services.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15550100001' });

    const listed = await kit.services.admin.listGeneratedKeys({ organizationId });
    expect(listed).toEqual([
      {
        credentialId: first.credential.credentialId,
        boundPhoneNumber: '15550100001',
        createdAt: first.credential.createdAt,
        sourceIpHash: first.credential.sourceIpHash,
        revokedAt: null,
      },
      {
        credentialId: second.credential.credentialId,
        boundPhoneNumber: '15550100001',
        createdAt: second.credential.createdAt,
        sourceIpHash: null,
        revokedAt: null,
      },
    ]);
    expect(first.credential.createdAt < second.credential.createdAt).toBe(true);
    const text = JSON.stringify(listed);
    for (const secret of [first.secret, second.secret]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(hashSecret(secret));
    }

    await expect(kit.services.admin.revokeGeneratedKey({ organizationId, credentialId: operatorKey.credential.credentialId })).rejects.toBeInstanceOf(
      CredentialNotFoundError,
    );
    const revoked = await kit.services.admin.revokeGeneratedKey({ organizationId, credentialId: first.credential.credentialId });
    expect(revoked).toMatchObject({ credentialId: first.credential.credentialId, revokedAt: kit.clock.now().toISOString() });
    expect(kit.registry.removed).toEqual([first.credential.gatewayApiKeyId]);
    await expect(kit.services.authenticate('broadcast-api-key', first.secret)).rejects.toBeInstanceOf(InvalidCredentialError);
    await expect(kit.services.authenticate('broadcast-api-key', second.secret)).resolves.toMatchObject({ credentialId: second.credential.credentialId });
    expect((await kit.services.admin.listGeneratedKeys({ organizationId }))[0]!.revokedAt).toBe(revoked.revokedAt);
  });

  test('scope of each kind of key: unbound → organization, bound by an operator → sender, minted → earlier-sender', () => {
    expect(scopeOfCredential({})).toEqual({ kind: 'organization' });
    expect(scopeOfCredential({ boundPhoneNumber: '15550100001' })).toEqual({ kind: 'sender', phoneNumber: '15550100001' });
    expect(scopeOfCredential({ boundPhoneNumber: '15550100001', origin: 'generate-key' })).toEqual({ kind: 'earlier-sender', phoneNumber: '15550100001' });
    // Never wider than its origin allows, even if the stored number went missing.
    expect(scopeOfCredential({ origin: 'generate-key' })).toEqual({ kind: 'earlier-sender', phoneNumber: '' });
  });
});

describe('authenticating credentials', () => {
  test('a valid secret resolves the organization, kind and plan', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit, 'professional');
    const issued = await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'organization-token' });

    await expect(kit.services.authenticate('organization-token', issued.secret)).resolves.toEqual({
      organizationId: organization.organizationId,
      credentialId: issued.credential.credentialId,
      credentialKind: 'organization-token',
      scope: { kind: 'organization' },
      plan: 'professional',
      apiAddOn: false,
    });
  });

  test('a secret of another kind is rejected, even with a forged prefix', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);
    const token = await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'organization-token' });

    await expect(kit.services.authenticate('broadcast-api-key', token.secret)).rejects.toBeInstanceOf(InvalidCredentialError);
    await expect(kit.services.authenticate('upstream-access-token', token.secret)).rejects.toBeInstanceOf(InvalidCredentialError);
    // Right shape for the kind, but the hash belongs to an organization token.
    const forged = `wbk_${token.secret.slice(4)}`;
    await expect(kit.services.authenticate('broadcast-api-key', forged)).rejects.toBeInstanceOf(InvalidCredentialError);
  });

  test('missing and malformed secrets are rejected without reading the store', async () => {
    const kit = createTenancyTestKit();
    for (const presented of [undefined, null, '', '   ', 'wbk_short', 'Bearer wbk_x', `wbk_${'a'.repeat(42)}!`]) {
      await expect(kit.services.authenticate('broadcast-api-key', presented)).rejects.toBeInstanceOf(InvalidCredentialError);
    }
    expect(kit.repository.callCount('getCredentialByHash')).toBe(0);
  });

  test('an unknown well-formed secret is rejected', async () => {
    const kit = createTenancyTestKit();
    await expect(kit.services.authenticate('broadcast-api-key', `wbk_${'A'.repeat(43)}`)).rejects.toBeInstanceOf(InvalidCredentialError);
  });

  test('every refusal looks the same to the caller', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);
    const revoked = await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'organization-token' });
    await kit.services.admin.revokeCredential({ organizationId: organization.organizationId, credentialId: revoked.credential.credentialId });
    const failureOf = (secret: string) =>
      kit.services.authenticate('organization-token', secret).then(
        () => new Error('unexpectedly authenticated'),
        (error: Error) => error,
      );
    const failures = await Promise.all([failureOf(revoked.secret), failureOf(`wot_${'B'.repeat(43)}`), failureOf('nonsense')]);
    expect(new Set(failures.map((error) => `${error.name}:${error.message}`)).size).toBe(1);
  });

  test('revoked credentials stop working at once; revoking twice keeps the first time', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);
    const key = await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'broadcast-api-key' });
    await expect(kit.services.authenticate('broadcast-api-key', key.secret)).resolves.toBeDefined();

    const first = await kit.services.admin.revokeCredential({ organizationId: organization.organizationId, credentialId: key.credential.credentialId });
    kit.clock.advanceBy(60_000);
    const second = await kit.services.admin.revokeCredential({ organizationId: organization.organizationId, credentialId: key.credential.credentialId });

    expect(second.revokedAt).toBe(first.revokedAt);
    await expect(kit.services.authenticate('broadcast-api-key', key.secret)).rejects.toBeInstanceOf(InvalidCredentialError);
    await expect(kit.services.isBroadcastApiKeyEnabled(key.secret)).resolves.toBe(false);
    expect(kit.registry.removed).toContain('gw-1');
  });

  test('an organization cannot revoke another organization’s credential', async () => {
    const kit = createTenancyTestKit();
    const acme = await organizationWithNumber(kit, 'enterprise', '15550100001');
    const other = await organizationWithNumber(kit, 'enterprise', '15550100002');
    const key = await kit.services.admin.issueCredential({ organizationId: acme.organizationId, kind: 'organization-token' });
    await expect(
      kit.services.admin.revokeCredential({ organizationId: other.organizationId, credentialId: key.credential.credentialId }),
    ).rejects.toBeInstanceOf(CredentialNotFoundError);
    await expect(kit.services.authenticate('organization-token', key.secret)).resolves.toBeDefined();
  });

  test('expired credentials are rejected from the expiry instant on (checked in code, no TTL needed)', async () => {
    const kit = createTenancyTestKit('2025-01-15T10:00:00.000Z');
    const organization = await organizationWithNumber(kit);
    const token = await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'upstream-access-token', expiresInDays: 30 });
    expect(token.credential.expiresAt).toBe('2025-02-14T10:00:00.000Z');

    kit.clock.set('2025-02-14T09:59:59.999Z');
    await expect(kit.services.authenticate('upstream-access-token', token.secret)).resolves.toBeDefined();
    kit.clock.set('2025-02-14T10:00:00.000Z');
    await expect(kit.services.authenticate('upstream-access-token', token.secret)).rejects.toBeInstanceOf(InvalidCredentialError);
  });

  test('credentials of a suspended organization are rejected with OrganizationSuspendedError (403 on every surface), not as invalid', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);
    const token = await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'organization-token' });
    kit.repository.organizations.get(organization.organizationId)!.status = 'suspended';
    await expect(kit.services.authenticate('organization-token', token.secret)).rejects.toBeInstanceOf(OrganizationSuspendedError);
  });

  test('a store outage is reported as CredentialStoreUnavailableError, not as an invalid credential', async () => {
    const kit = createTenancyTestKit();
    const organization = await organizationWithNumber(kit);
    const key = await kit.services.admin.issueCredential({ organizationId: organization.organizationId, kind: 'broadcast-api-key' });
    kit.repository.makeUnavailable();
    await expect(kit.services.authenticate('broadcast-api-key', key.secret)).rejects.toBeInstanceOf(CredentialStoreUnavailableError);
    await expect(kit.services.isBroadcastApiKeyEnabled(key.secret)).rejects.toBeInstanceOf(CredentialStoreUnavailableError);
  });
});
