/**
 * The local identity provider's secrets: the key that signs its tokens (published as its JWKS) and
 * the keys that sign its cookies. Made at start; with a file (a persisting runtime, `npm start`)
 * kept there owner-only and reused, so ID tokens issued before a restart still verify and signed-in
 * browsers keep their session cookie.
 */
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

export interface ProviderKeys {
  /** Private JWK set: one P-256 key (ES256; made in a millisecond where an RSA key takes up to a second on a busy machine, at every test runtime's start). */
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
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = privateKey.export({ format: 'jwk' }) as Record<string, unknown>;
  return {
    jwks: { keys: [{ ...jwk, kid: randomBytes(8).toString('hex'), use: 'sig', alg: 'ES256' }] },
    cookieKeys: [randomBytes(32).toString('base64url')],
  };
}
