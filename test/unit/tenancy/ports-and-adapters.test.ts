import { ApiGatewayKeyRegistry } from '../../../shared/adapters/api-gateway/api-gateway-key-registry';
import { isConditionalCheckFailure, isStoreUnavailableError } from '../../../shared/adapters/dynamodb/dynamodb-errors';
import { randomIdGenerator, sequentialIdGenerator, timeOrderedId } from '../../../shared/ports/id-generator';
import { DecryptedTokenCache } from '../../../shared/tenancy/decrypted-token-cache';
import { noOpApiKeyRegistry } from '../../../shared/tenancy/no-op-api-key-registry';

const named = (name: string, extra: object = {}) => Object.assign(new Error(name), { name }, extra);

describe('DynamoDB failure classification', () => {
  test.each([
    named('TimeoutError'),
    named('ProvisionedThroughputExceededException'),
    named('ThrottlingException'),
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    Object.assign(new Error('aggregate'), { errors: [Object.assign(new Error('x'), { code: 'ECONNREFUSED' })] }),
    new Error('AWS SDK error wrapper for Error: connect ECONNRESET 10.0.0.1:443'),
    named('UnknownError', { $metadata: { httpStatusCode: 503 } }),
  ])('unavailable: %s', (error) => {
    expect(isStoreUnavailableError(error)).toBe(true);
  });

  test.each([
    named('ValidationException', { $metadata: { httpStatusCode: 400 } }),
    named('ResourceNotFoundException'),
    named('AccessDeniedException'),
    'text',
    null,
  ])('not unavailable: %s', (error) => {
    expect(isStoreUnavailableError(error)).toBe(false);
  });

  test('conditional check failures', () => {
    expect(isConditionalCheckFailure(named('ConditionalCheckFailedException'))).toBe(true);
    expect(isConditionalCheckFailure(named('TimeoutError'))).toBe(false);
  });
});

describe('decrypted token cache', () => {
  const now = new Date('2025-01-01T00:00:00Z');

  test('entries expire and are keyed by ciphertext', () => {
    const cache = new DecryptedTokenCache(1_000);
    cache.set('org_1', 'w', 'c1', 'token', now);
    expect(cache.get('org_1', 'w', 'c1', now)).toBe('token');
    expect(cache.get('org_1', 'w', 'c2', now)).toBeUndefined();
    expect(cache.get('org_2', 'w', 'c1', now)).toBeUndefined();
    expect(cache.get('org_1', 'w', 'c1', new Date(now.getTime() + 1_000))).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  test('the oldest entry goes when full', () => {
    const cache = new DecryptedTokenCache(60_000, 2);
    cache.set('o', 'w1', 'c', 'a', now);
    cache.set('o', 'w2', 'c', 'b', now);
    cache.set('o', 'w3', 'c', 'c', now);
    expect(cache.get('o', 'w1', 'c', now)).toBeUndefined();
    expect(cache.get('o', 'w3', 'c', now)).toBe('c');
  });
});

describe('ids', () => {
  test('prefixed, 26 characters, ordered by time', () => {
    expect(randomIdGenerator.newId('org')).toMatch(/^org_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(timeOrderedId(1_000) < timeOrderedId(2_000)).toBe(true);
    const ids = sequentialIdGenerator();
    expect([ids.newId('cred'), ids.newId('org')]).toEqual(['cred_0001', 'org_0002']);
  });
});

test('the no-op registry registers nothing', async () => {
  await expect(noOpApiKeyRegistry.registerBroadcastKey({ credentialId: 'c', organizationId: 'o', plaintextKey: 'k', origin: 'operator' })).resolves.toEqual({});
});

describe('API Gateway key registry', () => {
  function stubClient(failUsagePlanKey = false) {
    const sent: Array<{ name: string; input: Record<string, unknown> }> = [];
    const client = {
      send: jest.fn(async (command: { constructor: { name: string }; input: Record<string, unknown> }) => {
        sent.push({ name: command.constructor.name, input: command.input });
        if (command.constructor.name === 'CreateApiKeyCommand') return { id: 'gwkey-1' };
        if (command.constructor.name === 'CreateUsagePlanKeyCommand' && failUsagePlanKey) throw named('TooManyRequestsException');
        return {};
      }),
    };
    return { client: client as never, sent };
  }

  test('creates an enabled key with the plaintext value and adds it to the usage plan', async () => {
    const { client, sent } = stubClient();
    const registry = new ApiGatewayKeyRegistry(client, 'plan-123');
    await expect(
      registry.registerBroadcastKey({ credentialId: 'cred_1', organizationId: 'org_1', plaintextKey: 'wbk_x', origin: 'operator' }),
    ).resolves.toEqual({
      gatewayApiKeyId: 'gwkey-1',
    });
    expect(sent.map((call) => call.name)).toEqual(['CreateApiKeyCommand', 'CreateUsagePlanKeyCommand']);
    expect(sent[0]!.input).toMatchObject({ name: 'cred_1', value: 'wbk_x', enabled: true });
    expect(sent[0]!.input).toMatchObject({ tags: { organizationId: 'org_1', credentialId: 'cred_1', origin: 'operator' } });
    expect(sent[1]!.input).toEqual({ usagePlanId: 'plan-123', keyId: 'gwkey-1', keyType: 'API_KEY' });
  });

  test('a key minted by generate-key is tagged and described as such; revocation deletes the gateway key', async () => {
    const { client, sent } = stubClient();
    const registry = new ApiGatewayKeyRegistry(client, 'plan-123');
    await registry.registerBroadcastKey({ credentialId: 'cred_2', organizationId: 'org_1', plaintextKey: 'wbk_y', origin: 'generate-key' });
    expect(sent[0]!.input).toMatchObject({ description: 'Broadcast API key of org_1 (minted by generate-key)', tags: { origin: 'generate-key' } });
    await registry.removeBroadcastKey('gwkey-1');
    expect(sent.at(-1)).toEqual({ name: 'DeleteApiKeyCommand', input: { apiKey: 'gwkey-1' } });
  });

  test('a key that cannot join the usage plan is deleted again', async () => {
    const { client, sent } = stubClient(true);
    const registry = new ApiGatewayKeyRegistry(client, 'plan-123');
    await expect(
      registry.registerBroadcastKey({ credentialId: 'cred_1', organizationId: 'org_1', plaintextKey: 'wbk_x', origin: 'operator' }),
    ).rejects.toThrow();
    expect(sent.map((call) => call.name)).toEqual(['CreateApiKeyCommand', 'CreateUsagePlanKeyCommand', 'DeleteApiKeyCommand']);
  });
});
