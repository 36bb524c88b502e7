/**
 * A person's sign-in (docs/CONSOLE.md "Signing in as a person"): OpenID Connect's authorization
 * code flow with PKCE (S256) at the issuer `assets/sign-in.json` names. The ID token lives in this
 * module's memory only: never a URL, `localStorage`, `sessionStorage` or a log line. During the
 * redirect, `sessionStorage` holds the verifier, state and nonce (not tokens), removed on return.
 * A reload forgets the token; the provider's own session then makes signing in again one redirect.
 */
import {
  addressWithoutCallback,
  authorizationUrlOf,
  base64Url,
  callbackOf,
  idTokenClaimsOf,
  isDiscoveryFor,
  redirectUriOf,
  s256Challenge,
  signOutReasonOf,
  signOutUrlOf,
  tokenRequestBody,
  type SignOutReason,
  type OidcDiscovery,
  type PendingSignIn,
} from '../model/oidc-flow';

export interface SignInSettings {
  issuer: string;
  clientId: string;
  idleMinutes: number;
}

const PENDING = 'campaign-console.sign-in-pending';

let idToken: string | undefined;
let discovered: Promise<OidcDiscovery> | undefined;

/** The signed-in person's ID token, for ui/api.ts's `Authorization` header only. */
export const personToken = (): string | undefined => idToken;

/** Forgets the token (sign-out, idle, a 401). */
export function forgetPerson(): void {
  idToken = undefined;
}

/** The sign-in settings of this service, undefined when people cannot sign in here (`{}`). */
export async function readSignInSettings(assetsBase: string): Promise<SignInSettings | undefined> {
  const response = await fetch(`${assetsBase}sign-in.json`, { credentials: 'omit' }).catch(() => undefined);
  const settings = (await response?.json().catch(() => undefined)) as Partial<SignInSettings> | undefined;
  if (!settings?.issuer || !settings.clientId) return undefined;
  return { issuer: settings.issuer, clientId: settings.clientId, idleMinutes: settings.idleMinutes ?? 30 };
}

function discovery(settings: SignInSettings): Promise<OidcDiscovery> {
  discovered ??= fetch(`${settings.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`, { credentials: 'omit' })
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`HTTP ${response.status}`))))
    .then((document: unknown) => {
      if (!isDiscoveryFor(document, settings.issuer)) throw new Error('the discovery document does not describe this issuer');
      return document;
    })
    .catch((error: unknown) => {
      discovered = undefined;
      throw new Error(`The sign-in service could not be reached (${error instanceof Error ? error.message : String(error)}).`);
    });
  return discovered;
}

const randomText = (): string => base64Url(crypto.getRandomValues(new Uint8Array(32)));
const sha256 = (data: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer> => crypto.subtle.digest('SHA-256', data);

/** Sends the browser to the provider's sign-in; the hash route is kept to return to. */
export async function startPersonSignIn(settings: SignInSettings): Promise<void> {
  const endpoints = await discovery(settings);
  const pending: PendingSignIn = { verifier: randomText(), state: randomText(), nonce: randomText(), returnTo: window.location.hash };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const challenge = await s256Challenge(pending.verifier, sha256);
  window.location.assign(
    authorizationUrlOf(endpoints.authorization_endpoint, {
      clientId: settings.clientId,
      redirectUri: redirectUriOf(window.location.href),
      state: pending.state,
      nonce: pending.nonce,
      challenge,
    }),
  );
}

function takePending(): PendingSignIn | undefined {
  const text = sessionStorage.getItem(PENDING);
  sessionStorage.removeItem(PENDING);
  try {
    return text ? (JSON.parse(text) as PendingSignIn) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * On return from the provider: removes the code and state from the address bar at once, checks
 * the state, exchanges the code (with the verifier) at the token endpoint, checks the ID token's
 * nonce and keeps the token in memory. `'none'`: this load is not a return from the provider.
 */
export async function completePersonSignIn(settings: SignInSettings): Promise<'none' | 'signed-in' | SignOutReason> {
  const signedOut = signOutReasonOf(window.location.href);
  if (signedOut) {
    history.replaceState(history.state, '', addressWithoutCallback(window.location.href));
    return signedOut;
  }
  const callback = callbackOf(window.location.href);
  if (!callback) return 'none';
  history.replaceState(history.state, '', addressWithoutCallback(window.location.href));
  const pending = takePending();
  if (!pending || callback.state !== pending.state) throw new Error('The sign-in answer did not match this tab’s sign-in. Sign in again.');
  if (pending.returnTo) history.replaceState(history.state, '', `${redirectUriOf(window.location.href)}${pending.returnTo}`);
  if (callback.kind === 'error') throw new Error(`The sign-in service refused: ${callback.description ?? callback.error}.`);
  const endpoints = await discovery(settings);
  const response = await fetch(endpoints.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: tokenRequestBody({ code: callback.code, redirectUri: redirectUriOf(window.location.href), clientId: settings.clientId, verifier: pending.verifier }),
    credentials: 'omit',
    cache: 'no-store',
  });
  const tokens = (await response.json().catch(() => ({}))) as { id_token?: string; error?: string; error_description?: string };
  if (!response.ok || !tokens.id_token)
    throw new Error(`The sign-in could not be completed (${tokens.error_description ?? tokens.error ?? `HTTP ${response.status}`}).`);
  if (idTokenClaimsOf(tokens.id_token)?.nonce !== pending.nonce) throw new Error('The sign-in answer did not match this tab’s sign-in. Sign in again.');
  idToken = tokens.id_token;
  return 'signed-in';
}

/** Forgets the token and ends the provider's session (its end-session page returns to the console). */
export async function endPersonSession(settings: SignInSettings, reason: SignOutReason): Promise<boolean> {
  forgetPerson();
  const endpoints = await discovery(settings).catch(() => undefined);
  const address = endpoints && signOutUrlOf(endpoints, settings.clientId, redirectUriOf(window.location.href), reason);
  if (!address) return false;
  window.location.assign(address);
  return true;
}
