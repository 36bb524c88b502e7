import http from 'node:http';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { startLocalGateway, type LocalGateway, type LocalGatewayOptions, type ProxyHandler } from '../../../local/gateway/local-gateway';
import { maxRequestBodyBytes, surfaces, type EndpointGroup, type RouteDefinition } from '../../../runtime-contract/route-manifest';
import { routeGuards } from '../../../runtime-contract/route-guards';
import { functions } from '../../../runtime-contract/resource-definitions';
import { gatewayRetryAfterSeconds, type SurfaceName } from '../../../runtime-contract/route-manifest';
import { describeError } from '../../../shared/http/error-responses';
import { errorBody } from '../../../shared/http/surface-responses';
import { RateLimitExceededError } from '../../../shared/rate-limiting/errors';
import { renderGatewayResponseBody } from '../../../local/gateway/gateway-responses';

/** The gateway is generic over group names: these stand for groups later issues add. */
const fakeGroup = (name: string) => name as EndpointGroup;

// A small fake route list on the real surfaces (their stages and gateway responses).
const route = (r: Partial<RouteDefinition> & Pick<RouteDefinition, 'method' | 'path' | 'group' | 'operation'>): RouteDefinition => ({
  surface: 'broadcast',
  auth: 'none',
  rateLimit: 'none',
  ...r,
});

const fakeRoutes: RouteDefinition[] = [
  route({ method: 'GET', path: '/things/{thingId}', group: 'broadcast-status', operation: 'getThing' }),
  route({ method: 'GET', path: '/things/special', group: 'broadcast-status', operation: 'getSpecial' }),
  route({ method: 'POST', path: '/things/{thingId}', group: 'broadcast-status', operation: 'postThing' }),
  route({ method: 'POST', path: '/things/{thingId}/parts/{partId}', group: 'broadcast-status', operation: 'postPart' }),
  route({ method: 'POST', path: '/echo', group: 'broadcast-send', operation: 'echo' }),
  route({ method: 'POST', path: '/upload', group: 'broadcast-send', operation: 'upload', body: 'multipart' }),
  route({ method: 'GET', path: '/keyed', group: 'broadcast-discovery', operation: 'keyed', auth: 'broadcast-api-key', rateLimit: 'template-broadcast' }),
  route({ method: 'POST', path: '/keyed', group: 'broadcast-discovery', operation: 'keyedPost', auth: 'broadcast-api-key', rateLimit: 'template-broadcast' }),
  route({ method: 'GET', path: '/keyed-unthrottled', group: 'broadcast-discovery', operation: 'keyedFree', auth: 'broadcast-api-key', rateLimit: 'none' }),
  // Guarded (runtime-contract/route-guards.ts): `health` 20/s burst 40, `key-generation` 5/s burst 10.
  route({ method: 'GET', path: '/guarded', group: 'broadcast-status', operation: 'guarded', guard: 'health' }),
  route({ method: 'POST', path: '/guarded', group: 'broadcast-status', operation: 'guardedPost', guard: 'health' }),
  route({
    method: 'GET',
    path: '/guarded-keyed',
    group: 'broadcast-discovery',
    operation: 'guardedKeyed',
    auth: 'broadcast-api-key',
    rateLimit: 'none',
    guard: 'key-generation',
  }),
  route({ method: 'GET', path: '/throws', group: 'health', operation: 'throws' }),
  route({ method: 'GET', path: '/malformed/{kind}', group: 'health', operation: 'malformed' }),
  route({ method: 'GET', path: '/shaped', group: 'health', operation: 'shaped' }),
  route({ method: 'GET', path: '/slow/{ms}', group: fakeGroup('upstream-wrapper'), operation: 'slow' }),
  route({ method: 'GET', path: '/broken', group: fakeGroup('v1-inbox'), operation: 'broken', surface: 'v1' }),
  route({
    method: 'POST',
    path: '/orgs/{orgId}/echo',
    group: fakeGroup('organization-admin'),
    operation: 'orgEcho',
    surface: 'organization',
    auth: 'organization-token',
    rateLimit: 'organization-admin',
  }),
  // On the webhooks surface, whose front door is an HTTP API (payload format 1.0).
  route({ method: 'POST', path: '/hook', group: fakeGroup('meta-webhook'), operation: 'hook', surface: 'webhooks', auth: 'meta-signature' }),
];

const json = (statusCode: number, body: unknown, headers?: Record<string, string>): APIGatewayProxyResult => ({
  statusCode,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(body),
});

interface Seen {
  event: APIGatewayProxyEvent;
  context: Context;
  remainingMs: number;
}

const echoHandler =
  (seen: Seen[]): ProxyHandler =>
  async (event, context) => {
    seen.push({ event, context, remainingMs: context.getRemainingTimeInMillis() });
    return json(200, { resource: event.resource, pathParameters: event.pathParameters });
  };

