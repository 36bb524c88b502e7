import { adminCommands, runAdminCommand, UnknownAdminCommandError } from '../../../shared/tenancy/admin-commands';
import { BusinessAccountNotConnectedError, InvalidTenancyInputError } from '../../../shared/tenancy/errors';
import { createTenancyTestKit } from '../../support/tenancy-test-ports';

describe('admin commands', () => {
  test('a full onboarding through the commands, and show-organization reveals no secrets', async () => {
    const kit = createTenancyTestKit();
    const tenancy = kit.services;
    const organization = (await runAdminCommand(tenancy, 'create-organization', { name: 'Acme', plan: 'enterprise', 'api-add-on': '' })) as {
      organizationId: string;
      apiAddOn: boolean;
    };
    expect(organization.apiAddOn).toBe(true);
    const org = organization.organizationId;
    await runAdminCommand(tenancy, 'connect-business-account', {
      org,
      'waba-id': '1001',
      'business-id': '1000',
      name: 'Acme',
      'access-token': 'EAAG-upstream',
    });
    await runAdminCommand(tenancy, 'add-phone-number', { org, 'waba-id': '1001', 'phone-number': '15550100001', 'phone-number-id': '9001' });
    const key = await adminCommands['issue-broadcast-key'].run(tenancy, { org, 'phone-number': '15550100001' });
    const token = await adminCommands['issue-upstream-token'].run(tenancy, { org, 'expires-in-days': '7' });
    await runAdminCommand(tenancy, 'add-employee', { org, email: 'Alice@Acme.example', role: 'admin' });
    const wallet = await adminCommands['top-up-wallet'].run(tenancy, { org, amount: '500.00' });
    const pricing = await adminCommands['set-pricing'].run(tenancy, { country: '44', marketing: '0.0529', utility: '0.022', authentication: '0.0358' });
    await runAdminCommand(tenancy, 'set-subscription', { org, status: 'active', plan: 'enterprise', 'period-end': '2030-01-01' });

    expect(key).toMatchObject({ kind: 'broadcast-api-key', boundPhoneNumber: '15550100001', organizationId: org });
    expect(key.secret).toMatch(/^wbk_/);
    expect(token.expiresAt).toBe('2025-01-22T10:00:00.000Z');
    expect(wallet).toMatchObject({ balance: '500.00', balanceMicros: 500_000_000, currency: 'USD' });
    expect(pricing.prices).toEqual({ MARKETING: '0.0529', UTILITY: '0.022', AUTHENTICATION: '0.0358' });

    const shown = JSON.stringify(await runAdminCommand(tenancy, 'show-organization', { org }));
    expect(shown).toContain('alice@acme.example');
    expect(shown).toContain('"balance":"500.00"');
    expect(shown).toContain(key.credentialId);
    for (const forbidden of [key.secret, token.secret, 'EAAG-upstream', 'secretHash', 'encryptedAccessToken', 'aes256gcm']) {
      expect(shown).not.toContain(forbidden);
    }
    for (const hash of kit.repository.credentials.keys()) expect(shown).not.toContain(hash);

    const revoked = await adminCommands['revoke-credential'].run(tenancy, { org, 'credential-id': key.credentialId });
    expect(revoked.revokedAt).toBeDefined();
  });

  test('unknown commands and flags, and missing required flags, are refused', async () => {
    const { services } = createTenancyTestKit();
    await expect(runAdminCommand(services, 'drop-everything', {})).rejects.toBeInstanceOf(UnknownAdminCommandError);
    await expect(runAdminCommand(services, 'create-organization', { name: 'X', plan: 'starter', plna: 'x' })).rejects.toThrow(/--plna/);
    await expect(runAdminCommand(services, 'create-organization', { plan: 'starter' })).rejects.toThrow(/--name is required/);
    await expect(runAdminCommand(services, 'create-organization', { name: 'X', plan: 'starter', 'api-add-on': 'maybe' })).rejects.toBeInstanceOf(
      InvalidTenancyInputError,
    );
    await expect(runAdminCommand(services, 'top-up-wallet', { org: 'org_x', amount: '-3' })).rejects.toBeInstanceOf(InvalidTenancyInputError);
  });

  test('key generation: off by default, turned on and off with set-key-generation; minted keys listed and revoked by command', async () => {
    const kit = createTenancyTestKit();
    const tenancy = kit.services;
    const { organizationId: org } = await adminCommands['create-organization'].run(tenancy, { name: 'Acme', plan: 'enterprise' });
    await runAdminCommand(tenancy, 'connect-business-account', {
      org,
      'waba-id': '1001',
      'business-id': '1000',
      name: 'Acme',
      'access-token': 'EAAG-upstream',
    });
    await runAdminCommand(tenancy, 'add-phone-number', { org, 'waba-id': '1001', 'phone-number': '15550100001', 'phone-number-id': '9001' });
    await expect(runAdminCommand(tenancy, 'set-key-generation', { org })).rejects.toThrow('--enabled is required (true or false)');
    await expect(runAdminCommand(tenancy, 'set-key-generation', { org, enabled: 'perhaps' })).rejects.toBeInstanceOf(InvalidTenancyInputError);
    await expect(tenancy.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15550100001' })).rejects.toThrow(/has not turned key generation on/);

    expect(await adminCommands['set-key-generation'].run(tenancy, { org, enabled: 'true' })).toMatchObject({ keyGenerationEnabled: true });
    const minted = await tenancy.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15550100001', sourceIp: '198.51.100.4' });
    const listed = await adminCommands['list-generated-keys'].run(tenancy, { org });
    expect(listed).toEqual([
      {
        credentialId: minted.credential.credentialId,
        boundPhoneNumber: '15550100001',
        createdAt: minted.credential.createdAt,
        sourceIpHash: expect.stringMatching(/^[0-9a-f]{64}$/),
        revokedAt: null,
      },
    ]);
    for (const forbidden of [minted.secret, '198.51.100.4', ...kit.repository.credentials.keys()]) expect(JSON.stringify(listed)).not.toContain(forbidden);
    const revoked = await adminCommands['revoke-generated-key'].run(tenancy, { org, 'credential-id': minted.credential.credentialId });
    expect(revoked.revokedAt).toBe('2025-01-15T10:00:00.000Z');

    expect(await adminCommands['set-key-generation'].run(tenancy, { org, enabled: 'false' })).toMatchObject({ keyGenerationEnabled: false });
    await expect(tenancy.issueBroadcastKeyForPhoneNumber({ phoneNumber: '15550100001' })).rejects.toThrow(/has not turned key generation on/);
  });

  test('set-marketing-messages: auto until set, true/false/auto by WABA id alone, kept across a reconnection, shown with the account', async () => {
    const kit = createTenancyTestKit();
    const tenancy = kit.services;
    const { organizationId: org } = await adminCommands['create-organization'].run(tenancy, { name: 'Acme', plan: 'enterprise' });
    const connected = await runAdminCommand(tenancy, 'connect-business-account', {
      org,
      'waba-id': '1001',
      'business-id': '1000',
      name: 'Acme',
      'access-token': 'EAAG-upstream',
    });
    expect(connected).toMatchObject({ wabaId: '1001', marketingMessages: 'auto' });

    const enabled = await runAdminCommand(tenancy, 'set-marketing-messages', { waba: '1001', enabled: 'true' });
    expect(enabled).toMatchObject({ organizationId: org, wabaId: '1001', marketingMessages: 'enabled', updatedAt: '2025-01-15T10:00:00.000Z' });
    expect(JSON.stringify(enabled)).not.toContain('EAAG-upstream');
    expect(JSON.stringify(enabled)).not.toContain('encryptedAccessToken');
    expect(await kit.repository.getBusinessAccount(org, '1001')).toMatchObject({ marketingMessages: 'enabled' });
    // A new token keeps the operator's choice.
    await runAdminCommand(tenancy, 'connect-business-account', { org, 'waba-id': '1001', 'business-id': '1000', name: 'Acme', 'access-token': 'EAAG-new' });
    const shown = (await runAdminCommand(tenancy, 'show-organization', { org })) as { businessAccounts: Array<{ wabaId: string; marketingMessages: string }> };
    expect(shown.businessAccounts).toEqual([expect.objectContaining({ wabaId: '1001', marketingMessages: 'enabled' })]);

    expect(await adminCommands['set-marketing-messages'].run(tenancy, { waba: '1001', enabled: 'false' })).toMatchObject({ marketingMessages: 'disabled' });
    expect(await adminCommands['set-marketing-messages'].run(tenancy, { waba: '1001', enabled: 'AUTO' })).toMatchObject({ marketingMessages: 'auto' });

    await expect(runAdminCommand(tenancy, 'set-marketing-messages', { waba: '1001', enabled: 'sometimes' })).rejects.toThrow(
      '--enabled must be true, false or auto',
    );
    await expect(runAdminCommand(tenancy, 'set-marketing-messages', { waba: '1001' })).rejects.toThrow('--enabled is required');
    await expect(runAdminCommand(tenancy, 'set-marketing-messages', { enabled: 'true' })).rejects.toThrow('--waba is required');
    await expect(runAdminCommand(tenancy, 'set-marketing-messages', { waba: '1001', enabled: 'true', org })).rejects.toThrow(/--org/);
    await expect(runAdminCommand(tenancy, 'set-marketing-messages', { waba: '9999', enabled: 'true' })).rejects.toBeInstanceOf(
      BusinessAccountNotConnectedError,
    );
  });
});
