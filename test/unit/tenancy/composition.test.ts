import { buildServices, getServices, resetServicesForTests } from '../../../functions/composition';
import { ConfigurationError, parseAppConfig } from '../../../shared/config/app-config';
import { InvalidCredentialError } from '../../../shared/tenancy/errors';
import { TokenEncryptionNotConfiguredError } from '../../../shared/crypto/errors';

describe('composition', () => {
  test('nothing is built until used: services without any table still answer malformed credentials', async () => {
    const services = buildServices(parseAppConfig({}));
    // Rejected by shape, before the repository (and its DynamoDB client) would be built.
    await expect(services.tenancy.authenticate('broadcast-api-key', 'nope')).rejects.toBeInstanceOf(InvalidCredentialError);
    // A well-formed secret needs the store, which is only now found to be unconfigured.
    await expect(services.tenancy.authenticate('broadcast-api-key', `wbk_${'a'.repeat(43)}`)).rejects.toBeInstanceOf(ConfigurationError);
    services.destroy();
  });

  test('the cipher follows tokenEncryption', async () => {
    const unconfigured = buildServices(parseAppConfig({}), {});
    const account = {
      organizationId: 'org_1',
      wabaId: '1',
      encryptedAccessToken: 'x',
      status: 'active' as const,
      businessId: 'b',
      name: 'n',
      connectedAt: '',
      updatedAt: '',
    };
    await expect(unconfigured.tenancy.decryptBusinessAccountToken(account)).rejects.toBeInstanceOf(TokenEncryptionNotConfiguredError);
  });

  test('getServices memoizes until reset', () => {
    resetServicesForTests();
    const first = getServices();
    expect(getServices()).toBe(first);
    resetServicesForTests();
    expect(getServices()).not.toBe(first);
    resetServicesForTests();
  });

  test('clients are built once and only when asked for', () => {
    const services = buildServices(parseAppConfig({ DYNAMODB_ENDPOINT: 'http://127.0.0.1:1', AWS_REGION: 'eu-west-1' }));
    const client = services.clients.dynamoDb;
    expect(services.clients.dynamoDb).toBe(client);
    services.destroy();
  });
});
