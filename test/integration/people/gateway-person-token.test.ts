/**
 * A person's Bearer through the local gateway (docs/PEOPLE.md "On AWS"): the keyed method's request
 * authorizer (the `request-authorizer` function, as on AWS) verifies the token against a test issuer's
 * JWKS and names the member's usage-plan key, and the request reaches the function; a bad token gets
 * the gateway's 401 before any function. What the function then does with the person is its own.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

const CAMPAIGNS = '/prod/api/v2/broadcast/public/campaigns';
const AUDIENCE = 'console';

interface TestIssuer {
  url: string;
  sign(claims: Record<string, unknown>, key?: CryptoKey): Promise<string>;
  close(): Promise<void>;
}

/** An OpenID Connect issuer with a discovery document and a JWKS (one RS256 key). */
async function startTestIssuer(): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let url = '';
  const server = http.createServer((req, res) => {
    const body = req.url === '/.well-known/openid-configuration' ? { issuer: url, jwks_uri: `${url}/jwks` } : req.url === '/jwks' ? { keys: [jwk] } : undefined;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? {}));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    sign: (claims, key = privateKey) =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
        .setIssuer(url)
        .setAudience(AUDIENCE)
        .setSubject(`sub-${String(claims.email)}`)
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(key),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("a person's token at the local gateway", () => {
  let runtime: TestRuntime;
  let issuer: TestIssuer;
  const invoked: Array<{ group: string; operation: string }> = [];

  beforeAll(async () => {
    issuer = await startTestIssuer();
    runtime = await startTestRuntime({
      environment: { PEOPLE_OIDC_ISSUERS: JSON.stringify([{ issuer: issuer.url, audience: AUDIENCE }]) },
      onRequest: ({ group, operation }) => invoked.push({ group, operation }),
    });
    await getServices().tenancy.repository.putMembership({
      organizationId: runtime.demo.organizationId,
      email: 'mia@demo-retail.example',
      role: 'member',
      joinedAt: new Date().toISOString(),
      consoleRole: 'campaign-manager',
      usagePlanKey: { id: 'upk-mia', value: 'person-usage-key-mia-0123456789' },
    });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
    await issuer?.close();
  });
  beforeEach(() => void invoked.splice(0));

  const getCampaigns = (authorization: string) => fetch(`${runtime.baseUrl}${CAMPAIGNS}`, { headers: { authorization } });

  it("passes a member's valid token to the function (the authorizer ran and named their usage key)", async () => {
    const response = await getCampaigns(`Bearer ${await issuer.sign({ email: 'mia@demo-retail.example', email_verified: true })}`);
    // Not the gateway's refusal: the function answered (what it answers a person is the people API's).
    expect(response.headers.get('x-amzn-errortype')).toBeNull();
    expect(invoked.map(({ group, operation }) => ({ group, operation }))).toEqual([{ group: 'broadcast-campaigns', operation: 'listCampaigns' }]);
    // Cold starts of two functions (LOCAL_ISOLATION=threads: two worker threads) on a busy machine.
  }, 30_000);

  it.each([
    ['a token of someone not invited', async () => issuer.sign({ email: 'stranger@demo-retail.example', email_verified: true })],
    ['a token signed by another key', async () => issuer.sign({ email: 'mia@demo-retail.example' }, (await generateKeyPair('RS256')).privateKey)],
    ['a token whose email is not verified', async () => issuer.sign({ email: 'mia@demo-retail.example', email_verified: false })],
    ['no token at all', async () => ''],
  ])("answers %s with the gateway's 401 before any function", async (_, token) => {
    const response = await getCampaigns(`Bearer ${await token()}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('x-amzn-errortype')).toBe('UnauthorizedException');
    expect(await response.json()).toMatchObject({ status: false, status_code: 401, message: 'Missing or invalid API key' });
    expect(invoked).toEqual([]);
  });

  it('keeps the API key path as it was (no authorizer read): the demo key reaches the function', async () => {
    const response = await fetch(`${runtime.baseUrl}${CAMPAIGNS}`, { headers: { 'x-api-key': runtime.demo.apiKey } });
    expect(response.status).toBe(200);
    expect(invoked.map((info) => info.group)).toEqual(['broadcast-campaigns']);
  }, 30_000);
});
