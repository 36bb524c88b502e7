/**
 * The local identity provider's oidc-provider configuration (docs/PEOPLE.md "Locally"): one public
 * client, `console` (no secret, PKCE S256 required, authorization code and refresh token, its
 * redirect and sign-out addresses the gateway's console pages), the `openid` and `email` scopes with
 * a verified email in the ID token itself (the API's verifier reads it there, as with Cognito's ID
 * token), ID tokens for an hour signed ES256 (provider-keys.ts), CORS only for the console's
 * origins, no development interactions (identity-interactions.ts signs people in), and its pages
 * from sign-in-pages.ts.
 */
import type { AccountStore } from './account-store';
import type { OidcClient, OidcContext } from './oidc-provider-types';
import type { ProviderKeys } from './provider-keys';
import type { ProviderStorage } from './provider-storage';
import { errorPage, signedOutPage, signOutPage } from './sign-in-pages';

/** The console's client id: the audience of its ID tokens (PEOPLE_OIDC_ISSUERS). */
export const CONSOLE_CLIENT_ID = 'console';

const HOUR = 3_600;
const DAY = 24 * HOUR;

export interface ProviderConfigurationInput {
  accounts: AccountStore;
  storage: ProviderStorage;
  keys: ProviderKeys;
  /** The console's pages: its redirect URIs and post-logout redirect URIs (consoleAddressesOf). */
  consoleUrls: readonly string[];
}

/**
 * The console pages a gateway serves (docs/CONSOLE.md): `/console/` and `/prod/api/v2/console/`,
 * also under `localhost` when the gateway listens on 127.0.0.1 (both reach it from a browser).
 *
 * @example
 * consoleAddressesOf('http://127.0.0.1:3000');
 * // ['http://127.0.0.1:3000/console/', 'http://127.0.0.1:3000/prod/api/v2/console/', 'http://localhost:3000/console/', …]
 */
export function consoleAddressesOf(gatewayUrl: string): string[] {
  const origin = new URL(gatewayUrl).origin;
  const origins = [origin];
  if (new URL(origin).hostname === '127.0.0.1') origins.push(origin.replace('//127.0.0.1', '//localhost'));
  return origins.flatMap((each) => [`${each}/console/`, `${each}/prod/api/v2/console/`]);
}

/**
 * The configuration handed to `new Provider(issuer, configuration)`.
 *
 * @example
 * new Provider(issuer, providerConfiguration({ accounts, storage, keys, consoleUrls: consoleAddressesOf(gatewayUrl) }));
 */
export function providerConfiguration(input: ProviderConfigurationInput): Record<string, unknown> {
  const consoleOrigins = new Set(input.consoleUrls.map((url) => new URL(url).origin));
  return {
    adapter: input.storage.adapterFor,
    clients: [
      {
        client_id: CONSOLE_CLIENT_ID,
        client_name: 'Campaign console',
        application_type: 'web',
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        id_token_signed_response_alg: 'ES256',
        redirect_uris: [...input.consoleUrls],
        post_logout_redirect_uris: [...input.consoleUrls],
      },
    ],
    responseTypes: ['code'],
    scopes: ['openid', 'email', 'offline_access'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The email claims in the ID token of the code flow too: the API reads the person's email there.
    conformIdTokenClaims: false,
    findAccount: async (_context: unknown, sub: string) => {
      const account = input.accounts.findById(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, email: account.email, email_verified: true }) };
    },
    jwks: input.keys.jwks,
    cookies: { keys: input.keys.cookieKeys, long: { httpOnly: true, sameSite: 'lax' }, short: { httpOnly: true, sameSite: 'lax' } },
    pkce: { required: () => true },
    // A refresh token whenever the client may use one; it ends with the sign-in session (expiresWithSession).
    issueRefreshToken: async (_context: unknown, client: OidcClient) => client.grantTypeAllowed('refresh_token'),
    clientBasedCORS: (_context: unknown, origin: string, client: OidcClient) => client.clientId === CONSOLE_CLIENT_ID && consoleOrigins.has(origin),
    interactions: { url: async (_context: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
    },
    renderError: async (context: OidcContext, out: { error?: string; error_description?: string }) => {
      context.type = 'html';
      context.body = errorPage(out);
    },
    ttl: { AccessToken: HOUR, AuthorizationCode: 60, IdToken: HOUR, Interaction: HOUR, Session: DAY, Grant: DAY, RefreshToken: DAY },
  };
}

/**
 * The console's own sign-out goes through without a click; any other asks. The console names itself
 * by `client_id` with one of its registered return addresses (oidc-provider checks the address
 * against the client's list) and never sends its ID token in a URL (docs/CONSOLE.md "Signing out"),
 * so the hint is not required. A forged sign-out link could at worst sign a person out of this local
 * provider, which costs them one sign-in.
 */
async function logoutSource(context: OidcContext, form: string): Promise<void> {
  const fromConsole = context.oidc.client?.clientId === CONSOLE_CLIENT_ID;
  const confirmed = fromConsole && (context.oidc.entities.IdTokenHint !== undefined || typeof context.oidc.params.post_logout_redirect_uri === 'string');
  context.type = 'html';
  context.body = signOutPage({ providerForm: form, confirmed, cancelUrl: context.oidc.params.post_logout_redirect_uri });
}

async function postLogoutSuccessSource(context: OidcContext): Promise<void> {
  context.type = 'html';
  context.body = signedOutPage();
}
