/**
 * The local OpenID Connect provider as the console meets it (docs/PEOPLE.md "Locally"), in plain
 * HTTP: discovery, the authorization code flow with PKCE through the provider's own sign-in page,
 * the ID token verified with the API's verifier, a wrong password refused, sign-out, and the admin
 * endpoint the platform's local IdentityAccounts adapter calls (a new account's temporary password
 * signs in; ending its sessions kills its refresh token).
 */
import { createJoseTokenVerifier } from '../../../shared/adapters/oidc/jose-token-verifier';
import { getServices } from '../../../functions/composition';
import { createOidcBrowser, formAction, inputValue, pkcePair, signInAsPerson, type ConsoleTokens, type OidcBrowser } from '../../support/oidc-browser';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

let runtime: TestRuntime;
let issuer: string;
let discovery: Record<string, string>;
let consolePage: string;

beforeAll(async () => {
  runtime = await startTestRuntime({ startWorkers: false });
  issuer = runtime.demo.identity.issuer;
  consolePage = `${runtime.baseUrl}/console/`;
  discovery = (await (await fetch(`${issuer}/.well-known/openid-configuration`)).json()) as Record<string, string>;
}, 60_000);
afterAll(() => runtime?.close());

/** The console's side: authorize with PKCE, sign in on the provider's page, trade the code (CORS for the console). */
async function signIn(browser: OidcBrowser, email: string, password: string): Promise<ConsoleTokens> {
  const { tokens, tokenAnswer } = await signInAsPerson(browser, { discovery, redirectUri: consolePage, email, password });
  expect(tokenAnswer.headers.get('access-control-allow-origin')).toBe(runtime.baseUrl);
  return tokens;
}

const refresh = (refreshToken: string) =>
  fetch(discovery.token_endpoint!, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: 'console' }),
  });

const admin = (path: string, body: unknown, secret = runtime.environment.LOCAL_IDENTITY_ADMIN_SECRET!) =>
  fetch(`${runtime.environment.LOCAL_IDENTITY_ADMIN_URL}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${secret}` },
    body: JSON.stringify(body),
  });

it('tells the functions and demo.json where people sign in, with a demo person per role', () => {
  expect(JSON.parse(runtime.environment.PEOPLE_OIDC_ISSUERS!)).toEqual([{ issuer, audience: 'console' }]);
  expect(issuer).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  expect(runtime.environment.LOCAL_IDENTITY_ADMIN_URL).toBe(`${issuer}/admin`);
  expect(runtime.demo.identity).toEqual({ issuer, clientId: 'console' });
  expect(runtime.demo.people.map((person) => person.role).sort()).toEqual(['admin', 'campaign-manager', 'viewer']);
});

it('makes each demo person a member of the demo organization (an admin employee for the admin)', async () => {
  const { repository } = getServices().tenancy;
  for (const person of runtime.demo.people) {
    const membership = await repository.getMembership(runtime.demo.organizationId, person.email);
    expect(membership).toMatchObject({ email: person.email, role: person.role === 'admin' ? 'admin' : 'member' });
  }
});

it('publishes discovery for the code flow with PKCE S256, its keys and sign-out', async () => {
  expect(discovery.issuer).toBe(issuer);
  expect(discovery.code_challenge_methods_supported).toEqual(['S256']);
  expect(discovery.response_types_supported).toEqual(['code']);
  expect(discovery.end_session_endpoint).toMatch(new RegExp(`^${issuer}/`));
  const jwks = (await (await fetch(discovery.jwks_uri!)).json()) as { keys: Array<Record<string, unknown>> };
  expect(jwks.keys).toHaveLength(1);
  expect(jwks.keys[0]).not.toHaveProperty('d');
});

