/**
 * PersonTokenVerifier over panva's `jose` (docs/PEOPLE.md "Tokens"): each configured issuer's
 * discovery document names its JWKS, whose keys jose fetches and caches (refetched on an unknown
 * `kid`, with jose's cool-down). A token is accepted when its signature is one of its issuer's keys,
 * it has not expired (30 s of clock skew), and its `aud` (an ID token) or `client_id` (Cognito's
 * access token) is the issuer's configured audience. The email comes from the `email` claim, which
 * must not be marked unverified; an access token without one is resolved at the issuer's userinfo
 * endpoint when the issuer says `userInfo: true` (cached by the token's hash until it expires).
 */
import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { PeopleIssuer } from '../../config/app-config';
import { normalizeEmail } from '../../tenancy/tenancy-entities';
import { IdentityProviderUnavailableError, InvalidPersonTokenError } from '../../people/errors';
import type { PersonTokenVerifier, VerifiedIdentity } from '../../people/ports';

type Fetch = typeof fetch;

/** Replaced by esbuild's `define` in bundles: jose's file beside the bundle (lib/constructs/side-packages.ts); undefined unbundled. */
declare const __JOSE_MODULE__: string | false | undefined;

type Jose = typeof import('./jose-module');
let loaded: Jose | undefined;

/**
 * jose, required on the first token this process verifies (an API-key request never loads it, nor
 * does a cold start: the request authorizer imports this module at init). Bundled, from its own
 * file beside the bundle.
 */
function jose(): Jose {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= (typeof __JOSE_MODULE__ === 'string' ? require(__JOSE_MODULE__) : require('jose')) as Jose;
  return loaded;
}

interface IssuerKeys {
  jwks: ReturnType<Jose['createRemoteJWKSet']>;
  userInfoEndpoint?: string;
}

const clockToleranceSeconds = 30;
const maxCachedUserInfo = 1_000;

export interface JoseTokenVerifierOptions {
  issuers: readonly PeopleIssuer[];
  /** The HTTP client for discovery and userinfo (tests pass their own); jose fetches the JWKS itself. */
  fetch?: Fetch;
  now?: () => Date;
}

/**
 * Builds the verifier for the configured issuers.
 *
 * @example
 * const verifier = createJoseTokenVerifier({ issuers: [{ issuer: 'http://127.0.0.1:4010', audience: 'console' }] });
 * const identity = await verifier.verify(idToken); // { issuer, subject, email, expiresAt }
 */
export function createJoseTokenVerifier(options: JoseTokenVerifierOptions): PersonTokenVerifier {
  const fetchImpl = options.fetch ?? fetch;
  const now = options.now ?? (() => new Date());
  const keys = new Map<string, Promise<IssuerKeys>>();
  const userInfoCache = new Map<string, { email: string; expiresAt: number }>();

  const keysOf = (issuer: string): Promise<IssuerKeys> => {
    let found = keys.get(issuer);
    if (!found) {
      found = discover(fetchImpl, issuer);
      keys.set(issuer, found);
      // A failed discovery is not cached: the next request tries again.
      found.catch(() => keys.delete(issuer));
    }
    return found;
  };

  return {
    async verify(token) {
      const configured = issuerOf(options.issuers, token);
      const issuerKeys = await keysOf(configured.issuer);
      const payload = await verifySignature(token, issuerKeys, configured, now());
      const expiresAt = new Date((payload.exp ?? 0) * 1000);
      const email = await emailOf(payload, token, configured, issuerKeys, { fetchImpl, cache: userInfoCache, expiresAt });
      return { issuer: configured.issuer, subject: String(payload.sub ?? ''), email, expiresAt } satisfies VerifiedIdentity;
    },
  };
}

function issuerOf(issuers: readonly PeopleIssuer[], token: string): PeopleIssuer {
  let claims: JWTPayload;
  try {
    claims = jose().decodeJwt(token);
  } catch {
    throw new InvalidPersonTokenError();
  }
  const configured = issuers.find((candidate) => trimSlash(candidate.issuer) === trimSlash(String(claims.iss ?? '')));
  if (!configured) throw new InvalidPersonTokenError();
  return configured;
}

