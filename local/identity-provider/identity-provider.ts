/**
 * The local OpenID Connect provider (docs/PEOPLE.md "Locally"): panva's certified `oidc-provider`
 * on its own port, issuer `http://127.0.0.1:<port>`, with its own sign-in page, the demo people's
 * accounts and an admin endpoint for the platform's local IdentityAccounts adapter.
 *
 * It starts in two steps because of the runtime's boot order: it listens first (the functions'
 * environment needs its issuer and admin URL before they start, and the demo seed its accounts),
 * then `serveConsole` registers the console client once the gateway, whose address is its redirect
 * URI, is listening. Until then the OpenID endpoints answer 503; the admin endpoint already works.
 * oidc-provider itself is imported on the first OpenID request (about half a second of CPU): most
 * test runtimes never sign anyone in and do not pay it.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createAccountStore, type AccountStore } from './account-store';
import { ADMIN_PATH, handleAdmin } from './identity-admin';
import { contentSecurityPolicy, sendHtml, setSecurityHeaders } from './identity-http-io';
import { handleInteraction } from './identity-interactions';
import { loadOidcProvider, type OidcProvider } from './oidc-provider-types';
import { CONSOLE_CLIENT_ID, consoleAddressesOf, providerConfiguration } from './provider-configuration';
import { providerKeys, type ProviderKeys } from './provider-keys';
import { createProviderStorage } from './provider-storage';
import { assetPaths, errorPage } from './sign-in-pages';

export interface IdentityProviderOptions {
  /** 0 picks a free port (tests). */
  port: number;
  /** Where accounts and keys are kept when `persist` (else memory only). */
  dataDirectory: string;
  persist: boolean;
}

export interface LocalIdentityProvider {
  issuer: string;
  clientId: string;
  /** The admin endpoint's base: `{issuer}/admin`. */
  adminUrl: string;
  /** The admin endpoint's bearer secret, new on every start. */
  adminSecret: string;
  accounts: AccountStore;
  /** What the functions are given: PEOPLE_OIDC_ISSUERS, LOCAL_IDENTITY_ADMIN_URL, LOCAL_IDENTITY_ADMIN_SECRET. */
  environment: Record<string, string>;
  /** Registers the console client with the gateway's console pages and starts answering the OpenID endpoints. */
  serveConsole(gatewayUrl: string): Promise<void>;
  stop(): Promise<void>;
}

const assetFiles: Record<string, { file: string; type: string }> = {
  [assetPaths.css]: { file: 'sign-in.css', type: 'text/css; charset=utf-8' },
  [assetPaths.signOutScript]: { file: 'sign-out.js', type: 'text/javascript; charset=utf-8' },
};

/**
 * Starts listening on 127.0.0.1; the OpenID endpoints answer once `serveConsole` is called.
 *
 * @example
 * const identity = await startIdentityProvider({ port: 0, dataDirectory: '.local', persist: false });
 * await identity.serveConsole(gateway.url);
 * await identity.stop();
 */
export async function startIdentityProvider(options: IdentityProviderOptions): Promise<LocalIdentityProvider> {
  const accounts = createAccountStore(options.persist ? { file: join(options.dataDirectory, 'identity-accounts.json') } : {});
  const keys: ProviderKeys = providerKeys(options.persist ? join(options.dataDirectory, 'identity-keys.json') : undefined);
  const storage = createProviderStorage();
  const adminSecret = randomBytes(32).toString('base64url');
  const assets = Object.fromEntries(Object.entries(assetFiles).map(([path, asset]) => [path, { ...asset, body: readFileSync(join(__dirname, asset.file)) }]));
  const state: { consoleUrls?: string[]; provider?: Promise<ServedProvider>; csp: string } = { csp: contentSecurityPolicy([]) };
  // Made once, on the first request that needs it; a failed import is tried again on the next request.
  const providerOf = (consoleUrls: string[]): Promise<ServedProvider> => {
    if (!state.provider) {
      state.provider = createProvider(issuer, providerConfiguration({ accounts, storage, keys, consoleUrls }));
      state.provider.catch(() => (state.provider = undefined));
    }
    return state.provider;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    setSecurityHeaders(response, state.csp);
    if (await handleAdmin({ accounts, storage, secret: adminSecret }, request, response)) return;
    const path = new URL(request.url ?? '/', 'http://idp').pathname;
    const asset = assets[path];
    if (asset && request.method === 'GET') {
      response.writeHead(200, { 'content-type': asset.type, 'cache-control': 'no-cache' }).end(asset.body);
      return;
    }
    // Browsers ask for one on every page; no icon, and no 404 in their console either.
    if (path === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    if (!state.consoleUrls) {
      sendHtml(response, 503, errorPage({ error: 'temporarily_unavailable', error_description: 'The local identity provider is still starting.' }));
      return;
    }
    const { provider, callback } = await providerOf(state.consoleUrls);
    if (await handleInteraction(provider, accounts, request, response)) return;
    callback(request, response);
  };
  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      process.stderr.write(`local identity provider: ${(error as Error).message}\n`);
      if (!response.headersSent)
        sendHtml(response, 500, errorPage({ error: 'server_error', error_description: 'The local identity provider failed; see its log.' }));
      else response.end();
    });
  });
  const port = await listen(server, options.port);
  const issuer = `http://127.0.0.1:${port}`;
  const adminUrl = `${issuer}${ADMIN_PATH}`;

  return {
    issuer,
    clientId: CONSOLE_CLIENT_ID,
    adminUrl,
    adminSecret,
    accounts,
    environment: {
      PEOPLE_OIDC_ISSUERS: JSON.stringify([{ issuer, audience: CONSOLE_CLIENT_ID }]),
      LOCAL_IDENTITY_ADMIN_URL: adminUrl,
      LOCAL_IDENTITY_ADMIN_SECRET: adminSecret,
    },
    async serveConsole(gatewayUrl) {
      const consoleUrls = consoleAddressesOf(gatewayUrl);
      state.csp = contentSecurityPolicy([...new Set(consoleUrls.map((url) => new URL(url).origin))]);
      state.consoleUrls = consoleUrls;
    },
    stop: () => close(server),
  };
}

interface ServedProvider {
  provider: OidcProvider;
  callback: ReturnType<OidcProvider['callback']>;
}

async function createProvider(issuer: string, configuration: Record<string, unknown>): Promise<ServedProvider> {
  const Provider = await loadOidcProvider();
  const provider = new Provider(issuer, configuration);
  provider.on('server_error', (_context, error) => process.stderr.write(`local identity provider: ${error.message}\n`));
  return { provider, callback: provider.callback() };
}

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops listening and drops kept-alive connections, so nothing holds the process (or a test) open. */
function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
