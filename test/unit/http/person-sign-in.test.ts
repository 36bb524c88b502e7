import type { RouteDefinition } from '../../../runtime-contract/route-manifest';
import { createGroupHandler } from '../../../shared/http/create-group-handler';
import { httpOperation, type AuthenticatedCaller, type HttpPipelineDependencies, type PersonPresentation } from '../../../shared/http/http-operation';
import { InvalidPersonTokenError } from '../../../shared/people/errors';
import type { PersonRole } from '../../../shared/people/person-role';
import { InvalidCredentialError } from '../../../shared/tenancy/errors';
import { lambdaContext, proxyEventFor } from '../../support/api-gateway-event';
import { InMemoryAuditLog } from '../../support/in-memory-audit-log';

const route = (operation: string, people?: PersonRole): RouteDefinition => ({
  surface: 'broadcast',
  method: 'POST',
  path: `/broadcast/public/${operation}`,
  group: 'broadcast-send',
  operation,
  auth: 'broadcast-api-key',
  rateLimit: 'status',
  ...(people ? { people } : {}),
});
const launch = route('launch', 'campaign-manager');
const read = route('read', 'viewer');
const send = route('send');

const keyCaller: AuthenticatedCaller = {
  organizationId: 'org_1',
  credentialId: 'cred_1',
  credentialKind: 'broadcast-api-key',
  scope: { kind: 'organization' },
};
const personCaller = (role: PersonRole): AuthenticatedCaller => ({
  organizationId: 'org_1',
  credentialId: 'person:psn_1',
  credentialKind: 'broadcast-api-key',
  scope: { kind: 'organization' },
  person: { personId: 'psn_1', email: 'ana@example.com', role },
});

function setup() {
  const presented: Array<{ secret?: string; person?: PersonPresentation }> = [];
  const buckets: string[] = [];
  const dependencies: HttpPipelineDependencies = {
    authenticate: async (_kind, secret, person) => {
      presented.push({ secret, person });
      if (person) {
        if (person.token === 'viewer-token') return personCaller('viewer');
        if (person.token === 'manager-token') return personCaller('campaign-manager');
        throw new InvalidPersonTokenError();
      }
      if (secret !== 'good-key') throw new InvalidCredentialError();
      return keyCaller;
    },
    rateLimiter: { consume: async (bucket) => (buckets.push(bucket), { allowed: true, retryAfterSeconds: 0, remaining: 1 }) },
    clock: { now: () => new Date('2026-12-02T10:00:00Z') },
    auditLog: new InMemoryAuditLog(),
  };
  const seen: Array<AuthenticatedCaller | undefined> = [];
  const ok = httpOperation('broadcast-api-key', async (request) => (seen.push(request.caller), { statusCode: 200, body: { ok: true } }));
  const handler = createGroupHandler({
    group: 'broadcast-send',
    routes: [launch, read, send],
    dependencies: () => dependencies,
    operations: { launch: ok, read: ok, send: ok },
  });
  const call = async (target: RouteDefinition, headers: Record<string, string>) => {
    const result = await handler(proxyEventFor(target, { headers: { ...headers, 'content-type': 'application/json' }, body: '{}' }), lambdaContext());
    return { status: result.statusCode, json: JSON.parse(result.body) as Record<string, any> };
  };
  return { call, presented, seen, buckets };
}

describe("a person's sign-in in the pipeline", () => {
  test('a Bearer token on a route people may call authenticates the person, with the x-organization-id header', async () => {
    const { call, presented, seen } = setup();
    expect((await call(read, { authorization: 'Bearer viewer-token', 'x-organization-id': 'org_1' })).status).toBe(200);
    expect(presented).toEqual([{ secret: undefined, person: { token: 'viewer-token', organizationId: 'org_1' } }]);
    expect(seen[0]?.person?.role).toBe('viewer');
  });

  test("a role below the route's answers 403 ROLE_NOT_ALLOWED; a role at or above it passes", async () => {
    const { call, seen, buckets } = setup();
    const refused = await call(launch, { authorization: 'Bearer viewer-token' });
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.json)).toContain('ROLE_NOT_ALLOWED');
    expect(seen).toEqual([]);
    expect(buckets).toEqual([]);
    expect((await call(launch, { authorization: 'Bearer manager-token' })).status).toBe(200);
    // Counted per person, not per organization key.
    expect(buckets).toEqual([expect.stringContaining('person:psn_1')]);
  });

  test('a Bearer token on a route people may not call answers 403 PERSON_NOT_ALLOWED without authenticating', async () => {
    const { call, presented } = setup();
    const answer = await call(send, { authorization: 'Bearer manager-token' });
    expect(answer.status).toBe(403);
    expect(JSON.stringify(answer.json)).toContain('PERSON_NOT_ALLOWED');
    expect(presented).toEqual([]);
  });

  test('x-api-key wins when both are sent (also on a key-only route)', async () => {
    const { call, presented, seen } = setup();
    expect((await call(send, { 'x-api-key': 'good-key', authorization: 'Bearer manager-token' })).status).toBe(200);
    expect((await call(launch, { 'x-api-key': 'good-key', authorization: 'Bearer viewer-token' })).status).toBe(200);
    expect(presented.every((entry) => entry.person === undefined)).toBe(true);
    expect(seen.every((caller) => caller?.person === undefined)).toBe(true);
  });

  test("an invalid token answers 401 UNAUTHORIZED; no credential at all is the key's 401 as before", async () => {
    const { call } = setup();
    const invalid = await call(read, { authorization: 'Bearer forged' });
    expect(invalid.status).toBe(401);
    expect(JSON.stringify(invalid.json)).toContain('UNAUTHORIZED');
    expect((await call(read, {})).status).toBe(401);
  });
});
