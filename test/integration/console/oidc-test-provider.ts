/**
 * A small OpenID Connect provider for the console's browser suites (not a test file), speaking the
 * protocol the console uses: discovery, the authorization code flow with PKCE (S256 checked), its
 * own sign-in page (fields labelled "Email" and "Password", a "Sign in" button: the local
 * provider's contract, so test/support/console-sign-in.ts drives both), a session cookie (a second
 * authorization is one redirect), the token endpoint with CORS, RP-initiated logout with
 * `client_id` and `post_logout_redirect_uri`. It signs its ID tokens with HS256 and a random key:
 * the suites answer the API routes themselves (console-people-stub.ts), so nothing verifies them.
 * Every request it receives is recorded, so a suite can check no token reached a URL.
 */
import { createHash, createHmac, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestAccount {
  email: string;
  password: string;
}

export interface OidcTestProvider {
  issuer: string;
  clientId: string;
  /** Every request's method and URL (path and query), in order. */
  requests: string[];
  /** The ID tokens issued, to look for in URLs, storage and logs. */
  issuedTokens: string[];
  close(): Promise<void>;
}

interface Grant {
  email: string;
  clientId: string;
  redirectUri: string;
  challenge: string;
  nonce: string;
}

const b64 = (value: string | Buffer) => Buffer.from(value).toString('base64url');
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function signInPage(interaction: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in</title></head><body><main>
<h1>Sign in</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(interaction)}">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form></main></body></html>`;
}

const readForm = (request: http.IncomingMessage): Promise<URLSearchParams> =>
  new Promise((resolve) => {
    let text = '';
    request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    request.on('end', () => resolve(new URLSearchParams(text)));
  });

/** Starts the provider on a free port of 127.0.0.1 with one public client whose redirect and sign-out addresses start with `consoleOrigin`. */
export async function startOidcTestProvider(accounts: readonly TestAccount[], consoleOrigin: () => string): Promise<OidcTestProvider> {
  const key = randomBytes(32);
  const clientId = 'console';
  const sessions = new Map<string, string>();
  const interactions = new Map<string, URLSearchParams>();
  const codes = new Map<string, Grant>();
  const requests: string[] = [];
  const issuedTokens: string[] = [];
  let issuer = '';

  const idToken = (grant: Grant): string => {
    const now = Math.floor(Date.now() / 1000);
    const body = `${b64(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64(JSON.stringify({ iss: issuer, aud: grant.clientId, sub: createHash('sha256').update(grant.email).digest('hex').slice(0, 20), email: grant.email, email_verified: true, nonce: grant.nonce, iat: now, exp: now + 3600 }))}`;
    const token = `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`;
    issuedTokens.push(token);
    return token;
  };
  const allowedReturn = (uri: string | null) => !!uri && uri.startsWith(consoleOrigin());
  const sessionOf = (request: http.IncomingMessage) => /(?:^|;\s*)test_idp_session=([\w-]+)/.exec(request.headers.cookie ?? '')?.[1];

  const redirectWithCode = (response: http.ServerResponse, parameters: URLSearchParams, email: string) => {
    const code = b64(randomBytes(24));
    codes.set(code, { email, clientId, redirectUri: parameters.get('redirect_uri')!, challenge: parameters.get('code_challenge')!, nonce: parameters.get('nonce') ?? '' });
    const target = new URL(parameters.get('redirect_uri')!);
    target.searchParams.set('code', code);
    target.searchParams.set('state', parameters.get('state') ?? '');
    target.searchParams.set('iss', issuer);
    response.writeHead(303, { location: target.toString() }).end();
  };

  const authorize = (request: http.IncomingMessage, response: http.ServerResponse, url: URL) => {
    const parameters = url.searchParams;
    const valid = parameters.get('client_id') === clientId && parameters.get('response_type') === 'code' && parameters.get('code_challenge_method') === 'S256' && !!parameters.get('code_challenge') && allowedReturn(parameters.get('redirect_uri'));
    if (!valid) return response.writeHead(400, { 'content-type': 'text/plain' }).end('invalid authorization request');
    const email = sessions.get(sessionOf(request) ?? '');
    if (email) return redirectWithCode(response, parameters, email);
    const interaction = b64(randomBytes(12));
    interactions.set(interaction, parameters);
    response.writeHead(303, { location: `/interaction/${interaction}` }).end();
  };

  const interaction = async (request: http.IncomingMessage, response: http.ServerResponse, id: string) => {
    const parameters = interactions.get(id);
    if (!parameters) return response.writeHead(400).end('unknown interaction');
    if (request.method === 'GET') return response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(signInPage(id));
    const form = await readForm(request);
    const account = accounts.find((candidate) => candidate.email === form.get('email') && candidate.password === form.get('password'));
    if (!account) return response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(signInPage(id, 'Wrong email or password.'));
    interactions.delete(id);
    const session = b64(randomBytes(16));
    sessions.set(session, account.email);
    response.setHeader('set-cookie', `test_idp_session=${session}; Path=/; HttpOnly; SameSite=Lax`);
    redirectWithCode(response, parameters, account.email);
  };

  const token = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const form = await readForm(request);
    const grant = codes.get(form.get('code') ?? '');
    codes.delete(form.get('code') ?? '');
    const cors = { 'access-control-allow-origin': request.headers.origin ?? '*', 'content-type': 'application/json', 'cache-control': 'no-store' };
    const verifier = form.get('code_verifier') ?? '';
    const ok = grant && form.get('grant_type') === 'authorization_code' && form.get('client_id') === grant.clientId && form.get('redirect_uri') === grant.redirectUri && createHash('sha256').update(verifier).digest('base64url') === grant.challenge;
    if (!ok) return response.writeHead(400, cors).end(JSON.stringify({ error: 'invalid_grant', error_description: 'grant request is invalid' }));
    response.writeHead(200, cors).end(JSON.stringify({ id_token: idToken(grant), access_token: b64(randomBytes(24)), token_type: 'Bearer', expires_in: 3600 }));
  };

  const endSession = (request: http.IncomingMessage, response: http.ServerResponse, url: URL) => {
    const session = sessionOf(request);
    if (session) sessions.delete(session);
    response.setHeader('set-cookie', 'test_idp_session=; Path=/; Max-Age=0');
    const target = url.searchParams.get('post_logout_redirect_uri');
    if (url.searchParams.get('client_id') === clientId && allowedReturn(target)) {
      const back = new URL(target!);
      // RP-Initiated Logout 1.0: the state comes back with the redirect.
      if (url.searchParams.get('state')) back.searchParams.set('state', url.searchParams.get('state')!);
      return response.writeHead(303, { location: back.toString() }).end();
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end('Signed out.');
  };

  const server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', issuer);
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    if (url.pathname === '/.well-known/openid-configuration') {
      const document = { issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, end_session_endpoint: `${issuer}/session/end`, jwks_uri: `${issuer}/jwks`, code_challenge_methods_supported: ['S256'] };
      return response.writeHead(200, { 'content-type': 'application/json', 'access-control-allow-origin': '*' }).end(JSON.stringify(document));
    }
    if (url.pathname === '/auth') return authorize(request, response, url);
    if (url.pathname.startsWith('/interaction/')) return void interaction(request, response, url.pathname.slice('/interaction/'.length));
    if (url.pathname === '/token' && request.method === 'POST') return void token(request, response);
    if (url.pathname === '/session/end') return endSession(request, response, url);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    clientId,
    requests,
    issuedTokens,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
