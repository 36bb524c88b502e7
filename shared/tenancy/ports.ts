import type { SecretGenerator } from '../crypto/secret-generator';
import type { TokenCipher } from '../crypto/token-cipher';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { ApiKeyRegistry } from './api-key-registry';
import type { DecryptedTokenCache } from './decrypted-token-cache';
import type { TenancyStores } from './tenancy-stores';

/** Everything the tenancy use cases may depend on; each use case declares the subset it needs. */
export interface TenancyPorts {
  /** Every tenancy store as one object; each use case's `tenancy` names the stores it uses. */
  tenancy: TenancyStores;
  clock: Clock;
  ids: IdGenerator;
  secrets: SecretGenerator;
  cipher: TokenCipher;
  apiKeyRegistry: ApiKeyRegistry;
  decryptedTokenCache: DecryptedTokenCache;
  /** The cap of live keys minted by generate-key per organization (shared/tenancy/generated-keys.ts). */
  generatedKeysPerOrganization: number;
}
