import type { RouteDefinition } from '../../../runtime-contract/route-manifest';
import { createGroupHandler } from '../../../shared/http/create-group-handler';
import { httpOperation, type AuthenticatedCaller, type HttpPipelineDependencies, type HttpRequest } from '../../../shared/http/http-operation';
import { RequestValidationError } from '../../../shared/http/errors';
import type { RateLimiter } from '../../../shared/rate-limiting/rate-limiter';
import { lambdaContext, proxyEventFor } from '../../support/api-gateway-event';
import { InMemoryAuditLog } from '../../support/in-memory-audit-log';

const sendRoute: RouteDefinition = {
  surface: 'broadcast',
  method: 'POST',
  path: '/broadcast/public/send-template-broadcast',
  group: 'broadcast-send',
  operation: 'send',
  auth: 'broadcast-api-key',
  rateLimit: 'template-broadcast',
};
const organizationRoute: RouteDefinition = {
  surface: 'organization',
  method: 'POST',
  path: '/organizations/public/remove-employee-bulk',
  group: 'broadcast-send',
  operation: 'remove',
  auth: 'organization-token',
  rateLimit: 'none',
};

const caller: AuthenticatedCaller = { organizationId: 'org_1', credentialId: 'cred_1', credentialKind: 'broadcast-api-key' };

function setup(options: { limiterAllows?: boolean; operation?: (request: HttpRequest) => Promise<unknown> } = {}) {
  const consumed: string[] = [];
  const rateLimiter: RateLimiter = {
    consume: async (bucket) => {
      consumed.push(bucket);
      return options.limiterAllows === false ? { allowed: false, retryAfterSeconds: 42, remaining: 0 } : { allowed: true, retryAfterSeconds: 0, remaining: 9 };
    },
  };
  const presented: Array<string | undefined> = [];
  const dependencies: HttpPipelineDependencies = {
    authenticate: async (_kind, secret) => {
      presented.push(secret);
      if (secret !== 'good-key' && secret !== 'good-token') throw new Error('credential lookup failed: table xyz');
      return caller;
    },
    rateLimiter,
    clock: { now: () => new Date('2026-11-21T10:00:30Z') },
    auditLog: new InMemoryAuditLog(),
    senderNumbers: { isOrganizationNumber: async (organizationId, digits) => organizationId === 'org_1' && digits === '15550001001' },
  };
  const seen: HttpRequest[] = [];
  const handler = createGroupHandler({
    group: 'broadcast-send',
    routes: [sendRoute, organizationRoute],
    dependencies: () => dependencies,
    operations: {
      send: httpOperation('broadcast-api-key', async (request) => {
        seen.push(request);
        const body = options.operation ? await options.operation(request) : { ok: true };
        return { statusCode: 200, body };
      }),
      remove: httpOperation('organization-token', async () => ({ statusCode: 200, body: {} })),
    },
  });
  return { handler, consumed, presented, seen };
}

const invoke = async (handler: ReturnType<typeof setup>['handler'], event = proxyEventFor(sendRoute)) => {
  const result = await handler(event, lambdaContext());
  return { ...result, json: JSON.parse(result.body) as Record<string, any> };
};

