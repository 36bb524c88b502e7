/**
 * The platform's Meta app: its app secret (the key of every webhook signature) and the verify
 * token of the subscription handshake. One record for the whole platform, both values encrypted
 * with the token cipher (KMS on AWS) under their own encryption context, so a ciphertext copied
 * into another field or record does not decrypt. Decrypted values are kept in process for five
 * minutes (the cache is keyed by ciphertext: a new secret is used on the next request).
 *
 * Pure use cases: the store, cipher, clock and cache are ports passed in.
 */
import * as v from 'valibot';
import type { TokenCipher } from '../crypto/token-cipher';
import type { Clock } from '../ports/clock';
import type { DecryptedTokenCache } from '../tenancy/decrypted-token-cache';
import { InvalidMetaAppInputError } from './errors';
import type { MetaAppSecrets, MetaAppSettingsStore } from './ports';

/** Encryption contexts: bound to the purpose and the field. */
const appSecretContext = { purpose: 'meta-app', field: 'app-secret' } as const;
const verifyTokenContext = { purpose: 'meta-app', field: 'verify-token' } as const;

/** The token cache's owner and sub-key for the two values (it is keyed by owner, sub-key and ciphertext). */
const CACHE_OWNER = 'PLATFORM';

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

export interface MetaAppSecretPorts {
  settings: MetaAppSettingsStore;
  cipher: TokenCipher;
  clock: Clock;
  decryptedTokenCache: DecryptedTokenCache;
}

/** The decrypted settings, or undefined when none are configured. */
export async function loadMetaAppSecrets(ports: MetaAppSecretPorts): Promise<MetaAppSecrets | undefined> {
  const stored = await ports.settings.read();
  if (!stored) return undefined;
  const [appSecret, verifyToken] = await Promise.all([
    decryptCached(ports, 'META_APP#app-secret', stored.encryptedAppSecret, appSecretContext),
    decryptCached(ports, 'META_APP#verify-token', stored.encryptedVerifyToken, verifyTokenContext),
  ]);
  return { appSecret, verifyToken };
}

async function decryptCached(
  ports: MetaAppSecretPorts,
  field: string,
  ciphertext: string,
  context: Readonly<Record<string, string>>,
): Promise<string> {
  const cached = ports.decryptedTokenCache.get(CACHE_OWNER, field, ciphertext, ports.clock.now());
  if (cached !== undefined) return cached;
  const plaintext = await ports.cipher.decrypt(ciphertext, context);
  ports.decryptedTokenCache.set(CACHE_OWNER, field, ciphertext, plaintext, ports.clock.now());
  return plaintext;
}
