/**
 * The platform's Meta app: its app secret (the key of every webhook signature) and the verify
 * token of the subscription handshake. One record for the whole platform, both values encrypted
 * with the token cipher (KMS on AWS) under their own encryption context, so a ciphertext copied
 * into another field or record does not decrypt. Decrypted values are kept in process for five
 * minutes (`MetaAppSecretsCache`).
 *
 * Pure use cases: the store, cipher, clock and cache are ports passed in.
 */
import * as v from 'valibot';
import type { TokenCipher } from '../crypto/token-cipher';
import type { Clock } from '../ports/clock';
import { InvalidMetaAppInputError } from './errors';
import type { MetaAppSecrets, MetaAppSettingsStore } from './ports';

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

/**
 * The decrypted settings of this process, kept five minutes so a warm function neither reads the
 * table nor calls KMS per webhook. A signature or token that fails against them is checked again
 * against a fresh read (`load({ fresh: true })`), so a replaced secret applies on the next request.
 */
export class MetaAppSecretsCache {
  private entry: { secrets: MetaAppSecrets; expiresAt: number } | undefined;

  constructor(private readonly timeToLiveMs = 5 * 60_000) {}

  get(now: Date): MetaAppSecrets | undefined {
    if (this.entry && this.entry.expiresAt > now.getTime()) return this.entry.secrets;
    this.entry = undefined;
    return undefined;
  }

  set(secrets: MetaAppSecrets, now: Date): void {
    this.entry = { secrets, expiresAt: now.getTime() + this.timeToLiveMs };
  }

  clear(): void {
    this.entry = undefined;
  }
}

export interface MetaAppSecretPorts {
  settings: MetaAppSettingsStore;
  cipher: TokenCipher;
  clock: Clock;
  secretsCache: MetaAppSecretsCache;
}

/**
 * The decrypted settings, or undefined when none are configured (never cached: the first webhook
 * after `set-meta-app` is accepted). `fresh` skips the cache.
 */
export async function loadMetaAppSecrets(ports: MetaAppSecretPorts, options: { fresh?: boolean } = {}): Promise<MetaAppSecrets | undefined> {
  if (!options.fresh) {
    const cached = ports.secretsCache.get(ports.clock.now());
    if (cached) return cached;
  }
  const stored = await ports.settings.read();
  if (!stored) {
    ports.secretsCache.clear();
    return undefined;
  }
  const [appSecret, verifyToken] = await Promise.all([
    ports.cipher.decrypt(stored.encryptedAppSecret, appSecretContext),
    ports.cipher.decrypt(stored.encryptedVerifyToken, verifyTokenContext),
  ]);
  const secrets = { appSecret, verifyToken };
  ports.secretsCache.set(secrets, ports.clock.now());
  return secrets;
}
