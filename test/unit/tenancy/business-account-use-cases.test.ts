import {
  BusinessAccountNeedsAuthorizationError,
  BusinessAccountNotFoundError,
  IdentifierClaimedByAnotherOrganizationError,
  InvalidTenancyInputError,
} from '../../../shared/tenancy/errors';
import { TokenDecryptionError } from '../../../shared/crypto/errors';
import { createTenancyTestKit, type TenancyTestKit } from '../../support/tenancy-test-ports';

async function connected(kit: TenancyTestKit, name: string, wabaId: string, accessToken = `EAAG-${name}-token`) {
  const organization = await kit.services.admin.createOrganization({ name, plan: 'enterprise' });
  await kit.services.admin.connectBusinessAccount({ organizationId: organization.organizationId, wabaId, businessId: `biz-${name}`, name, accessToken });
  return organization.organizationId;
}

describe('connecting business accounts', () => {
  test('the upstream token is stored encrypted and bound to its purpose, organization and account', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await connected(kit, 'acme', '1001', 'EAAG-very-secret-upstream-token');

    const stored = kit.repository.businessAccounts.get(`${organizationId}#1001`)!;
    expect(stored.encryptedAccessToken).toMatch(/^aes256gcm\.v1:/);
    expect(kit.repository.everythingWritten()).not.toContain('EAAG-very-secret-upstream-token');
    await expect(kit.ports.cipher.decrypt(stored.encryptedAccessToken, { purpose: 'upstream-token', organizationId, wabaId: '1001' })).resolves.toBe(
      'EAAG-very-secret-upstream-token',
    );
    // The same ciphertext under another organization's context does not open.
    await expect(
      kit.ports.cipher.decrypt(stored.encryptedAccessToken, { purpose: 'upstream-token', organizationId: 'org_other', wabaId: '1001' }),
    ).rejects.toBeInstanceOf(TokenDecryptionError);
    // Nor under another purpose's context (each function's KMS grant names its purposes).
    await expect(kit.ports.cipher.decrypt(stored.encryptedAccessToken, { purpose: 'webhook-secret', organizationId, wabaId: '1001' })).rejects.toBeInstanceOf(
      TokenDecryptionError,
    );
  });

  test('the summary returned never includes the token, encrypted or not', async () => {
    const kit = createTenancyTestKit();
    const organization = await kit.services.admin.createOrganization({ name: 'acme', plan: 'starter' });
    const summary = await kit.services.admin.connectBusinessAccount({
      organizationId: organization.organizationId,
      wabaId: '1001',
      businessId: 'b',
      name: 'n',
      accessToken: 'EAAG-x',
    });
    expect(JSON.stringify(summary)).not.toMatch(/EAAG|aes256gcm|encryptedAccessToken/);
  });

  test('a business account cannot be connected to two organizations', async () => {
    const kit = createTenancyTestKit();
    await connected(kit, 'acme', '1001');
    await expect(connected(kit, 'intruder', '1001')).rejects.toBeInstanceOf(IdentifierClaimedByAnotherOrganizationError);
  });

  test('reconnecting replaces the token and clears needs-authorization', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await connected(kit, 'acme', '1001', 'EAAG-old');
    const account = (await kit.repository.getBusinessAccount(organizationId, '1001'))!;
    await kit.services.markBusinessAccountNeedsAuthorization(account);
    await expect(kit.services.decryptUpstreamAccessToken(organizationId, '1001')).rejects.toBeInstanceOf(BusinessAccountNeedsAuthorizationError);

    await kit.services.admin.connectBusinessAccount({ organizationId, wabaId: '1001', businessId: 'b', name: 'n', accessToken: 'EAAG-new' });
    await expect(kit.services.decryptUpstreamAccessToken(organizationId, '1001')).resolves.toBe('EAAG-new');
  });

  test('a stale failure does not flag a connection whose token was replaced meanwhile', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await connected(kit, 'acme', '1001', 'EAAG-old');
    const before = (await kit.repository.getBusinessAccount(organizationId, '1001'))!;
    await kit.services.admin.connectBusinessAccount({ organizationId, wabaId: '1001', businessId: 'b', name: 'n', accessToken: 'EAAG-new' });
    await kit.services.markBusinessAccountNeedsAuthorization(before);
    expect((await kit.repository.getBusinessAccount(organizationId, '1001'))!.status).toBe('active');
  });
});

