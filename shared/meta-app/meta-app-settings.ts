/**
 * The platform's Meta app: its app secret (the key of every webhook signature) and the verify
 * token of the subscription handshake. One record for the whole platform, both values encrypted
 * with the token cipher (KMS on AWS) under their own encryption context, so a ciphertext copied
 * into another field or record does not decrypt. Decrypted values are kept in process for five
 * minutes (`MetaAppSecretsCache`, which also bounds how often failed checks read again).
 *
 * Pure use cases: the store, cipher, clock and cache are ports passed in.
 */
import * as v from 'valibot';
import type { TokenCipher } from '../crypto/token-cipher';
import type { Clock } from '../ports/clock';
import { InvalidMetaAppInputError } from './errors';
import type { MetaAppSecretsCache } from './meta-app-secrets-cache';
import type { MetaAppSecrets, MetaAppSettingsStore, StoredMetaApp } from './ports';

/** Encryption contexts: bound to the purpose and the field. */
const appSecretContext = { purpose: 'meta-app', field: 'app-secret' } as const;
const verifyTokenContext = { purpose: 'meta-app', field: 'verify-token' } as const;

const secretText = (flag: string) =>
  v.pipe(
    v.string(`--${flag} must be a string`),
    v.trim(),
    v.minLength(1, `--${flag} is required`),
    v.maxLength(512, `--${flag} must be at most 512 characters`),
    v.regex(/^[\x21-\x7e]+$/, `--${flag} must be printable ASCII without spaces`),
  );

const settingsInput = v.object({ appSecret: secretText('app-secret'), verifyToken: secretText('verify-token') });

export interface ConfigureMetaAppInput {
  appSecret: string;
  verifyToken: string;
}

/** What may be shown about the settings: never the secret nor the token. */
export interface MetaAppStatus {
  configured: boolean;
  updatedAt?: string;
}

/** Stores (or replaces) the Meta app settings, encrypted. The demo seed, the admin CLI and tests call it. */
export async function configureMetaApp(
  ports: { settings: MetaAppSettingsStore; cipher: TokenCipher; clock: Clock },
  input: ConfigureMetaAppInput,
): Promise<MetaAppStatus> {
  const parsed = v.safeParse(settingsInput, input, { abortPipeEarly: true });
  if (!parsed.success) throw new InvalidMetaAppInputError(parsed.issues.map((issue) => issue.message).join('; '));
  const [encryptedAppSecret, encryptedVerifyToken] = await Promise.all([
    ports.cipher.encrypt(parsed.output.appSecret, appSecretContext),
    ports.cipher.encrypt(parsed.output.verifyToken, verifyTokenContext),
  ]);
  const updatedAt = ports.clock.now().toISOString();
  await ports.settings.write({ encryptedAppSecret, encryptedVerifyToken, updatedAt });
  return { configured: true, updatedAt };
}

export async function describeMetaApp(ports: { settings: MetaAppSettingsStore }): Promise<MetaAppStatus> {
  const stored = await ports.settings.read();
  return stored ? { configured: true, updatedAt: stored.updatedAt } : { configured: false };
}

export { MetaAppSecretsCache } from './meta-app-secrets-cache';

export interface MetaAppSecretPorts {
  settings: MetaAppSettingsStore;
  cipher: TokenCipher;
  clock: Clock;
  secretsCache: MetaAppSecretsCache;
}

/**
 * The decrypted settings, or undefined when none are configured. `fresh` asks the store again
 * (after a check failed against cached values); the cache bounds how often that really reads and
 * decrypts (meta-app-secrets-cache.ts).
 *
 * @example
 * const secrets = await loadMetaAppSecrets({ settings, cipher, clock, secretsCache: new MetaAppSecretsCache() });
 */
export async function loadMetaAppSecrets(ports: MetaAppSecretPorts, options: { fresh?: boolean } = {}): Promise<MetaAppSecrets | undefined> {
  const now = ports.clock.now();
  return ports.secretsCache.load(now, options, async () => {
    const stored = await ports.settings.read();
    const readAt = ports.clock.now().getTime();
    if (!stored) return { stored: undefined, secrets: undefined, readAt };
    const last = ports.secretsCache.last();
    const unchanged =
      options.fresh === true &&
      last?.secrets !== undefined &&
      last.stored?.encryptedAppSecret === stored.encryptedAppSecret &&
      last.stored?.encryptedVerifyToken === stored.encryptedVerifyToken;
    const secrets = unchanged ? last!.secrets! : await decryptMetaApp(ports.cipher, stored);
    return { stored: { encryptedAppSecret: stored.encryptedAppSecret, encryptedVerifyToken: stored.encryptedVerifyToken }, secrets, readAt };
  });
}

async function decryptMetaApp(cipher: TokenCipher, stored: StoredMetaApp): Promise<MetaAppSecrets> {
  const [appSecret, verifyToken] = await Promise.all([
    cipher.decrypt(stored.encryptedAppSecret, appSecretContext),
    cipher.decrypt(stored.encryptedVerifyToken, verifyTokenContext),
  ]);
  return { appSecret, verifyToken };
}