/** Unref'd, so a handler left running past its timeout does not keep jest alive. */
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

interface Harness {
  gateway: LocalGateway;
  seen: Seen[];
  loads: EndpointGroup[];
  invocations: Array<{ group: string; operation: string; statusCode: number; durationMs: number }>;
  clock: { now: number };
  enabledKeys: Set<string>;
  brokenLoads: { remaining: number };
}

const startHarness = async (overrides: Partial<LocalGatewayOptions> = {}): Promise<Harness> => {
  const seen: Seen[] = [];
  const loads: EndpointGroup[] = [];
  const invocations: Harness['invocations'] = [];
  const clock = { now: Date.UTC(2025, 0, 15, 10, 20, 30) };
  const enabledKeys = new Set(['key-enabled', 'key-other']);
  const brokenLoads = { remaining: 1 };
  const echo = echoHandler(seen);
  const handlers: Record<string, ProxyHandler> = {
    'broadcast-status': echo,
    'broadcast-send': echo,
    'broadcast-discovery': echo,
    'organization-admin': echo,
    'meta-webhook': echo,
    health: async (event, context) => {
      seen.push({ event, context, remainingMs: context.getRemainingTimeInMillis() });
      if (event.resource.endsWith('/throws')) throw new Error('boom');
      if (event.resource.endsWith('/shaped')) {
        return {
          statusCode: 201,
          headers: { 'X-Single': 'one', 'X-Both': 'from-headers', 'Content-Type': 'text/plain', 'X-Num': 7 as unknown as string },
          multiValueHeaders: { 'X-Multi': ['a', 'b'], 'X-Both': ['m1', 'm2'] },
          body: Buffer.from('binary\u0000ok').toString('base64'),
          isBase64Encoded: true,
        };
      }
      const kind = event.pathParameters?.kind;
      if (kind === 'object-body') return { statusCode: 200, body: { not: 'a string' } } as unknown as APIGatewayProxyResult;
      if (kind === 'no-status') return { body: 'x' } as unknown as APIGatewayProxyResult;
      if (kind === 'undefined') return undefined as unknown as APIGatewayProxyResult;
      if (kind === 'bad-header') return { statusCode: 200, headers: { a: { b: 1 } }, body: '' } as unknown as APIGatewayProxyResult;
      if (kind === 'no-body') return { statusCode: 204 } as unknown as APIGatewayProxyResult;
      return json(200, {});
    },
    'upstream-wrapper': async (event) => {
      await sleep(Number(event.pathParameters?.ms ?? 0));
      return json(200, { slept: Number(event.pathParameters?.ms) });
    },
  };
  const gateway = await startLocalGateway({
    port: 0,
    routes: fakeRoutes,
    loadHandler: async (group) => {
      loads.push(group);
      if ((group as string) === 'v1-inbox' && brokenLoads.remaining-- > 0) throw new Error('init failed');
      if ((group as string) === 'v1-inbox') return async () => json(200, { recovered: true });
      const handler = handlers[group];
      if (!handler) throw new Error(`no handler for ${group}`);
      return handler;
    },
    isApiKeyEnabled: async (apiKey) => enabledKeys.has(apiKey),
    onInvocation: (info) => invocations.push(info),
    now: () => clock.now,
    functionTimeoutMs: (group) => ((group as string) === 'upstream-wrapper' ? 300 : 5_000),
    ...overrides,
  });
  return { gateway, seen, loads, invocations, clock, enabledKeys, brokenLoads };
};

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  bytes: Buffer;
}

/** A plain HTTP request (no client-side header normalisation, exact bytes on the wire). */
const request = (
  gateway: LocalGateway,
  method: string,
  path: string,
  options: { headers?: Array<[string, string]>; body?: Buffer | string; chunks?: { count: number; size: number } } = {},
): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    // Raw header arrays keep the name case on the wire; Node then adds no Host header of its own.
    const rawHeaders: string[] = ['Host', `127.0.0.1:${gateway.port}`];
    for (const [name, value] of options.headers ?? []) rawHeaders.push(name, value);
    const req = http.request(
      { host: '127.0.0.1', port: gateway.port, method, path, headers: rawHeaders as unknown as http.OutgoingHttpHeaders, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: bytes.toString('utf8'), bytes });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    if (options.chunks) {
      const chunk = Buffer.alloc(options.chunks.size, 0x61);
      let sent = 0;
      const writeMore = (): void => {
        while (sent < options.chunks!.count) {
          sent++;
          if (!req.write(chunk)) {
            req.once('drain', writeMore);
            return;
          }
        }
        req.end();
      };
      req.on('error', () => undefined);
      writeMore();
    } else {
      req.end(options.body);
    }
  });