async function verifySignature(token: string, keys: IssuerKeys, configured: PeopleIssuer, now: Date): Promise<JWTPayload> {
  try {
    const { payload } = await jose().jwtVerify(token, keys.jwks, { issuer: configured.issuer, clockTolerance: clockToleranceSeconds, currentDate: now });
    const audiences = Array.isArray(payload.aud) ? payload.aud : payload.aud === undefined ? [] : [payload.aud];
    if (!audiences.includes(configured.audience) && payload.client_id !== configured.audience) throw new InvalidPersonTokenError();
    if (!payload.sub || payload.exp === undefined) throw new InvalidPersonTokenError();
    return payload;
  } catch (error) {
    if (error instanceof InvalidPersonTokenError) throw error;
    if (
      error instanceof jose().errors.JWKSTimeout ||
      (error instanceof Error && /fetch|ECONN|network/i.test(error.message) && !(error instanceof jose().errors.JOSEError))
    ) {
      throw new IdentityProviderUnavailableError('its signing keys could not be read');
    }
    throw new InvalidPersonTokenError();
  }
}

async function emailOf(
  payload: JWTPayload,
  token: string,
  configured: PeopleIssuer,
  keys: IssuerKeys,
  context: { fetchImpl: Fetch; cache: Map<string, { email: string; expiresAt: number }>; expiresAt: Date },
): Promise<string> {
  if (typeof payload.email === 'string' && payload.email !== '') {
    // An address the issuer has not verified could be anybody's: never map it to an invited person.
    if (payload.email_verified === false || payload.email_verified === 'false') throw new InvalidPersonTokenError('The sign-in has no verified email address');
    return normalizeEmail(payload.email);
  }
  if (!configured.userInfo || !keys.userInfoEndpoint)
    throw new InvalidPersonTokenError('The token carries no email: sign in again (the console sends the ID token)');
  const key = createHash('sha256').update(token).digest('hex');
  const cached = context.cache.get(key);
  if (cached && cached.expiresAt > Date.now()) return cached.email;
  const email = await readUserInfoEmail(context.fetchImpl, keys.userInfoEndpoint, token);
  if (context.cache.size >= maxCachedUserInfo) context.cache.delete(context.cache.keys().next().value as string);
  context.cache.set(key, { email, expiresAt: context.expiresAt.getTime() });
  return email;
}

async function readUserInfoEmail(fetchImpl: Fetch, endpoint: string, token: string): Promise<string> {
  let response: Response;
  try {
    response = await fetchImpl(endpoint, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(5_000) });
  } catch {
    throw new IdentityProviderUnavailableError('its userinfo endpoint did not answer');
  }
  if (response.status === 401 || response.status === 403) throw new InvalidPersonTokenError();
  if (!response.ok) throw new IdentityProviderUnavailableError(`its userinfo endpoint answered ${response.status}`);
  const body = (await response.json().catch(() => ({}))) as { email?: unknown; email_verified?: unknown };
  if (typeof body.email !== 'string' || body.email === '' || body.email_verified === false || body.email_verified === 'false') {
    throw new InvalidPersonTokenError('The sign-in has no verified email address');
  }
  return normalizeEmail(body.email);
}

async function discover(fetchImpl: Fetch, issuer: string): Promise<IssuerKeys> {
  let document: { jwks_uri?: unknown; userinfo_endpoint?: unknown };
  try {
    const response = await fetchImpl(`${trimSlash(issuer)}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(5_000) });
    if (!response.ok) throw new Error(`status ${response.status}`);
    document = (await response.json()) as typeof document;
  } catch (error) {
    throw new IdentityProviderUnavailableError(`its discovery document could not be read (${(error as Error).message})`);
  }
  if (typeof document.jwks_uri !== 'string') throw new IdentityProviderUnavailableError('its discovery document names no jwks_uri');
  return {
    jwks: jose().createRemoteJWKSet(new URL(document.jwks_uri), { timeoutDuration: 5_000 }),
    userInfoEndpoint: typeof document.userinfo_endpoint === 'string' ? document.userinfo_endpoint : undefined,
  };
}

const trimSlash = (value: string): string => value.replace(/\/+$/, '');
