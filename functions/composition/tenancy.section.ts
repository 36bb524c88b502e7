/**
 * Tenancy use cases over the tenancy table. The token cipher and the API-key registry come from
 * their own sections (KMS, API Gateway), so a function not granted them bundles neither client.
 */
import { DynamoDbTenancyRepository } from '../../shared/adapters/dynamodb/dynamodb-tenancy-repository';
import { requireSetting } from '../../shared/config/app-config';
import { randomSecretGenerator } from '../../shared/crypto/secret-generator';
import type { TokenCipher } from '../../shared/crypto/token-cipher';
import { unconfiguredTokenCipher } from '../../shared/crypto/unconfigured-token-cipher';
import type { ApiKeyRegistry } from '../../shared/tenancy/api-key-registry';
import { DecryptedTokenCache } from '../../shared/tenancy/decrypted-token-cache';
import { noOpApiKeyRegistry } from '../../shared/tenancy/no-op-api-key-registry';
import type { TenancyPorts } from '../../shared/tenancy/ports';
import { bindTenancyServices, type TenancyServices } from '../../shared/tenancy/tenancy-services';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';

export interface TenancyChoices {
  /** tokenCipherSection(context) for functions granted the token key. */
  cipher?: () => TokenCipher;
  /** apiKeyRegistrySection(context) for functions that manage API keys. */
  apiKeyRegistry?: () => ApiKeyRegistry;
}

export function tenancySection(context: CompositionContext, dynamoDb: DynamoDbClients, choices: TenancyChoices = {}): () => TenancyServices {
  return memoize(() => {
    const repository = memoize(
      () => new DynamoDbTenancyRepository(dynamoDb.document, requireSetting(context.config.tableNames.tenancy, 'TENANCY_TABLE')),
    );
    const cipher = choices.cipher ?? (() => context.overrides.tokenCipher ?? unconfiguredTokenCipher);
    const apiKeyRegistry = choices.apiKeyRegistry ?? (() => context.overrides.apiKeyRegistry ?? noOpApiKeyRegistry);
    // Getters: a port is built the first time a use case reaches for it.
    const ports: TenancyPorts = {
      get tenancy() {
        return repository();
      },
      get cipher() {
        return cipher();
      },
      get apiKeyRegistry() {
        return apiKeyRegistry();
      },
      clock: context.clock,
      ids: context.ids,
      secrets: context.overrides.secrets ?? randomSecretGenerator,
      decryptedTokenCache: new DecryptedTokenCache(),
    };
    return bindTenancyServices(ports);
  });
}
