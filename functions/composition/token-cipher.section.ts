/**
 * Secret encryption: KMS on AWS, a local AES key in the local runtime, reading ciphertexts stored
 * before contexts named their purpose too. Only for functions granted the token key.
 */
import { LocalAesTokenCipher } from '../../shared/adapters/crypto/local-aes-token-cipher';
import { KmsTokenCipher } from '../../shared/adapters/kms/kms-token-cipher';
import { withLegacyContextFallback } from '../../shared/crypto/legacy-context-fallback';
import type { TokenCipher } from '../../shared/crypto/token-cipher';
import { unconfiguredTokenCipher } from '../../shared/crypto/unconfigured-token-cipher';
import { memoize, type CompositionContext } from './composition-context';
import { kmsClient } from './kms-client';

export function tokenCipherSection(context: CompositionContext): () => TokenCipher {
  const kms = kmsClient(context);
  return memoize(() => {
    if (context.overrides.tokenCipher) return context.overrides.tokenCipher;
    const encryption = context.config.tokenEncryption;
    switch (encryption.kind) {
      case 'kms':
        return withLegacyContextFallback(new KmsTokenCipher(kms(), encryption.keyId));
      case 'local':
        return withLegacyContextFallback(new LocalAesTokenCipher(encryption.keyBase64));
      case 'unconfigured':
        return unconfiguredTokenCipher;
    }
  });
}
