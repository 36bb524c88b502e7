/**
 * A tiny OpenID Connect issuer for tests: its discovery document and JWKS over HTTP on a free port,
 * and ID tokens minted with jose (docs/PEOPLE.md "Tokens"). Nothing else of an identity provider.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type KeyObject } from 'jose';

type SigningKey = CryptoKey | KeyObject;

export interface TestIssuer {
  issuer: string;
  audience: string;
  /** An ID token for the email: valid for an hour unless `expiresIn` (seconds; negative: already expired) says otherwise. */
  token(email: string, options?: { expiresIn?: number; issuer?: string; audience?: string; signWith?: SigningKey }): Promise<string>;
  /** A key this issuer never published (a forged token's). */
  foreignKey: SigningKey;
  close(): Promise<void>;
}

export async function startTestIssuer(audience = 'console'): Promise<TestIssuer> {
  const { privateKey, publicKey } = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let issuer = '';
  const server = http.createServer((request, response) => {
    const body =
      request.url === '/.well-known/openid-configuration'
        ? { issuer, jwks_uri: `${issuer}/jwks`, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token` }
        : request.url === '/jwks'
          ? { keys: [jwk] }
          : undefined;
    response.writeHead(body ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    audience,
    foreignKey: foreign.privateKey,
    token: async (email, options = {}) =>
      new SignJWT({ email, email_verified: true })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? audience)
        .setSubject(`sub-${email}`)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + (options.expiresIn ?? 3600))
        .sign(options.signWith ?? privateKey),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
