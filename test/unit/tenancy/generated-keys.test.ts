/**
 * Keys minted by generate-key (shared/tenancy/generated-keys.ts): the cap per organization (slots),
 * giving slots back (revocation, a failed minting, stale slots), turning generation off (revokes
 * every minted key; authentication refuses one minted in the same instant).
 */
import { hashSecret } from '../../../shared/crypto/secret-generator';
import { GeneratedKeyLimitReachedError, InvalidCredentialError, OrganizationNotFoundError, OrganizationSuspendedError } from '../../../shared/tenancy/errors';
import { generatedKeySlotHolder } from '../../../shared/tenancy/tenancy-entities';
import { createTenancyTestKit, type TenancyTestKit } from '../../support/tenancy-test-ports';

const NUMBER = '15550100001';

async function mintingOrganization(kit: TenancyTestKit): Promise<string> {
  const { organizationId } = await kit.services.admin.createOrganization({ name: 'Public Number Inc', plan: 'enterprise' });
  await kit.services.admin.connectBusinessAccount({ organizationId, wabaId: 'waba-1', businessId: 'biz-1', name: 'WABA', accessToken: 'EAAG-upstream-token' });
  await kit.services.admin.addPhoneNumber({ organizationId, wabaId: 'waba-1', digits: NUMBER, phoneNumberId: 'pn-1' });
  await kit.services.admin.setKeyGeneration({ organizationId, enabled: true });
  return organizationId;
}

const mint = (kit: TenancyTestKit) => kit.services.issueBroadcastKeyForPhoneNumber({ phoneNumber: NUMBER, sourceIp: '203.0.113.7' });

describe('the cap of live minted keys per organization', () => {
  test('the limit is reached with a clear error naming it; nothing is registered or stored for the refused one', async () => {
    const kit = createTenancyTestKit(undefined, 2);
    const organizationId = await mintingOrganization(kit);
    const first = await mint(kit);
    const second = await mint(kit);
    const credentialsBefore = kit.repository.credentials.size;
    const registeredBefore = kit.registry.registered.length;

    const refused = mint(kit);
    await expect(refused).rejects.toBeInstanceOf(GeneratedKeyLimitReachedError);
    await expect(refused).rejects.toMatchObject({
      code: 'GENERATED_KEY_LIMIT_REACHED',
      limit: 2,
      message: expect.stringContaining('2 keys from generate-key'),
    });
    expect(kit.repository.credentials.size).toBe(credentialsBefore);
    expect(kit.registry.registered).toHaveLength(registeredBefore);
    expect(await kit.repository.listGeneratedKeySlots(organizationId)).toEqual(
      [generatedKeySlotHolder(first.credential), generatedKeySlotHolder(second.credential)].sort(),
    );

    // Operator-issued keys do not count.
    await expect(kit.services.admin.issueCredential({ organizationId, kind: 'broadcast-api-key', boundPhoneNumber: NUMBER })).resolves.toBeDefined();
  });

  test('revoking a minted key gives its slot back (revoke-generated-key or revoke-credential)', async () => {
    const kit = createTenancyTestKit(undefined, 2);
    const organizationId = await mintingOrganization(kit);
    const first = await mint(kit);
    const second = await mint(kit);
    await kit.services.admin.revokeGeneratedKey({ organizationId, credentialId: first.credential.credentialId });
    const third = await mint(kit);
    await expect(mint(kit)).rejects.toBeInstanceOf(GeneratedKeyLimitReachedError);
    await kit.services.admin.revokeCredential({ organizationId, credentialId: second.credential.credentialId });
    await expect(mint(kit)).resolves.toBeDefined();
    expect(await kit.repository.listGeneratedKeySlots(organizationId)).toHaveLength(2);
    expect(await kit.repository.listGeneratedKeySlots(organizationId)).toContain(generatedKeySlotHolder(third.credential));
  });

  test('a minting that fails after taking its slot gives it back', async () => {
    const kit = createTenancyTestKit(undefined, 1);
    const organizationId = await mintingOrganization(kit);
    kit.registry.failNextRegistration = true;
    await expect(mint(kit)).rejects.toMatchObject({ code: 'API_KEY_REGISTRATION' });
    expect(await kit.repository.listGeneratedKeySlots(organizationId)).toEqual([]);
    await expect(mint(kit)).resolves.toBeDefined();
  });

  test('stale slots are taken back when the cap is reached: a revoked key’s at once, a never-stored key’s after 15 minutes', async () => {
    const kit = createTenancyTestKit(undefined, 2);
    const organizationId = await mintingOrganization(kit);
    const revokedWithoutRelease = await mint(kit);
    // A revocation that died between revoking and giving the slot back.
    await kit.repository.revokeCredential(hashSecret(revokedWithoutRelease.secret), organizationId, kit.clock.now().toISOString());
    // A minting that died between taking the slot and storing its key.
    const orphan = generatedKeySlotHolder({ createdAt: kit.clock.now().toISOString(), credentialId: 'cred_never_stored' });
    await kit.repository.holdGeneratedKeySlot(organizationId, orphan, 2);

    const minted = await mint(kit);
    expect(await kit.repository.listGeneratedKeySlots(organizationId)).toEqual([generatedKeySlotHolder(minted.credential), orphan].sort());
    kit.clock.advanceBy(14 * 60_000);
    await expect(mint(kit)).rejects.toBeInstanceOf(GeneratedKeyLimitReachedError);
    kit.clock.advanceBy(2 * 60_000);
    const afterOrphanExpired = await mint(kit);
    expect(await kit.repository.listGeneratedKeySlots(organizationId)).toEqual(
      [generatedKeySlotHolder(minted.credential), generatedKeySlotHolder(afterOrphanExpired.credential)].sort(),
    );
  });
});

