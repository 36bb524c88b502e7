/**
 * The pure parts of the console's person sign-in (docs/CONSOLE.md "Signing in as a person"):
 * OpenID Connect's authorization code flow with PKCE (RFC 7636, S256). The browser part, which
 * holds the tokens in memory and talks to the provider, is ui/oidc.ts.
 */

/** What the console reads of the issuer's discovery document. */
export interface OidcDiscovery {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  end_session_endpoint?: string;
}

/** What waits in `sessionStorage` during the redirect to the provider, and only then. */
export interface PendingSignIn {
  verifier: string;
  state: string;
  nonce: string;
  /** The hash route to open once signed in. */
  returnTo: string;
}

/**
 * Bytes as base64url without padding (RFC 7636's encoding of the verifier and the challenge).
 *
 * @example
 * base64Url(new Uint8Array([251, 255])); // '-_8'
 */
export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/**
 * The S256 code challenge of a verifier: base64url(SHA-256(ASCII(verifier))). `digest` is the
 * platform's SHA-256 (`crypto.subtle.digest('SHA-256', …)` in the browser).
 *
 * @example
 * await s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', sha256);
 * // 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM' (RFC 7636 appendix B)
 */
export async function s256Challenge(verifier: string, digest: (data: Uint8Array<ArrayBuffer>) => Promise<ArrayBuffer>): Promise<string> {
  return base64Url(new Uint8Array(await digest(new TextEncoder().encode(verifier))));
}

/**
 * The redirect URI: the console page itself, without its query or hash (registered as such at the provider).
 *
 * @example
 * redirectUriOf('http://127.0.0.1:3000/console/?code=x#/people'); // 'http://127.0.0.1:3000/console/'
 */
export const redirectUriOf = (href: string): string => {
  const url = new URL(href);
  return `${url.origin}${url.pathname}`;
};

/**
 * The authorization request's address (code flow, PKCE S256, `openid email` scopes).
 *
 * @example
 * authorizationUrlOf('https://idp/auth', { clientId: 'console', redirectUri: 'https://x/console/', state: 's', nonce: 'n', challenge: 'c' });
 * // 'https://idp/auth?response_type=code&client_id=console&redirect_uri=…&scope=openid+email&state=s&nonce=n&code_challenge=c&code_challenge_method=S256'
 */
export function authorizationUrlOf(
  endpoint: string,
  request: { clientId: string; redirectUri: string; state: string; nonce: string; challenge: string },
): string {
  const url = new URL(endpoint);
  const parameters: Record<string, string> = {
    response_type: 'code',
    client_id: request.clientId,
    redirect_uri: request.redirectUri,
    scope: 'openid email',
    state: request.state,
    nonce: request.nonce,
    code_challenge: request.challenge,
    code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(parameters)) url.searchParams.set(name, value);
  return url.toString();
}

/** The provider's answer on the redirect back: a code, an error, or nothing (not a callback). */
export type Callback = { kind: 'code'; code: string; state: string } | { kind: 'error'; error: string; description?: string; state?: string } | undefined;

const CALLBACK_PARAMETERS = ['code', 'state', 'iss', 'session_state', 'error', 'error_description', 'error_uri'];

/**
 * The authorization answer in the page's address, if any.
 *
 * @example
 * callbackOf('https://x/console/?code=abc&state=s1'); // { kind: 'code', code: 'abc', state: 's1' }
 * callbackOf('https://x/console/#/people'); // undefined
 */
export function callbackOf(href: string): Callback {
  const search = new URL(href).searchParams;
  const error = search.get('error');
  if (error) return { kind: 'error', error, description: search.get('error_description') ?? undefined, state: search.get('state') ?? undefined };
  const code = search.get('code');
  const state = search.get('state');
  return code && state ? { kind: 'code', code, state } : undefined;
}

/**
 * The address without the authorization answer (put back at once with `history.replaceState`, so
 * the code never stays in the address bar, the history or a bookmark).
 *
 * @example
 * addressWithoutCallback('https://x/console/?code=abc&state=s&iss=https%3A%2F%2Fidp#/people'); // 'https://x/console/#/people'
 */
export function addressWithoutCallback(href: string): string {
  const url = new URL(href);
  for (const name of CALLBACK_PARAMETERS) url.searchParams.delete(name);
  return url.toString();
}

