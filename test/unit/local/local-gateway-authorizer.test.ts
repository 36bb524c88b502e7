import type { APIGatewayProxyEvent, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authorizeRequest } from '../../../functions/request-authorizer/request-authorizer.handler';
import { startLocalGateway, type LocalGateway } from '../../../local/gateway/local-gateway';
import { surfaces, type RouteDefinition } from '../../../runtime-contract/route-manifest';
import { InvalidPersonTokenError } from '../../../shared/people/errors';
import type { Membership } from '../../../shared/tenancy/tenancy-entities';

const keyed = (method: 'GET' | 'POST', path: string): RouteDefinition => ({
  surface: 'broadcast',
  method,
  path: `/broadcast/public${path}`,
  group: 'broadcast-campaigns',
  operation: 'listCampaigns',
  auth: 'broadcast-api-key',
  // 'status': a usage-plan bucket of burst 60, refilled 1 per second.
  rateLimit: 'status',
});

const ana: Membership = {
  organizationId: 'org_a',
  email: 'ana@example.com',
  role: 'member',
  joinedAt: '2026-01-01T00:00:00.000Z',
  usagePlanKey: { id: 'k1', value: 'person-key-ana' },
};

interface Harness {
  gateway: LocalGateway;
  seen: APIGatewayProxyEvent[];
  authorizerEvents: APIGatewayRequestAuthorizerEvent[];
  mode: { value: 'real' | 'throws' | 'deny' };
}

/** The real authorizer handler over fakes: tokens are the email they stand for. */
async function startHarness(): Promise<Harness> {
  const seen: APIGatewayProxyEvent[] = [];
  const authorizerEvents: APIGatewayRequestAuthorizerEvent[] = [];
  const mode: Harness['mode'] = { value: 'real' };
  const ports = {
    verifier: {
      async verify(token: string) {
        if (!token.includes('@')) throw new InvalidPersonTokenError();
        return { issuer: 'https://issuer.example', subject: token, email: token, expiresAt: new Date(Date.now() + 60_000) };
      },
    },
    memberships: { listMembershipsOfUser: async (email: string) => (email === ana.email ? [ana] : []) },
  };
  const gateway = await startLocalGateway({
    port: 0,
    routes: [keyed('GET', '/campaigns')],
    loadHandler: async () => async (event) => {
      seen.push(event);
      return { statusCode: 200, body: '{}' };
    },
    isApiKeyEnabled: async (apiKey) => apiKey === 'bk_live_enabled',
    loadRequestAuthorizer: async () => async (event) => {
      authorizerEvents.push(event);
      if (mode.value === 'throws') throw new Error('the store is down');
      if (mode.value === 'deny')
        return { principalId: 'x', policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Deny', Resource: '*' }] } };
      return (await authorizeRequest(ports, event)).result;
    },
  });
  return { gateway, seen, authorizerEvents, mode };
}

describe("local gateway: the keyed methods' request authorizer", () => {
  let harness: Harness;
  beforeEach(async () => {
    harness = await startHarness();
  });
  afterEach(async () => harness.gateway.close());

  const get = (headers: Record<string, string>) => fetch(`${harness.gateway.url}/prod/api/v2/broadcast/public/campaigns`, { headers });

  it('does not invoke the authorizer for an x-api-key (its answer would be that key, unread): the key store decides, as before', async () => {
    expect((await get({ 'x-api-key': 'bk_live_enabled' })).status).toBe(200);
    const unknown = await get({ 'x-api-key': 'bk_live_unknown', authorization: 'Bearer ana@example.com' });
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get('x-amzn-errortype')).toBe('ForbiddenException');
    expect(harness.authorizerEvents).toHaveLength(0);
    expect(harness.seen[0]!.requestContext.identity.apiKey).toBe('bk_live_enabled');
  });

  it("passes a member's Bearer to the function, metered by the key the authorizer named, with its principal and context", async () => {
    const response = await get({ Authorization: 'Bearer ana@example.com' });
    expect(response.status).toBe(200);
    expect(harness.authorizerEvents).toHaveLength(1);
    expect(harness.authorizerEvents[0]).toMatchObject({ type: 'REQUEST', headers: { Authorization: 'Bearer ana@example.com' } });
    expect(harness.authorizerEvents[0]!.methodArn).toMatch(/^arn:aws:execute-api:[\w-]+:\d{12}:\w+\/prod\/GET\/api\/v2\/broadcast\/public\/campaigns$/);
    const event = harness.seen[0]!;
    expect(event.requestContext.identity.apiKey).toBe('person-key-ana');
    expect(event.requestContext.authorizer).toMatchObject({ principalId: expect.stringMatching(/^psn_/), organizationId: 'org_a' });
    // The function still gets the person's own header to authenticate.
    expect(event.headers.Authorization).toBe('Bearer ana@example.com');
  });

  it("answers the surface's unauthorized gateway response for no credential or a bad token, before any function", async () => {
    for (const headers of [{}, { authorization: 'Bearer forged' }, { authorization: 'Bearer stranger@example.com' }] as Array<Record<string, string>>) {
      const response = await get(headers);
      expect(response.status).toBe(401);
      expect(response.headers.get('x-amzn-errortype')).toBe('UnauthorizedException');
      const body = (await response.json()) as Record<string, unknown>;
      expect(body).toEqual({ ...JSON.parse(surfaces.broadcast.authorizerResponses!.UNAUTHORIZED.body), requestId: expect.any(String) });
      // The answer a missing key always had.
      expect(body).toMatchObject({ status: false, status_code: 401, message: 'Missing or invalid API key', data: {} });
    }
    expect(harness.seen).toHaveLength(0);
  });

  it('answers its authorizer failure (503, Retry-After) when the authorizer throws, and 403 for a Deny', async () => {
    harness.mode.value = 'throws';
    const failed = await get({ authorization: 'Bearer ana@example.com' });
    expect(failed.status).toBe(503);
    expect(failed.headers.get('retry-after')).toBe('1');
    harness.mode.value = 'deny';
    expect((await get({ authorization: 'Bearer ana@example.com' })).status).toBe(403);
    expect(harness.seen).toHaveLength(0);
  });

  it("applies the usage plan's bucket to the person's key (burst 60 per key and method)", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 62; i++) statuses.push((await get({ authorization: 'Bearer ana@example.com' })).status);
    expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(1);
    // An API key has its own bucket.
    expect((await get({ 'x-api-key': 'bk_live_enabled' })).status).toBe(200);
  });
});
