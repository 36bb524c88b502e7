/**
 * Tenancy use cases over the tenancy table. The token cipher and the API-key registry come from
 * their own sections (KMS, API Gateway), so a function not granted them bundles neither client.
 */
import { dynamoDbTenancyStores } from '../../shared/adapters/dynamodb/dynamodb-tenancy-stores';
import { requireSetting } from '../../shared/config/app-config';
import { randomSecretGenerator } from '../../shared/crypto/secret-generator';
import type { TokenCipher } from '../../shared/crypto/token-cipher';
import { unconfiguredTokenCipher } from '../../shared/crypto/unconfigured-token-cipher';
import type { ApiKeyRegistry } from '../../shared/tenancy/api-key-registry';
import { DecryptedTokenCache } from '../../shared/tenancy/decrypted-token-cache';
import { TenancyReadCache, withTenancyReadCache } from '../../shared/tenancy/tenancy-read-cache';
import { noOpApiKeyRegistry } from '../../shared/tenancy/no-op-api-key-registry';
import { authenticateCredential } from '../../shared/tenancy/credential-use-cases';
import type { TenancyPorts } from '../../shared/tenancy/ports';
import { bindTenancyServices, type TenancyServices } from '../../shared/tenancy/tenancy-services';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';

export interface TenancyChoices {
  /** tokenCipherSection(context) for functions granted the token key. */
  cipher?: () => TokenCipher;
  /** apiKeyRegistrySection(context) for functions that manage API keys. */
  apiKeyRegistry?: () => ApiKeyRegistry;
  /**
   * Answer credential, organization, business-account and phone-number reads from the process's
   * short-lived cache (the /upstream wrapper). Every composition invalidates it on its writes.
   */
  cachedReads?: boolean;
}

/** Authentication and reads: all that a function which administers no tenancy data calls. */
export type TenancyReader = Pick<TenancyServices, 'authenticate' | 'repository'>;

export function tenancySection(context: CompositionContext, dynamoDb: DynamoDbClients, choices: TenancyChoices = {}): () => TenancyServices {
  const ports = tenancyPorts(context, dynamoDb, choices);
  return memoize(() => bindTenancyServices(ports()));
}

/**
 * The same authentication and repository as `tenancySection`, without binding every tenancy use
 * case: a function that only authenticates and reads does not bundle the administration code.
 */
export function tenancyReaderSection(context: CompositionContext, dynamoDb: DynamoDbClients): () => TenancyReader {
  const ports = tenancyPorts(context, dynamoDb, {});
  return memoize(() => ({
    authenticate: (kind, secret) => authenticateCredential(ports(), kind, secret),
    get repository() {
      return ports().tenancy;
    },
  }));
}

function tenancyPorts(context: CompositionContext, dynamoDb: DynamoDbClients, choices: TenancyChoices): () => TenancyPorts {
  return memoize(() => {
    const stores = memoize(() => {
      const tableName = requireSetting(context.config.tableNames.tenancy, 'TENANCY_TABLE');
      const { credentialTtlMs, recordTtlMs, maxEntries } = context.config.tenancyCache;
      const cache = context.processShared(`tenancy-read-cache#${tableName}`, () => new TenancyReadCache({ credentialTtlMs, recordTtlMs, maxEntries }));
      return withTenancyReadCache(dynamoDbTenancyStores(dynamoDb.document, tableName), cache, context.clock, choices.cachedReads === true);
    });
    const cipher = choices.cipher ?? (() => context.overrides.tokenCipher ?? unconfiguredTokenCipher);
    const apiKeyRegistry = choices.apiKeyRegistry ?? (() => context.overrides.apiKeyRegistry ?? noOpApiKeyRegistry);
    // Getters: a port is built the first time a use case reaches for it.
    const ports: TenancyPorts = {
      get tenancy() {
        return stores();
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
      decryptedTokenCache: new DecryptedTokenCache(context.config.tenancyCache.decryptedTokenTtlMs),
      generatedKeysPerOrganization: context.config.generatedKeysPerOrganization,
    };
    return ports;
  });
}