/**
 * The token request's form body (a public client: the verifier proves it started the flow).
 *
 * @example
 * tokenRequestBody({ code: 'c', redirectUri: 'https://x/console/', clientId: 'console', verifier: 'v' });
 * // 'grant_type=authorization_code&code=c&redirect_uri=https%3A%2F%2Fx%2Fconsole%2F&client_id=console&code_verifier=v'
 */
export const tokenRequestBody = (request: { code: string; redirectUri: string; clientId: string; verifier: string }): string =>
  new URLSearchParams({
    grant_type: 'authorization_code',
    code: request.code,
    redirect_uri: request.redirectUri,
    client_id: request.clientId,
    code_verifier: request.verifier,
  }).toString();

/** The claims the console reads of its ID token (the API verifies the signature; the console checks the nonce). */
export interface IdTokenClaims {
  nonce?: string;
  email?: string;
  exp?: number;
}

/**
 * The payload of a JWT, undefined when it is not one.
 *
 * @example
 * idTokenClaimsOf(`e30.${base64Url(new TextEncoder().encode('{"nonce":"n"}'))}.sig`); // { nonce: 'n' }
 */
export function idTokenClaimsOf(token: string): IdTokenClaims | undefined {
  const payload = token.split('.')[1];
  if (!payload) return undefined;
  try {
    const binary = atob(payload.replace(/-/g, '+').replace(/_/g, '/'));
    const claims = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (character) => character.charCodeAt(0)))) as unknown;
    return claims && typeof claims === 'object' ? (claims as IdTokenClaims) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where sign-out sends the browser: the issuer's `end_session_endpoint` with `client_id` and
 * `post_logout_redirect_uri` (OpenID Connect RP-Initiated Logout 1.0; oidc-provider accepts
 * `client_id` without `id_token_hint`, which would put a token in a URL), or, for Cognito (its
 * discovery names no end-session endpoint), its `/logout` with `client_id` and `logout_uri`.
 * Undefined when the provider offers neither: the console then only forgets the token.
 *
 * @example
 * signOutUrlOf({ end_session_endpoint: 'https://idp/session/end', … }, 'console', 'https://x/console/');
 * // 'https://idp/session/end?client_id=console&post_logout_redirect_uri=https%3A%2F%2Fx%2Fconsole%2F'
 */
export function signOutUrlOf(discovery: OidcDiscovery, clientId: string, returnTo: string, reason?: SignOutReason): string | undefined {
  if (discovery.end_session_endpoint) {
    const url = new URL(discovery.end_session_endpoint);
    url.searchParams.set('client_id', clientId);
    url.searchParams.set('post_logout_redirect_uri', returnTo);
    if (reason) url.searchParams.set('state', reason);
    return url.toString();
  }
  const authorize = new URL(discovery.authorization_endpoint);
  if (!authorize.hostname.endsWith('.amazoncognito.com') && !authorize.pathname.endsWith('/oauth2/authorize')) return undefined;
  const logout = new URL('/logout', authorize.origin);
  logout.searchParams.set('client_id', clientId);
  logout.searchParams.set('logout_uri', returnTo);
  return logout.toString();
}

/** Why the console signed out, carried through the provider's end-session page as its `state` (RP-Initiated Logout returns it). */
export type SignOutReason = 'signed-out' | 'idle';

/**
 * The sign-out reason the provider returned with, if this load is a return from its end-session page.
 *
 * @example
 * signOutReasonOf('https://x/console/?state=idle'); // 'idle'
 * signOutReasonOf('https://x/console/?code=c&state=idle'); // undefined (a sign-in's answer)
 */
export function signOutReasonOf(href: string): SignOutReason | undefined {
  const search = new URL(href).searchParams;
  if (search.has('code') || search.has('error')) return undefined;
  const state = search.get('state');
  return state === 'idle' || state === 'signed-out' ? state : undefined;
}

/**
 * Whether a discovery document has what the flow needs, for the issuer the console was told.
 *
 * @example
 * isDiscoveryFor({ issuer: 'https://idp', authorization_endpoint: 'https://idp/a', token_endpoint: 'https://idp/t' }, 'https://idp'); // true
 */
export function isDiscoveryFor(value: unknown, issuer: string): value is OidcDiscovery {
  const document = value as Partial<OidcDiscovery> | null;
  return (
    !!document &&
    typeof document.authorization_endpoint === 'string' &&
    typeof document.token_endpoint === 'string' &&
    typeof document.issuer === 'string' &&
    document.issuer.replace(/\/+$/, '') === issuer.replace(/\/+$/, '')
  );
}
