/**
 * The local identity provider's secrets: the key that signs its tokens (published as its JWKS) and
 * the keys that sign its cookies. Made at start; with a file (a persisting runtime, `npm start`)
 * kept there owner-only and reused, so ID tokens issued before a restart still verify and signed-in
 * browsers keep their session cookie.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface ProviderKeys {
  /** Private JWK set (RS256, the ID-token algorithm every relying party supports, Cognito's too). */
  jwks: { keys: Array<Record<string, unknown>> };
  /** HMAC keys of the provider's signed cookies, newest first. */
  cookieKeys: string[];
}

/**
 * Keys read from `file` when it holds them, else made (and written there when a file is given).
 *
 * @example
 * const keys = providerKeys('.local/identity-keys.json'); // the same keys on the next start
 */
export function providerKeys(file?: string): ProviderKeys {
  if (file && existsSync(file)) {
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Partial<ProviderKeys>;
    if (saved.jwks?.keys?.length && saved.cookieKeys?.length) return saved as ProviderKeys;
  }
  const keys = generateProviderKeys();
  if (file) writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  return keys;
}

function generateProviderKeys(): ProviderKeys {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
  return {
    jwks: { keys: [{ ...jwk, kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' }] },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}