describe('local gateway', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.gateway.close();
  });
  beforeEach(() => {
    h.seen.length = 0;
    h.invocations.length = 0;
  });

  const lastEvent = (): APIGatewayProxyEvent => {
    const last = h.seen[h.seen.length - 1];
    if (!last) throw new Error('handler was not invoked');
    return last.event;
  };

  describe('routing', () => {
    it('matches a path template and passes path parameters', async () => {
      const res = await request(h.gateway, 'GET', '/prod/api/v2/things/abc-123');
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body)).toEqual({ resource: '/api/v2/things/{thingId}', pathParameters: { thingId: 'abc-123' } });
    });

    it('prefers static segments over {param} ones', async () => {
      await request(h.gateway, 'GET', '/prod/api/v2/things/special');
      expect(lastEvent().resource).toBe('/api/v2/things/special');
      expect(lastEvent().pathParameters).toBeNull();
    });

    it('passes several path parameters, percent-encoded as REST APIs deliver them', async () => {
      await request(h.gateway, 'POST', '/prod/api/v2/things/a%20b%2Fc/parts/p%40q');
      expect(lastEvent().pathParameters).toEqual({ thingId: 'a%20b%2Fc', partId: 'p%40q' });
      expect(lastEvent().path).toBe('/api/v2/things/a%20b%2Fc/parts/p%40q');
    });

    it('ignores a trailing slash', async () => {
      const res = await request(h.gateway, 'GET', '/prod/api/v2/things/xyz/');
      expect(res.status).toBe(200);
      expect(lastEvent().pathParameters).toEqual({ thingId: 'xyz' });
    });

    it('answers an unknown path of a surface with its MISSING_AUTHENTICATION_TOKEN response', async () => {
      const res = await request(h.gateway, 'GET', '/prod/api/v2/nothing-here');
      const definition = surfaces.broadcast.gatewayResponses.MISSING_AUTHENTICATION_TOKEN;
      expect(res.status).toBe(definition.statusCode);
      expect(res.headers['content-type']).toBe('application/json');
      expect(res.headers['x-amzn-errortype']).toBe('MissingAuthenticationTokenException');
      const requestId = res.headers['x-amzn-requestid'] as string;
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.parse(res.body)).toEqual(JSON.parse(definition.body.replace('$context.requestId', requestId)));
      expect(res.body).not.toContain('$context');
      expect(h.seen).toHaveLength(0);
    });

    it('answers a known path with an unknown method the same way', async () => {
      const res = await request(h.gateway, 'DELETE', '/prod/api/v2/things/abc');
      expect(res.status).toBe(404);
      expect(res.headers['x-amzn-errortype']).toBe('MissingAuthenticationTokenException');
      expect(h.seen).toHaveLength(0);
      // The most specific resource decides, as in API Gateway's resource tree: /things/special has no
      // POST, so POST /things/special does not fall back to POST /things/{thingId}.
      const res2 = await request(h.gateway, 'POST', '/prod/api/v2/things/special');
      expect(res2.status).toBe(404);
      expect(h.seen).toHaveLength(0);
      const res3 = await request(h.gateway, 'POST', '/prod/api/v2/things/other');
      expect(res3.status).toBe(200);
      expect(lastEvent().resource).toBe('/api/v2/things/{thingId}');
    });

    it('uses the gateway responses of the surface the stage belongs to', async () => {
      const res = await request(h.gateway, 'GET', '/v2/unknown');
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toEqual(JSON.parse(surfaces.organization.gatewayResponses.MISSING_AUTHENTICATION_TOKEN.body));
    });

    it("an HTTP API surface: payload 1.0's event (path with the stage, resource without) and HTTP API's own fixed refusals", async () => {
      expect(surfaces.webhooks.frontDoor).toBe('http-api');
      const res = await request(h.gateway, 'POST', '/hooks/hook', { headers: [['Content-Type', 'application/json']], body: '{}' });
      expect(res.status).toBe(200);
      expect(lastEvent()).toEqual(expect.objectContaining({ resource: '/hook', path: '/hooks/hook' }));
      expect(lastEvent().requestContext).toEqual(expect.objectContaining({ stage: 'hooks', resourcePath: '/hook', path: '/hooks/hook' }));
      const missing = await request(h.gateway, 'POST', '/hooks/nothing-here');
      expect(missing.status).toBe(404);
      expect(JSON.parse(missing.body)).toEqual({ message: 'Not Found' });
      expect(missing.headers['apigw-requestid']).toBeDefined();
      expect(missing.headers['x-amzn-errortype']).toBeUndefined();
      expect(surfaces.webhooks.gatewayResponses.THROTTLED).toEqual({ statusCode: 429, body: JSON.stringify({ message: 'Too Many Requests' }) });
    });

    it('answers a plain 404 outside every stage', async () => {
      const res = await request(h.gateway, 'GET', '/nostage/api/v2/things/1');
      expect(res.status).toBe(404);
      expect(JSON.parse(res.body)).toEqual({ message: 'Not Found' });
      expect(res.headers['x-amzn-requestid']).toBeDefined();
    });

    it("answers GET / with API Gateway's 404 unless the runtime gives it an index", async () => {
      const res = await request(h.gateway, 'GET', '/');
      expect(res.status).toBe(404);
      const indexed = await startHarness({ indexLinks: () => ({ sandbox: 'http://127.0.0.1:4010' }) });
      try {
        const index = await request(indexed.gateway, 'GET', '/');
        expect(index.status).toBe(200);
        const body = JSON.parse(index.body);
        const origin = indexed.gateway.url.replace(/\/$/, '');
        expect(body.sandbox).toBe('http://127.0.0.1:4010');
        expect(body.surfaces.broadcast).toEqual({ url: `${origin}/prod/api/v2`, description: surfaces.broadcast.description });
        expect(Object.keys(body.surfaces).sort()).toEqual(Object.keys(surfaces).sort());
      } finally {
        await indexed.gateway.close();
      }
    });

    it('serves every surface at /{stage}{basePath}{path}', async () => {
      const res = await request(h.gateway, 'POST', '/v2/orgs/o1/echo', { headers: [['Content-Type', 'application/json']], body: '{}' });
      expect(res.status).toBe(200);
      expect(lastEvent().requestContext.stage).toBe('v2');
      expect(lastEvent().resource).toBe('/orgs/{orgId}/echo');
      expect(lastEvent().requestContext.apiId).not.toBe('');
    });
  });

  describe('event', () => {
    it('builds the REST proxy event as API Gateway does', async () => {
      await request(h.gateway, 'GET', '/prod/api/v2/things/t1?a=1&b=x+y&a=2&c=%3D%26&flag', {
        headers: [
          ['X-Custom-Header', 'first'],
          ['x-custom-header', 'lower'],
          ['X-Repeat', 'r1'],
          ['X-Repeat', 'r2'],
          ['User-Agent', 'jest-agent/1.0'],
        ],
      });
      const event = lastEvent();
      expect(event.resource).toBe('/api/v2/things/{thingId}');
      expect(event.path).toBe('/api/v2/things/t1');
      expect(event.httpMethod).toBe('GET');
      expect(event.stageVariables).toBeNull();
      expect(event.body).toBeNull();
      expect(event.isBase64Encoded).toBe(false);
      // Header names keep the client's case; `headers` keeps the last value of a repeated header.
      expect(event.headers['X-Custom-Header']).toBe('first');
      expect(event.headers['x-custom-header']).toBe('lower');
      expect(event.headers['X-Repeat']).toBe('r2');
      expect(event.multiValueHeaders['X-Repeat']).toEqual(['r1', 'r2']);
      expect(event.headers['User-Agent']).toBe('jest-agent/1.0');
      expect(event.headers['X-Forwarded-For']).toBe('127.0.0.1');
      expect(event.headers['X-Forwarded-Proto']).toBe('http');
      expect(event.headers['X-Amzn-Trace-Id']).toMatch(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/);
      // Query strings: decoded, last value in the single map, all values in the multi map.
      expect(event.queryStringParameters).toEqual({ a: '2', b: 'x y', c: '=&', flag: '' });
      expect(event.multiValueQueryStringParameters).toEqual({ a: ['1', '2'], b: ['x y'], c: ['=&'], flag: [''] });

      const rc = event.requestContext;
      expect(rc.accountId).toBe('000000000000');
      expect(rc.stage).toBe('prod');
      expect(rc.path).toBe('/prod/api/v2/things/t1');
      expect(rc.resourcePath).toBe('/api/v2/things/{thingId}');
      expect(rc.httpMethod).toBe('GET');
      expect(rc.protocol).toBe('HTTP/1.1');
      expect(rc.requestId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(rc.extendedRequestId).toEqual(expect.any(String));
      expect(rc.requestTimeEpoch).toBe(h.clock.now);
      expect(rc.requestTime).toBe('15/Jan/2025:10:20:30 +0000');
      expect(rc.resourceId).toMatch(/^[a-z0-9]{6}$/);
      expect(rc.apiId).toMatch(/^[a-z0-9]{10}$/);
      expect(rc.domainName).toBe(`127.0.0.1:${h.gateway.port}`);
      expect(rc.domainPrefix).toBe(rc.apiId);
      expect(rc.authorizer).toBeNull();
      expect(rc.identity.sourceIp).toBe('127.0.0.1');
      expect(rc.identity.userAgent).toBe('jest-agent/1.0');
      expect(rc.identity.apiKey).toBeNull();
      expect(rc.identity.apiKeyId).toBeNull();
    });

    it('keeps apiId stable per surface and resourceId stable per resource', async () => {
      await request(h.gateway, 'GET', '/prod/api/v2/things/one');
      await request(h.gateway, 'GET', '/prod/api/v2/things/two');
      await request(h.gateway, 'GET', '/prod/api/v2/things/special');
      const [a, b, c] = h.seen.map((s) => s.event.requestContext);
      expect(a!.apiId).toBe(b!.apiId);
      expect(a!.apiId).toBe(c!.apiId);
      expect(a!.resourceId).toBe(b!.resourceId);
      expect(a!.resourceId).not.toBe(c!.resourceId);
      expect(a!.requestId).not.toBe(b!.requestId);
    });

    it('gives null query and path parameter maps when there are none', async () => {
      await request(h.gateway, 'POST', '/prod/api/v2/echo?');
      expect(lastEvent().queryStringParameters).toBeNull();
      expect(lastEvent().multiValueQueryStringParameters).toBeNull();
      expect(lastEvent().pathParameters).toBeNull();
    });

    it('passes a JSON body as text', async () => {
      const payload = JSON.stringify({ hello: 'wörld' });
      await request(h.gateway, 'POST', '/prod/api/v2/echo', { headers: [['Content-Type', 'application/json; charset=utf-8']], body: payload });
      expect(lastEvent().body).toBe(payload);
      expect(lastEvent().isBase64Encoded).toBe(false);
    });

    it('passes a multipart/form-data body base64-encoded', async () => {
      const boundary = 'XyZ';
      const bytes = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        Buffer.from([0x00, 0xff, 0xfe, 0x80, 0x01]),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      await request(h.gateway, 'POST', '/prod/api/v2/upload', {
        headers: [['Content-Type', `multipart/form-data; boundary=${boundary}`]],
        body: bytes,
      });
      expect(lastEvent().isBase64Encoded).toBe(true);
      expect(Buffer.from(lastEvent().body!, 'base64').equals(bytes)).toBe(true);
    });

    it('gives the handler a Lambda context honouring the function timeout', async () => {
      await request(h.gateway, 'GET', '/prod/api/v2/things/ctx');
      const last = h.seen[h.seen.length - 1]!;
      expect(last.context.functionName).toBe('local-broadcast-status');
      expect(last.context.functionVersion).toBe('$LATEST');
      expect(last.context.invokedFunctionArn).toMatch(/^arn:aws:lambda:[a-z0-9-]+:000000000000:function:local-broadcast-status$/);
      expect(last.context.memoryLimitInMB).toBe(String(functions['broadcast-status'].memoryMb));
      expect(last.context.awsRequestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(last.context.awsRequestId).not.toBe(last.event.requestContext.requestId);
      expect(last.context.callbackWaitsForEmptyEventLoop).toBe(true);
      expect(last.context.logGroupName).toBe('/aws/lambda/local-broadcast-status');
      expect(last.remainingMs).toBeGreaterThan(4_000);
      expect(last.remainingMs).toBeLessThanOrEqual(5_000);
    });
  });

  describe('body cap', () => {
    it('answers REQUEST_TOO_LARGE for a declared length over the cap without reading it', async () => {
      const body = Buffer.alloc(maxRequestBodyBytes + 1, 0x61);
      const res = await request(h.gateway, 'POST', '/prod/api/v2/echo', { headers: [['Content-Type', 'application/json']], body });
      expect(res.status).toBe(413);
      const requestId = res.headers['x-amzn-requestid'] as string;
      expect(JSON.parse(res.body)).toEqual(JSON.parse(surfaces.broadcast.gatewayResponses.REQUEST_TOO_LARGE.body.replace('$context.requestId', requestId)));
      expect(h.seen).toHaveLength(0);
    });

    it('stops reading a chunked body once it passes the cap', async () => {
      const res = await request(h.gateway, 'POST', '/prod/api/v2/echo', {
        headers: [
          ['Content-Type', 'application/json'],
          ['Transfer-Encoding', 'chunked'],
        ],
        chunks: { count: 11, size: 1024 * 1024 },
      });
      expect(res.status).toBe(413);
      expect(h.seen).toHaveLength(0);
    });

    it('accepts a body of exactly the cap', async () => {
      const res = await request(h.gateway, 'POST', '/prod/api/v2/echo', {
        headers: [['Content-Type', 'text/plain']],
        body: Buffer.alloc(maxRequestBodyBytes, 0x62),
      });
      expect(res.status).toBe(200);
      expect(lastEvent().body).toHaveLength(maxRequestBodyBytes);
    });
  });

  describe('API keys and usage-plan throttling', () => {
    it('answers API_KEY without an x-api-key header', async () => {
      const res = await request(h.gateway, 'GET', '/prod/api/v2/keyed');
      expect(res.status).toBe(401);
      const requestId = res.headers['x-amzn-requestid'] as string;
      const expected = JSON.parse(surfaces.broadcast.gatewayResponses.API_KEY.body.replace('$context.requestId', requestId));
      expect(JSON.parse(res.body)).toEqual(expected);
      expect(JSON.parse(res.body).requestId).toBe(requestId);
      expect(h.seen).toHaveLength(0);
    });

    it('answers API_KEY for a key that is not enabled', async () => {
      const res = await request(h.gateway, 'GET', '/prod/api/v2/keyed', { headers: [['x-api-key', 'key-unknown']] });
      expect(res.status).toBe(401);
      expect(h.seen).toHaveLength(0);
    });

    it('passes an enabled key to the handler in the identity', async () => {
      const res = await request(h.gateway, 'GET', '/prod/api/v2/keyed-unthrottled', { headers: [['X-API-Key', 'key-enabled']] });
      expect(res.status).toBe(200);
      expect(lastEvent().requestContext.identity.apiKey).toBe('key-enabled');
      expect(lastEvent().requestContext.identity.apiKeyId).toMatch(/^[a-z0-9]{10}$/);
    });

    it('throttles per key and method with a token bucket that refills', async () => {
      const { rateLimit, burstLimit } = { rateLimit: 2, burstLimit: 20 }; // template-broadcast
      const call = (key: string, method = 'GET') => request(h.gateway, method, '/prod/api/v2/keyed', { headers: [['x-api-key', key]] }).then((r) => r.status);
      const burst = await Promise.all(Array.from({ length: burstLimit }, () => call('key-enabled')));
      expect(burst.every((s) => s === 200)).toBe(true);

      const throttled = await request(h.gateway, 'GET', '/prod/api/v2/keyed', { headers: [['x-api-key', 'key-enabled']] });
      expect(throttled.status).toBe(429);
      expect(throttled.headers['retry-after']).toBe('1');
      const requestId = throttled.headers['x-amzn-requestid'] as string;
      // The application's 429 shape, filled from the request as API Gateway fills $context.
      expect(JSON.parse(throttled.body)).toEqual({
        statusCode: 429,
        timestamp: '15/Jan/2025:10:20:30 +0000',
        path: '/prod/api/v2/keyed',
        method: 'GET',
        requestId,
        message: 'Too many requests for this API key',
        status: false,
        status_code: 429,
        retryAfterSeconds: 1,
        data: { error: { code: 'RATE_LIMITED', message: 'Too many requests for this API key', retryAfterSeconds: 1 } },
      });

      // Another key and another method of the same key have their own buckets.
      expect(await call('key-other')).toBe(200);
      expect(await call('key-enabled', 'POST')).toBe(200);

      // Refill: rateLimit tokens per second.
      h.clock.now += 1000 / rateLimit;
      expect(await call('key-enabled')).toBe(200);
      expect(await call('key-enabled')).toBe(429);
      h.clock.now += 1000;
      expect(await call('key-enabled')).toBe(200);
      expect(await call('key-enabled')).toBe(200);
      expect(await call('key-enabled')).toBe(429);
      // A long pause refills up to the burst, not beyond.
      h.clock.now += 60_000;
      const again = await Promise.all(Array.from({ length: burstLimit + 1 }, () => call('key-enabled')));
      expect(again.filter((s) => s === 200)).toHaveLength(burstLimit);
      expect(again.filter((s) => s === 429)).toHaveLength(1);
    });

    it('does not throttle routes whose class has no usage-plan throttle', async () => {
      const statuses = await Promise.all(
        Array.from({ length: 30 }, () =>
          request(h.gateway, 'GET', '/prod/api/v2/keyed-unthrottled', { headers: [['x-api-key', 'key-enabled']] }).then((r) => r.status),
        ),
      );
      expect(statuses.every((s) => s === 200)).toBe(true);
    });

    it("throttles a guarded method for all callers together with the guard's own token bucket", async () => {
      const { rateLimit, burstLimit } = routeGuards.health.methodThrottle;
      const call = (method = 'GET') => request(h.gateway, method, '/prod/api/v2/guarded').then((r) => r.status);
      const burst = await Promise.all(Array.from({ length: burstLimit }, () => call()));
      expect(burst.every((s) => s === 200)).toBe(true);

      const throttled = await request(h.gateway, 'GET', '/prod/api/v2/guarded');
      expect(throttled.status).toBe(429);
      expect(throttled.headers['retry-after']).toBe('1');
      // The stage's THROTTLED gateway response, as API Gateway answers a method throttle.
      expect(JSON.parse(throttled.body).data.error.code).toBe('RATE_LIMITED');
      expect(h.seen.filter((seen) => seen.event.resource.endsWith('/guarded'))).toHaveLength(burstLimit);

      // The other method of the resource has its own bucket; unguarded routes have none.
      expect(await call('POST')).toBe(200);
      expect(await request(h.gateway, 'POST', '/prod/api/v2/echo').then((r) => r.status)).toBe(200);

      // Refill: rateLimit tokens per second, up to the burst.
      h.clock.now += 1000;
      const refilled = await Promise.all(Array.from({ length: rateLimit + 1 }, () => call()));
      expect(refilled.filter((s) => s === 200)).toHaveLength(rateLimit);
      expect(refilled.filter((s) => s === 429)).toHaveLength(1);
    });

    it('counts every key of a keyed guarded method in the one method bucket', async () => {
      const { burstLimit } = routeGuards['key-generation'].methodThrottle;
      const call = (key: string) => request(h.gateway, 'GET', '/prod/api/v2/guarded-keyed', { headers: [['x-api-key', key]] }).then((r) => r.status);
      const statuses = await Promise.all(Array.from({ length: burstLimit }, (_, index) => call(index % 2 === 0 ? 'key-enabled' : 'key-other')));
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(await call('key-other')).toBe(429);
      expect(await call('key-enabled')).toBe(429);
      // A refused key still answers API_KEY first: the method's bucket is not spent on it.
      expect(await call('key-unknown')).toBe(401);
    });

    it('checks no key on routes that do not require one', async () => {
      const res = await request(h.gateway, 'POST', '/v2/orgs/o1/echo', { headers: [['x-api-key', 'whatever']] });
      expect(res.status).toBe(200);
      expect(lastEvent().requestContext.identity.apiKey).toBeNull();
    });
  });

  describe('integration errors', () => {
    it('answers 502 Internal server error when the handler throws', async () => {
      const res = await request(h.gateway, 'GET', '/prod/api/v2/throws');
      expect(res.status).toBe(502);
      expect(JSON.parse(res.body)).toEqual({ message: 'Internal server error' });
      expect(res.headers['x-amzn-requestid']).toBeDefined();
      expect(h.invocations).toEqual([expect.objectContaining({ group: 'health', operation: 'throws', statusCode: 502 })]);
    });

    it.each(['object-body', 'no-status', 'undefined', 'bad-header'])('answers 502 for a malformed proxy result (%s)', async (kind) => {
      const res = await request(h.gateway, 'GET', `/prod/api/v2/malformed/${kind}`);
      expect(res.status).toBe(502);
      expect(JSON.parse(res.body)).toEqual({ message: 'Internal server error' });
    });

    it('accepts a result without a body', async () => {
      const res = await request(h.gateway, 'GET', '/prod/api/v2/malformed/no-body');
      expect(res.status).toBe(204);
      expect(res.body).toBe('');
    });

    it("answers 502 when the function runs past its own timeout (Lambda's timeout error)", async () => {
      const started = Date.now();
      const res = await request(h.gateway, 'GET', '/prod/api/v2/slow/2000');
      expect(res.status).toBe(502);
      expect(JSON.parse(res.body)).toEqual({ message: 'Internal server error' });
      expect(Date.now() - started).toBeLessThan(1_500);
    });

    it('answers 502 when the handler module fails to load, and retries the load on the next request', async () => {
      const first = await request(h.gateway, 'GET', '/v1/broken');
      expect(first.status).toBe(502);
      const second = await request(h.gateway, 'GET', '/v1/broken');
      expect(second.status).toBe(200);
      expect(JSON.parse(second.body)).toEqual({ recovered: true });
      expect(h.loads.filter((g) => (g as string) === 'v1-inbox')).toHaveLength(2);
    });
  });

  describe('responses', () => {
    it('merges headers and multiValueHeaders, decodes base64 bodies and adds the request id', async () => {
      const res = await request(h.gateway, 'GET', '/prod/api/v2/shaped');
      expect(res.status).toBe(201);
      expect(res.bytes.equals(Buffer.from('binary\u0000ok'))).toBe(true);
      expect(res.headers['x-single']).toBe('one');
      expect(res.headers['x-num']).toBe('7');
      expect(res.headers['x-multi']).toBe('a, b');
      expect(res.headers['x-both']).toBe('m1, m2');
      expect(res.headers['content-type']).toBe('text/plain');
      expect(res.headers['x-amzn-requestid']).toBe(lastEvent().requestContext.requestId);
      expect(res.headers['x-amz-apigw-id']).toBe(lastEvent().requestContext.extendedRequestId);
    });

    it('defaults Content-Type to application/json', async () => {
      const res = await request(h.gateway, 'GET', '/prod/api/v2/malformed/ok');
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json');
    });
  });

  describe('invocation', () => {
    it('loads each group handler once', async () => {
      await Promise.all(Array.from({ length: 10 }, (_, i) => request(h.gateway, 'GET', `/prod/api/v2/things/${i}`)));
      expect(h.loads.filter((g) => g === 'broadcast-status')).toHaveLength(1);
    });

    it('serves requests concurrently', async () => {
      const started = Date.now();
      const statuses = await Promise.all(Array.from({ length: 8 }, () => request(h.gateway, 'GET', '/prod/api/v2/slow/150').then((r) => r.status)));
      expect(statuses.every((s) => s === 200)).toBe(true);
      expect(Date.now() - started).toBeLessThan(8 * 150);
    });

    it('reports each invocation', async () => {
      await request(h.gateway, 'GET', '/prod/api/v2/things/x');
      await request(h.gateway, 'GET', '/prod/api/v2/unknown');
      expect(h.invocations).toEqual([{ group: 'broadcast-status', operation: 'getThing', statusCode: 200, durationMs: expect.any(Number) }]);
    });
  });
});

