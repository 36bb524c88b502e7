/**
 * A person's sign-in in the console (docs/CONSOLE.md "Signing in as a person"): the PKCE helpers,
 * the addresses of the flow, the callback's parsing and removal, the sign-out address (no token in
 * it), what the console function serves (sign-in.json, the policy's identity origins).
 */
import { createHash, webcrypto } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
} from '../../../console/model/oidc-flow';
import { consoleAssets } from '../../../functions/console/console-assets';
import { consoleContentSecurityPolicy, consoleContentSecurityPolicyFor } from '../../../shared/console/console-page';
import { identityOriginsOf, signInSettingsOf } from '../../../shared/console/sign-in-settings';

const sha256 = async (data: Uint8Array<ArrayBuffer>) => webcrypto.subtle.digest('SHA-256', data);
const jwt = (claims: object) => `e30.${base64Url(new TextEncoder().encode(JSON.stringify(claims)))}.signature`;

describe('PKCE (RFC 7636, S256)', () => {
  it('derives the challenge of the RFC’s appendix B verifier', async () => {
    await expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', sha256)).resolves.toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it('encodes bytes as base64url without padding, matching node’s', () => {
    const bytes = new Uint8Array(webcrypto.getRandomValues(new Uint8Array(32)));
    expect(base64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    expect(base64Url(new Uint8Array([251, 255]))).toBe('-_8');
    expect(base64Url(bytes)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const verifier = base64Url(bytes);
    expect(createHash('sha256').update(verifier).digest('base64url')).toHaveLength(43);
  });
});

describe('the flow’s addresses', () => {
  it('asks for a code with the S256 challenge, state and nonce, returning to the page itself', () => {
    const redirectUri = redirectUriOf('http://127.0.0.1:3000/console/?code=old#/people');
    expect(redirectUri).toBe('http://127.0.0.1:3000/console/');
    const url = new URL(authorizationUrlOf('http://127.0.0.1:4010/auth', { clientId: 'console', redirectUri, state: 'st', nonce: 'no', challenge: 'ch' }));
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'console',
      redirect_uri: redirectUri,
      scope: 'openid email',
      state: 'st',
      nonce: 'no',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
    });
    expect(new URLSearchParams(tokenRequestBody({ code: 'c', redirectUri, clientId: 'console', verifier: 'v' })).get('code_verifier')).toBe('v');
  });

  it('reads the provider’s answer and removes it from the address, keeping the hash route', () => {
    expect(callbackOf('https://x/console/?code=abc&state=s1&iss=https%3A%2F%2Fidp')).toEqual({ kind: 'code', code: 'abc', state: 's1' });
    expect(callbackOf('https://x/console/?error=access_denied&error_description=no&state=s1')).toEqual({
      kind: 'error',
      error: 'access_denied',
      description: 'no',
      state: 's1',
    });
    expect(callbackOf('https://x/console/#/people')).toBeUndefined();
    expect(callbackOf('https://x/console/?code=abc')).toBeUndefined();
    expect(addressWithoutCallback('https://x/console/?code=abc&state=s&iss=https%3A%2F%2Fidp&session_state=z#/people')).toBe('https://x/console/#/people');
    expect(addressWithoutCallback('https://x/console/?lang=en&code=abc&state=s')).toBe('https://x/console/?lang=en');
  });

  it('reads the ID token’s nonce, and nothing from what is not a JWT', () => {
    expect(idTokenClaimsOf(jwt({ nonce: 'n1', email: 'ana@example.com', exp: 1 }))).toEqual({ nonce: 'n1', email: 'ana@example.com', exp: 1 });
    expect(idTokenClaimsOf('not-a-jwt')).toBeUndefined();
    expect(idTokenClaimsOf('a.%%%.c')).toBeUndefined();
  });

  it('signs out at the end-session endpoint with client_id, never the token; Cognito at /logout', () => {
    const discovery = {
      issuer: 'http://idp',
      authorization_endpoint: 'http://idp/auth',
      token_endpoint: 'http://idp/token',
      end_session_endpoint: 'http://idp/session/end',
    };
    const address = signOutUrlOf(discovery, 'console', 'http://x/console/')!;
    expect(Object.fromEntries(new URL(address).searchParams)).toEqual({ client_id: 'console', post_logout_redirect_uri: 'http://x/console/' });
    expect(address).not.toMatch(/id_token/);
    const cognito = {
      issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_x',
      authorization_endpoint: 'https://pool.auth.eu-west-1.amazoncognito.com/oauth2/authorize',
      token_endpoint: 'https://pool.auth.eu-west-1.amazoncognito.com/oauth2/token',
    };
    expect(signOutUrlOf(cognito, 'abc', 'https://x/console/')).toBe(
      'https://pool.auth.eu-west-1.amazoncognito.com/logout?client_id=abc&logout_uri=https%3A%2F%2Fx%2Fconsole%2F',
    );
    expect(signOutUrlOf({ ...discovery, end_session_endpoint: undefined }, 'console', 'http://x/console/')).toBeUndefined();
    expect(new URL(signOutUrlOf(discovery, 'console', 'http://x/console/', 'idle')!).searchParams.get('state')).toBe('idle');
  });

  it('tells a return from the end-session page (its state: why) from a sign-in’s answer', () => {
    expect(signOutReasonOf('http://x/console/?state=idle')).toBe('idle');
    expect(signOutReasonOf('http://x/console/?state=signed-out')).toBe('signed-out');
    expect(signOutReasonOf('http://x/console/?code=c&state=idle')).toBeUndefined();
    expect(signOutReasonOf('http://x/console/?state=other')).toBeUndefined();
  });

  it('accepts a discovery document only for the issuer it was told', () => {
    const document = { issuer: 'http://idp/', authorization_endpoint: 'http://idp/auth', token_endpoint: 'http://idp/token' };
    expect(isDiscoveryFor(document, 'http://idp')).toBe(true);
    expect(isDiscoveryFor({ ...document, issuer: 'http://evil' }, 'http://idp')).toBe(false);
    expect(isDiscoveryFor({ issuer: 'http://idp' }, 'http://idp')).toBe(false);
  });
});

