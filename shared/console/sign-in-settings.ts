/**
 * What the console needs to sign a person in (docs/CONSOLE.md "Signing in as a person"), served as
 * `assets/sign-in.json`, and the identity provider's origins its page may call (the policy's
 * `connect-src`): discovery at the issuer, the code's exchange at the token endpoint.
 */
import type { PeopleIssuer } from '../config/app-config';

/** `{}` when no issuer is configured: the console then offers the API key only. */
export type ConsoleSignInSettings = { issuer: string; clientId: string; idleMinutes: number } | Record<string, never>;

/**
 * The first configured issuer with its client (the audience its ID tokens carry) and the idle time.
 *
 * @example
 * signInSettingsOf({ issuers: [{ issuer: 'http://127.0.0.1:4010', audience: 'console' }], idleMinutes: 30 });
 * // { issuer: 'http://127.0.0.1:4010', clientId: 'console', idleMinutes: 30 }
 * signInSettingsOf({ issuers: [], idleMinutes: 30 }); // {}
 */
export function signInSettingsOf(people: { issuers: readonly PeopleIssuer[]; idleMinutes: number }): ConsoleSignInSettings {
  const first = people.issuers[0];
  return first ? { issuer: first.issuer, clientId: first.audience, idleMinutes: people.idleMinutes } : {};
}

const originOf = (address: unknown): string | undefined => {
  if (typeof address !== 'string') return undefined;
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The origins the page calls at the identity provider: the issuer's (discovery) and its token
 * endpoint's, read from the discovery document (Cognito's token endpoint is on the pool's domain,
 * not the issuer's host). When discovery fails, the issuer's origin only: the page then says the
 * provider could not be reached, as it would anyway.
 *
 * @example
 * await identityOriginsOf('https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_abc', fetch);
 * // { origins: ['https://cognito-idp.eu-west-1.amazonaws.com', 'https://my-pool.auth.eu-west-1.amazoncognito.com'], discovered: true }
 */
export async function identityOriginsOf(issuer: string, fetchImpl: typeof fetch, timeoutMs = 3_000): Promise<{ origins: string[]; discovered: boolean }> {
  const origins = new Set<string>();
  const issuerOrigin = originOf(issuer);
  if (issuerOrigin) origins.add(issuerOrigin);
  try {
    const response = await fetchImpl(`${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(timeoutMs) });
    if (response.ok) {
      const document = (await response.json()) as { token_endpoint?: unknown };
      const tokenOrigin = originOf(document.token_endpoint);
      if (tokenOrigin) origins.add(tokenOrigin);
      return { origins: [...origins], discovered: true };
    }
  } catch {
    // Unreachable now: the issuer's origin alone (see above).
  }
  return { origins: [...origins], discovered: false };
}
