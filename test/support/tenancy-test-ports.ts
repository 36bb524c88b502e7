/**
 * Tenancy ports wired for unit tests: in-memory repository, fixed clock, predictable ids,
 * a local AES cipher with a throwaway key and a recording API key registry.
 */
import { LocalAesTokenCipher, generateLocalTokenKey } from '../../shared/adapters/crypto/local-aes-token-cipher';
import { randomSecretGenerator } from '../../shared/crypto/secret-generator';
import type { EncryptionContext, TokenCipher } from '../../shared/crypto/token-cipher';
import { fixedClock } from '../../shared/ports/clock';
import { sequentialIdGenerator } from '../../shared/ports/id-generator';
import type { ApiKeyRegistry, BroadcastKeyRegistration } from '../../shared/tenancy/api-key-registry';
import { DecryptedTokenCache } from '../../shared/tenancy/decrypted-token-cache';
import type { TenancyPorts } from '../../shared/tenancy/ports';
import { bindTenancyServices, type TenancyServices } from '../../shared/tenancy/tenancy-services';
import { InMemoryTenancyRepository } from './in-memory-tenancy-repository';

export class RecordingApiKeyRegistry implements ApiKeyRegistry {
  readonly registered: Array<BroadcastKeyRegistration & { gatewayApiKeyId: string }> = [];
  readonly removed: string[] = [];
  failNextRegistration = false;

  async registerBroadcastKey(key: BroadcastKeyRegistration): Promise<{ gatewayApiKeyId?: string }> {
    if (this.failNextRegistration) {
      this.failNextRegistration = false;
      throw new Error('TooManyRequestsException');
    }
    const gatewayApiKeyId = `gw-${this.registered.length + 1}`;
    this.registered.push({ ...key, gatewayApiKeyId });
    return { gatewayApiKeyId };
  }

  async removeBroadcastKey(gatewayApiKeyId: string): Promise<void> {
    this.removed.push(gatewayApiKeyId);
  }
}

/** Counts decryptions, to observe the token cache. */
export class CountingCipher implements TokenCipher {
  decryptions = 0;
  constructor(private readonly inner: TokenCipher) {}
  encrypt(plaintext: string, context: EncryptionContext): Promise<string> {
    return this.inner.encrypt(plaintext, context);
  }
  decrypt(ciphertext: string, context: EncryptionContext): Promise<string> {
    this.decryptions += 1;
    return this.inner.decrypt(ciphertext, context);
  }
}

export interface TenancyTestKit {
  ports: TenancyPorts;
  repository: InMemoryTenancyRepository;
  clock: ReturnType<typeof fixedClock>;
  registry: RecordingApiKeyRegistry;
  cipher: CountingCipher;
  services: TenancyServices;
}

export function createTenancyTestKit(start = '2025-01-15T10:00:00.000Z', generatedKeysPerOrganization = 50): TenancyTestKit {
  const repository = new InMemoryTenancyRepository();
  const clock = fixedClock(start);
  const registry = new RecordingApiKeyRegistry();
  const cipher = new CountingCipher(new LocalAesTokenCipher(generateLocalTokenKey()));
  const ports: TenancyPorts = {
    tenancy: repository,
    clock,
    ids: sequentialIdGenerator(),
    secrets: randomSecretGenerator,
    cipher,
    apiKeyRegistry: registry,
    decryptedTokenCache: new DecryptedTokenCache(),
    generatedKeysPerOrganization,
  };
  return { ports, repository, clock, registry, cipher, services: bindTenancyServices(ports) };
}