it('signs a demo person in through its own page and issues an ID token the API verifies; signing out ends the session', async () => {
  const manager = runtime.demo.people.find((person) => person.role === 'campaign-manager')!;
  const browser = createOidcBrowser();
  const tokens = await signIn(browser, manager.email, manager.password);
  const identity = await createJoseTokenVerifier({ issuers: [{ issuer, audience: 'console' }] }).verify(tokens.id_token);
  expect(identity).toMatchObject({ issuer, email: manager.email });
  expect(identity.expiresAt.getTime() - Date.now()).toBeGreaterThan(55 * 60_000);
  expect(tokens.refresh_token).toEqual(expect.any(String));
  // The console's origin may read the userinfo and the keys; another origin gets no CORS answer from the token endpoint.
  const userinfo = await fetch(discovery.userinfo_endpoint!, { headers: { authorization: `Bearer ${tokens.access_token}`, origin: runtime.baseUrl } });
  expect(await userinfo.json()).toMatchObject({ email: manager.email, email_verified: true });
  expect(userinfo.headers.get('access-control-allow-origin')).toBe(runtime.baseUrl);
  expect((await fetch(discovery.jwks_uri!, { headers: { origin: runtime.baseUrl } })).headers.get('access-control-allow-origin')).toBeTruthy();
  const foreign = await fetch(discovery.token_endpoint!, {
    method: 'POST',
    headers: { origin: 'http://evil.example', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'not-a-refresh-token', client_id: 'console' }),
  });
  expect(foreign.headers.get('access-control-allow-origin')).toBeNull();

  const signOut = new URL(discovery.end_session_endpoint!);
  for (const [name, value] of Object.entries({ id_token_hint: tokens.id_token, post_logout_redirect_uri: consolePage, state: 'bye' }))
    signOut.searchParams.set(name, value);
  const confirm = await browser.request(signOut.href);
  expect(confirm.status).toBe(200);
  expect(confirm.text).toContain('data-confirmed="yes"');
  const done = await browser.follow(
    new URL(formAction(confirm.text)!, issuer).href,
    { form: { xsrf: inputValue(confirm.text, 'xsrf')!, logout: 'yes' } },
    consolePage,
  );
  expect(done.url).toBe(`${consolePage}?state=bye`);
  expect((await refresh(tokens.refresh_token!)).status).toBe(400);
  // Signed out: the next authorization asks for the password again.
  const again = await browser.follow(
    `${discovery.authorization_endpoint}?${new URLSearchParams({ client_id: 'console', response_type: 'code', scope: 'openid email', redirect_uri: consolePage, code_challenge: pkcePair().challenge, code_challenge_method: 'S256' })}`,
    undefined,
    consolePage,
  );
  expect(again.text).toContain('id="password"');
});

it('serves an accessible sign-in page under a strict CSP, and refuses a wrong password without saying which part was wrong', async () => {
  const viewer = runtime.demo.people.find((person) => person.role === 'viewer')!;
  const browser = createOidcBrowser();
  const { challenge } = pkcePair();
  const page = await browser.follow(
    `${discovery.authorization_endpoint}?${new URLSearchParams({ client_id: 'console', response_type: 'code', scope: 'openid email', redirect_uri: consolePage, code_challenge: challenge, code_challenge_method: 'S256' })}`,
  );
  const csp = page.headers.get('content-security-policy')!;
  expect(csp).toContain("default-src 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(page.text).toMatch(/<label for="email">Email<\/label>[\s\S]*<input id="email"/);
  expect(page.text).toMatch(/<label for="password">Password<\/label>[\s\S]*<input id="password"/);
  expect(page.text).not.toMatch(/<script|style=/);
  const css = await fetch(`${issuer}/assets/sign-in.css`);
  expect(css.headers.get('content-type')).toContain('text/css');

  const action = new URL(formAction(page.text)!, issuer).href;
  const wrongPassword = await browser.request(action, { form: { email: viewer.email, password: 'not-the-password' } });
  const unknownEmail = await browser.request(action, { form: { email: 'nobody@demo.example', password: viewer.password } });
  expect(wrongPassword.status).toBe(401);
  expect(wrongPassword.text).toContain('role="alert"');
  expect(wrongPassword.text.replace(viewer.email, 'EMAIL')).toBe(unknownEmail.text.replace('nobody@demo.example', 'EMAIL'));
});

it('refuses an authorization without PKCE', async () => {
  const answer = await createOidcBrowser().follow(
    `${discovery.authorization_endpoint}?${new URLSearchParams({ client_id: 'console', response_type: 'code', scope: 'openid email', redirect_uri: consolePage })}`,
    undefined,
    consolePage,
  );
  expect(new URL(answer.url).searchParams.get('error')).toBe('invalid_request');
});

it('admin endpoint: a created account signs in with its temporary password, and ending its sessions kills its refresh token', async () => {
  expect((await admin('/accounts', { email: 'new.person@demo.example' }, 'wrong-secret')).status).toBe(401);
  expect((await admin('/accounts', { email: 'not an email' })).status).toBe(400);
  const created = await admin('/accounts', { email: 'New.Person@demo.example' });
  expect(created.status).toBe(200);
  const { temporaryPassword, ...rest } = (await created.json()) as { created: boolean; temporaryPassword: string };
  expect(rest).toEqual({ created: true });
  expect(await (await admin('/accounts', { email: 'new.person@demo.example' })).json()).toEqual({ created: false });

  const tokens = await signIn(createOidcBrowser(), 'new.person@demo.example', temporaryPassword);
  const refreshed = await refresh(tokens.refresh_token!);
  expect(refreshed.status).toBe(200);
  const { refresh_token: rotated } = (await refreshed.json()) as ConsoleTokens;

  expect((await admin('/accounts/end-sessions', { email: 'new.person@demo.example' })).status).toBe(204);
  const refused = await refresh(rotated!);
  expect(refused.status).toBe(400);
  expect(((await refused.json()) as { error: string }).error).toBe('invalid_grant');
});