describe('what the console function serves for the sign-in', () => {
  it('sign-in.json: the first issuer, its client and the idle time; {} without one', async () => {
    const people = {
      issuers: [
        { issuer: 'http://127.0.0.1:4010', audience: 'console' },
        { issuer: 'https://other', audience: 'x' },
      ],
      idleMinutes: 15,
    };
    const assets = consoleAssets(mkdtempSync(join(tmpdir(), 'console-assets-')), () => signInSettingsOf(people));
    const served = await assets.read('sign-in.json');
    expect(served?.contentType).toBe('application/json; charset=utf-8');
    expect(JSON.parse(served!.text)).toEqual({ issuer: 'http://127.0.0.1:4010', clientId: 'console', idleMinutes: 15 });
    expect(signInSettingsOf({ issuers: [], idleMinutes: 30 })).toEqual({});
    const none = consoleAssets(mkdtempSync(join(tmpdir(), 'console-assets-')));
    expect(JSON.parse((await none.read('sign-in.json'))!.text)).toEqual({});
  });

  it('the policy lets the page call the issuer and its token endpoint (Cognito’s domain), nothing else', async () => {
    const discovery = {
      token_endpoint: 'https://pool.auth.eu-west-1.amazoncognito.com/oauth2/token',
      authorization_endpoint: 'https://pool.auth.eu-west-1.amazoncognito.com/oauth2/authorize',
    };
    const fetchStub = (async () => new Response(JSON.stringify(discovery), { status: 200 })) as unknown as typeof fetch;
    const found = await identityOriginsOf('https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_x', fetchStub);
    expect(found).toEqual({ origins: ['https://cognito-idp.eu-west-1.amazonaws.com', 'https://pool.auth.eu-west-1.amazoncognito.com'], discovered: true });
    const policy = consoleContentSecurityPolicyFor(found.origins);
    expect(policy).toContain("connect-src 'self' https://cognito-idp.eu-west-1.amazonaws.com https://pool.auth.eu-west-1.amazoncognito.com;");
    expect(policy.replace(/connect-src[^;]*;/, '')).toBe(consoleContentSecurityPolicy.replace(/connect-src[^;]*;/, ''));
    expect(consoleContentSecurityPolicyFor([])).toBe(consoleContentSecurityPolicy);
    const down = (async () => {
      throw new Error('offline');
    }) as unknown as typeof fetch;
    await expect(identityOriginsOf('http://127.0.0.1:4010', down)).resolves.toEqual({ origins: ['http://127.0.0.1:4010'], discovered: false });
    const hostile = (async () =>
      new Response(JSON.stringify({ token_endpoint: "javascript:alert(1); script-src 'unsafe-inline'" }))) as unknown as typeof fetch;
    await expect(identityOriginsOf('http://127.0.0.1:4010', hostile)).resolves.toEqual({ origins: ['http://127.0.0.1:4010'], discovered: true });
  });
});