describe('adding phone numbers', () => {
  test('needs a business account of the same organization', async () => {
    const kit = createTenancyTestKit();
    await connected(kit, 'acme', '1001');
    const other = await connected(kit, 'other', '2002');
    await expect(
      kit.services.admin.addPhoneNumber({ organizationId: other, wabaId: '1001', digits: '15550100001', phoneNumberId: '9001' }),
    ).rejects.toBeInstanceOf(BusinessAccountNotFoundError);
  });

  test('validates digits', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await connected(kit, 'acme', '1001');
    for (const digits of ['+15550100001', '1555 0100', '123', '1234567890123456']) {
      await expect(kit.services.admin.addPhoneNumber({ organizationId, wabaId: '1001', digits, phoneNumberId: '9001' })).rejects.toBeInstanceOf(
        InvalidTenancyInputError,
      );
    }
  });

  test('is idempotent for the owner and findable globally by digits and by upstream id', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await connected(kit, 'acme', '1001');
    const input = { organizationId, wabaId: '1001', digits: '15550100001', phoneNumberId: '9001' };
    await kit.services.admin.addPhoneNumber(input);
    await kit.services.admin.addPhoneNumber(input);

    expect(await kit.repository.listPhoneNumbers(organizationId)).toHaveLength(1);
    expect(await kit.repository.findPhoneNumberByDigits('15550100001')).toMatchObject({ organizationId, phoneNumberId: '9001' });
    expect(await kit.repository.findPhoneNumberById('9001')).toMatchObject({ organizationId, digits: '15550100001' });
  });

  test('claims keep two organizations from owning the same number (by digits or by upstream id)', async () => {
    const kit = createTenancyTestKit();
    const owner = await connected(kit, 'acme', '1001');
    const intruder = await connected(kit, 'intruder', '2002');
    await kit.services.admin.addPhoneNumber({ organizationId: owner, wabaId: '1001', digits: '15550100001', phoneNumberId: '9001' });

    await expect(
      kit.services.admin.addPhoneNumber({ organizationId: intruder, wabaId: '2002', digits: '15550100001', phoneNumberId: '9002' }),
    ).rejects.toBeInstanceOf(IdentifierClaimedByAnotherOrganizationError);
    await expect(
      kit.services.admin.addPhoneNumber({ organizationId: intruder, wabaId: '2002', digits: '15550100002', phoneNumberId: '9001' }),
    ).rejects.toBeInstanceOf(IdentifierClaimedByAnotherOrganizationError);

    // The failed attempt released the digits it had claimed before hitting the taken id...
    expect(await kit.repository.findPhoneNumberByDigits('15550100002')).toBeUndefined();
    // ...and the owner's claims and listing are untouched.
    expect(await kit.repository.findPhoneNumberById('9001')).toMatchObject({ organizationId: owner, digits: '15550100001' });
    expect(await kit.repository.listPhoneNumbers(intruder)).toEqual([]);
    // The released digits are free for a legitimate owner.
    await expect(
      kit.services.admin.addPhoneNumber({ organizationId: intruder, wabaId: '2002', digits: '15550100002', phoneNumberId: '9002' }),
    ).resolves.toMatchObject({ organizationId: intruder });
  });
});

describe('decrypting upstream tokens', () => {
  test('decrypts once, then serves from the cache until the TTL passes', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await connected(kit, 'acme', '1001', 'EAAG-cached');

    await expect(kit.services.decryptUpstreamAccessToken(organizationId, '1001')).resolves.toBe('EAAG-cached');
    await expect(kit.services.decryptUpstreamAccessToken(organizationId, '1001')).resolves.toBe('EAAG-cached');
    expect(kit.cipher.decryptions).toBe(1);

    kit.clock.advanceBy(5 * 60_000 + 1);
    await kit.services.decryptUpstreamAccessToken(organizationId, '1001');
    expect(kit.cipher.decryptions).toBe(2);
  });

  test('a reconnected account misses the cache immediately', async () => {
    const kit = createTenancyTestKit();
    const organizationId = await connected(kit, 'acme', '1001', 'EAAG-first');
    await kit.services.decryptUpstreamAccessToken(organizationId, '1001');
    await kit.services.admin.connectBusinessAccount({ organizationId, wabaId: '1001', businessId: 'b', name: 'n', accessToken: 'EAAG-second' });
    await expect(kit.services.decryptUpstreamAccessToken(organizationId, '1001')).resolves.toBe('EAAG-second');
  });

  test('another organization’s account is not found', async () => {
    const kit = createTenancyTestKit();
    await connected(kit, 'acme', '1001');
    const other = await connected(kit, 'other', '2002');
    await expect(kit.services.decryptUpstreamAccessToken(other, '1001')).rejects.toBeInstanceOf(BusinessAccountNotFoundError);
  });
});