describe('local gateway integration timeout', () => {
  it('answers 504 Endpoint request timed out when the integration timeout comes first', async () => {
    const h = await startHarness({ functionTimeoutMs: () => 5_000, integrationTimeoutMs: 200 });
    try {
      const started = Date.now();
      const res = await request(h.gateway, 'GET', '/prod/api/v2/slow/1000');
      expect(res.status).toBe(504);
      expect(JSON.parse(res.body)).toEqual({ message: 'Endpoint request timed out' });
      expect(Date.now() - started).toBeLessThan(900);
      expect(h.invocations).toEqual([expect.objectContaining({ group: fakeGroup('upstream-wrapper'), statusCode: 504 })]);
    } finally {
      await h.gateway.close();
    }
  });

  it('uses the function timeouts of the resource definitions by default', async () => {
    const h = await startHarness({ functionTimeoutMs: undefined });
    try {
      await request(h.gateway, 'GET', '/prod/api/v2/things/ctx');
      // broadcast-status: 10 s in runtime-contract/resource-definitions.
      expect(h.seen[0]!.remainingMs).toBeGreaterThan(9_000);
      expect(h.seen[0]!.remainingMs).toBeLessThanOrEqual(10_000);
    } finally {
      await h.gateway.close();
    }
  });
});

/** Keys and value types, recursively: two bodies of the same shape compare equal. */
const shapeOf = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(shapeOf)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shapeOf(inner)]))
      : typeof value;