describe('the shared HTTP pipeline', () => {
  it('authenticates, parses JSON, rate-limits per key and sender, and runs the operation', async () => {
    const { handler, consumed, seen } = setup();
    const response = await invoke(
      handler,
      proxyEventFor(sendRoute, {
        headers: { 'X-Api-Key': 'good-key', 'CONTENT-TYPE': 'application/json; charset=utf-8' },
        body: JSON.stringify({ fromPhoneNumber: '15550001001' }),
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json).toEqual({ ok: true });
    expect(seen[0]?.caller).toEqual(caller);
    expect(seen[0]?.body).toEqual({ fromPhoneNumber: '15550001001' });
    expect(consumed).toEqual(['template-broadcast#cred_1#15550001001']);
    expect(response.headers?.['X-Request-Id']).toBeTruthy();
  });

  it('answers malformed JSON with a 400 that says so', async () => {
    const { handler, seen } = setup();
    const response = await invoke(
      handler,
      proxyEventFor(sendRoute, { headers: { 'x-api-key': 'good-key', 'content-type': 'application/json' }, body: '{"data": [' }),
    );
    expect(response.statusCode).toBe(400);
    expect(response.json).toMatchObject({ status: false, status_code: 400, message: 'Request body is not valid JSON' });
    expect(seen).toHaveLength(0);
  });

  it('answers a non-JSON content type with a 400 naming it', async () => {
    const { handler } = setup();
    const response = await invoke(handler, proxyEventFor(sendRoute, { headers: { 'x-api-key': 'good-key', 'content-type': 'text/plain' }, body: '{}' }));
    expect(response.statusCode).toBe(400);
    expect(response.json.message).toContain('text/plain');
  });

  it('answers 429 with Retry-After and the wait in the body', async () => {
    const { handler, seen } = setup({ limiterAllows: false });
    const response = await invoke(handler, proxyEventFor(sendRoute, { headers: { 'x-api-key': 'good-key', 'content-type': 'application/json' }, body: '{}' }));
    expect(response.statusCode).toBe(429);
    expect(response.headers?.['Retry-After']).toBe('42');
    expect(response.json.retryAfterSeconds).toBe(42);
    expect(seen).toHaveLength(0);
  });

  it('exposes validation messages but never internal error details', async () => {
    const validation = setup({
      operation: async () => {
        throw new RequestValidationError('data[2].toPhoneNumber must contain digits only');
      },
    });
    const invalid = await invoke(
      validation.handler,
      proxyEventFor(sendRoute, { headers: { 'x-api-key': 'good-key', 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json.data.error.message).toBe('data[2].toPhoneNumber must contain digits only');

    const crash = await invoke(setup().handler, proxyEventFor(sendRoute, { headers: { 'x-api-key': 'bad-key' } }));
    expect(crash.statusCode).toBe(500);
    expect(crash.body).not.toContain('table xyz');
    expect(crash.body).not.toContain('at ');
    expect(crash.json.message).toBe('Internal Server Error');
  });

  it('reads bearer tokens for bearer surfaces and formats errors in that surface shape', async () => {
    const { handler, presented } = setup();
    const ok = await invoke(
      handler,
      proxyEventFor(organizationRoute, { headers: { authorization: 'Bearer good-token', 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(ok.statusCode).toBe(200);
    expect(presented).toEqual(['good-token']);

    const malformed = await invoke(
      handler,
      proxyEventFor(organizationRoute, { headers: { authorization: 'Bearer good-token', 'content-type': 'application/json' }, body: 'nope' }),
    );
    expect(malformed.json).toEqual({
      statusCode: 400,
      status: 'error',
      message: 'Request body is not valid JSON',
      data: { error: { message: 'Request body is not valid JSON' } },
    });
  });

  it('refuses to build when an operation of the manifest is missing', () => {
    expect(() => createGroupHandler({ group: 'broadcast-send', routes: [sendRoute], operations: {}, dependencies: () => ({}) as never })).toThrow(
      /no operation send/,
    );
  });
});

describe('a group without dependencies', () => {
  it('serves its routes without a rate class (the console, docs and health groups build none)', async () => {
    const route: RouteDefinition = {
      surface: 'broadcast',
      method: 'GET',
      path: '/broadcast/public/page',
      group: 'console',
      operation: 'page',
      auth: 'none',
      rateLimit: 'none',
    };
    const handler = createGroupHandler({
      group: 'console',
      routes: [route],
      operations: { page: httpOperation('none', async () => ({ statusCode: 200, body: { ok: true } })) },
    });
    expect((await handler(proxyEventFor(route), lambdaContext())).statusCode).toBe(200);
  });
});