describe('turning key generation off', () => {
  test('revokes every live minted key in the same command (gateway keys deleted, slots given back), not the operator’s keys; turning it on again revives none', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await mintingOrganization(kit);
    const minted = [await mint(kit), await mint(kit), await mint(kit)];
    await kit.services.admin.revokeGeneratedKey({ organizationId, credentialId: minted[0]!.credential.credentialId });
    const operatorKey = await kit.services.admin.issueCredential({ organizationId, kind: 'broadcast-api-key', boundPhoneNumber: NUMBER });
    kit.registry.removed.length = 0;

    const turnedOff = await kit.services.admin.setKeyGeneration({ organizationId, enabled: false });
    expect(turnedOff).toMatchObject({
      keyGenerationEnabled: false,
      revokedGeneratedKeys: [minted[1]!.credential.credentialId, minted[2]!.credential.credentialId],
    });
    expect(kit.registry.removed).toEqual([minted[1]!.credential.gatewayApiKeyId, minted[2]!.credential.gatewayApiKeyId]);
    expect(await kit.repository.listGeneratedKeySlots(organizationId)).toEqual([]);
    for (const { secret } of minted) await expect(kit.services.authenticate('broadcast-api-key', secret)).rejects.toBeInstanceOf(InvalidCredentialError);
    await expect(kit.services.isBroadcastApiKeyEnabled(minted[1]!.secret)).resolves.toBe(false);
    await expect(kit.services.authenticate('broadcast-api-key', operatorKey.secret)).resolves.toMatchObject({ scope: { kind: 'sender' } });

    expect(await kit.services.admin.setKeyGeneration({ organizationId, enabled: true })).toMatchObject({
      keyGenerationEnabled: true,
      revokedGeneratedKeys: [],
    });
    for (const { secret } of minted) await expect(kit.services.authenticate('broadcast-api-key', secret)).rejects.toBeInstanceOf(InvalidCredentialError);
    await expect(kit.services.admin.setKeyGeneration({ organizationId: 'org_missing', enabled: false })).rejects.toBeInstanceOf(OrganizationNotFoundError);
  });

  test('authentication refuses a minted key while generation is off, even one the revocation missed', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await mintingOrganization(kit);
    const minted = await mint(kit);
    // The flag alone, as if the key was minted in the instant of the command (after its listing).
    await kit.repository.updateOrganizationKeyGeneration(organizationId, { keyGenerationEnabled: false, updatedAt: kit.clock.now().toISOString() });
    await expect(kit.services.authenticate('broadcast-api-key', minted.secret)).rejects.toBeInstanceOf(InvalidCredentialError);
    await kit.repository.updateOrganizationKeyGeneration(organizationId, { keyGenerationEnabled: true, updatedAt: kit.clock.now().toISOString() });
    await expect(kit.services.authenticate('broadcast-api-key', minted.secret)).resolves.toMatchObject({ scope: { kind: 'earlier-sender' } });
  });
});

describe('authentication of a suspended organization', () => {
  test('every kind of valid credential answers OrganizationSuspendedError; an invalid one stays invalid; resuming lifts it', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await mintingOrganization(kit);
    const minted = await mint(kit);
    const issued = await Promise.all(
      (['broadcast-api-key', 'organization-token', 'upstream-access-token', 'v1-api-key'] as const).map(async (kind) => ({
        kind,
        ...(await kit.services.admin.issueCredential({ organizationId, kind })),
      })),
    );
    const revoked = await kit.services.admin.issueCredential({ organizationId, kind: 'organization-token' });
    await kit.services.admin.revokeCredential({ organizationId, credentialId: revoked.credential.credentialId });

    const suspendedAt = kit.clock.now().toISOString();
    await kit.repository.setOrganizationSuspension(organizationId, { suspension: { suspendedAt, reason: 'fraud report' }, updatedAt: suspendedAt });
    for (const { kind, secret } of [...issued, { kind: 'broadcast-api-key' as const, secret: minted.secret }]) {
      await expect(kit.services.authenticate(kind, secret)).rejects.toBeInstanceOf(OrganizationSuspendedError);
    }
    await expect(kit.services.authenticate('organization-token', revoked.secret)).rejects.toBeInstanceOf(InvalidCredentialError);
    // The gateway's key list keeps the key (as API Gateway does): the function answers it 403.
    await expect(kit.services.isBroadcastApiKeyEnabled(issued[0]!.secret)).resolves.toBe(true);
    expect(await kit.repository.getOrganization(organizationId)).toMatchObject({ status: 'suspended', suspendedAt, suspensionReason: 'fraud report' });

    kit.clock.advanceBy(60_000);
    await kit.repository.setOrganizationSuspension(organizationId, { suspension: undefined, updatedAt: kit.clock.now().toISOString() });
    for (const { kind, secret } of issued) await expect(kit.services.authenticate(kind, secret)).resolves.toMatchObject({ organizationId });
    const resumed = await kit.repository.getOrganization(organizationId);
    expect(resumed).toMatchObject({ status: 'active' });
    expect(resumed).not.toHaveProperty('suspendedAt');
    expect(resumed).not.toHaveProperty('suspensionReason');
  });
});
