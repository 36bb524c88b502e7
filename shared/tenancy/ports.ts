import type { SecretGenerator } from '../crypto/secret-generator';
import type { TokenCipher } from '../crypto/token-cipher';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { ApiKeyRegistry } from './api-key-registry';
import type { DecryptedTokenCache } from './decrypted-token-cache';
import type { TenancyRepository } from './tenancy-repository';

/** Everything the tenancy use cases may depend on; each use case declares the subset it needs. */
export interface TenancyPorts {
  tenancy: TenancyRepository;
  clock: Clock;
  ids: IdGenerator;
  secrets: SecretGenerator;
  cipher: TokenCipher;
  apiKeyRegistry: ApiKeyRegistry;
  decryptedTokenCache: DecryptedTokenCache;
}