describe("the usage plan's 429 has the application's 429 shape on every surface", () => {
  const context = {
    requestId: 'c0ffee00-0000-4000-8000-000000000001',
    path: '/stage/some/path',
    httpMethod: 'POST',
    requestTime: '15/Jan/2025:10:20:30 +0000',
  };
  const applicationTooManyRequests = (surface: SurfaceName) =>
    errorBody(surface, describeError(new RateLimitExceededError(7, 60), surface), {
      requestId: context.requestId,
      path: context.path,
      method: 'POST',
      timestamp: new Date(0).toISOString(),
    });

  // An HTTP API's 429 is its own fixed answer (no gateway responses): asserted in "an HTTP API surface" above.
  it.each((Object.keys(surfaces) as SurfaceName[]).filter((surface) => surfaces[surface].frontDoor === 'rest-api'))(
    '%s: THROTTLED and QUOTA_EXCEEDED, with Retry-After and the same wait in the body',
    (surface) => {
      for (const kind of ['THROTTLED', 'QUOTA_EXCEEDED'] as const) {
        const response = surfaces[surface].gatewayResponses[kind];
        const body = JSON.parse(renderGatewayResponseBody(response.body, context)) as Record<string, unknown>;
        expect(response.statusCode).toBe(429);
        expect(response.headers).toEqual({ 'Retry-After': String(gatewayRetryAfterSeconds[kind]) });
        expect(shapeOf(body)).toEqual(shapeOf(applicationTooManyRequests(surface)));
        // Where the application's 429 says how long to wait, the gateway's says it too, as the header does.
        if ('retryAfterSeconds' in applicationTooManyRequests(surface)) expect(body.retryAfterSeconds).toBe(gatewayRetryAfterSeconds[kind]);
        expect(JSON.stringify(body)).not.toContain('$context');
      }
    },
  );

  it('substitutes $context values JSON-escaped, leaving the template valid JSON', () => {
    const body = renderGatewayResponseBody(surfaces.broadcast.gatewayResponses.THROTTLED.body, { ...context, path: '/prod/a"b\\c' });
    expect(JSON.parse(body).path).toBe('/prod/a"b\\c');
  });
});
