import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { RouteDefinition } from '../../../runtime-contract/route-manifest';
import { createGroupHandler } from '../../../shared/http/create-group-handler';
import { describeError, mappedErrorCodes } from '../../../shared/http/error-responses';
import { httpOperation, type AuthenticatedCaller, type HttpPipelineDependencies } from '../../../shared/http/http-operation';
import { jsonNestingExceeds } from '../../../shared/http/json-depth';
import { rateLimitBucket, senderNamedBy } from '../../../shared/http/middlewares/rate-limit.middleware';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { InvalidCredentialError, TenancyStoreUnavailableError } from '../../../shared/tenancy/errors';
import { RateLimitStoreUnavailableError } from '../../../shared/rate-limiting/errors';
import { TemplateContentError, TemplateNotSendableError } from '../../../shared/templates/errors';
import { lambdaContext, proxyEventFor } from '../../support/api-gateway-event';
import { InMemoryAuditLog } from '../../support/in-memory-audit-log';

const route = (surface: RouteDefinition['surface'], operation: string, auth: RouteDefinition['auth']): RouteDefinition => ({
  surface,
  method: 'POST',
  path: `/${surface}/${operation}`,
  group: 'broadcast-send',
  operation,
  auth,
  rateLimit: 'none',
});
const broadcastRoute = { ...route('broadcast', 'send', 'broadcast-api-key'), rateLimit: 'template-broadcast' as const };
const organizationRoute = route('organization', 'remove', 'organization-token');
const v1Route = route('v1', 'create', 'v1-api-key');
const upstreamRoute = route('upstream', 'pass', 'upstream-access-token');
const caller: AuthenticatedCaller = { organizationId: 'org_1', credentialId: 'cred_1', credentialKind: 'broadcast-api-key' };

function setup(options: { operationError?: Error; limiterError?: Error; caller?: AuthenticatedCaller } = {}) {
  const buckets: string[] = [];
  const senderChecks: string[] = [];
  const dependencies: HttpPipelineDependencies = {
    authenticate: async (_kind, secret) => {
      if (secret !== 'good') throw new InvalidCredentialError();
      return options.caller ?? caller;
    },
    rateLimiter: {
      consume: async (bucket) => {
        buckets.push(bucket);
        if (options.limiterError) throw options.limiterError;
        return { allowed: true, retryAfterSeconds: 0, remaining: 1 };
      },
    },
    clock: { now: () => new Date('2026-11-21T10:00:30Z') },
    auditLog: new InMemoryAuditLog(),
    senderNumbers: {
      isOrganizationNumber: async (organizationId, digits) => {
        senderChecks.push(digits);
        return organizationId === 'org_1' && ['15550001001', '15550001002'].includes(digits);
      },
    },
  };
  const ok = async () => {
    if (options.operationError) throw options.operationError;
    return { statusCode: 200, body: { ok: true } };
  };
  const handler = createGroupHandler({
    group: 'broadcast-send',
    routes: [broadcastRoute, organizationRoute, v1Route, upstreamRoute],
    dependencies: () => dependencies,
    operations: {
      send: httpOperation('broadcast-api-key', ok),
      remove: httpOperation('organization-token', ok),
      create: httpOperation('v1-api-key', ok),
      pass: httpOperation('upstream-access-token', ok),
    },
  });
  const call = async (target: RouteDefinition, body: string, secret = 'good') => {
    const headers: Record<string, string> = target.auth === 'broadcast-api-key' ? { 'x-api-key': secret } : { authorization: `Bearer ${secret}` };
    const result = await handler(proxyEventFor(target, { headers: { ...headers, 'content-type': 'application/json' }, body }), lambdaContext());
    return { ...result, json: JSON.parse(result.body) as Record<string, any> };
  };
  return { call, buckets, senderChecks };
}

const deep = (depth: number, inner = '1') => '['.repeat(depth) + inner + ']'.repeat(depth);

describe('JSON nesting limit', () => {
  it('counts brackets outside strings only, without recursion', () => {
    expect(jsonNestingExceeds(deep(64), 64)).toBe(false);
    expect(jsonNestingExceeds(deep(65), 64)).toBe(true);
    expect(jsonNestingExceeds(JSON.stringify({ text: '[[[[[[[[[[\\"{{{{{{{{' }), 3)).toBe(false);
    expect(jsonNestingExceeds(deep(1_000_000), 64)).toBe(true);
  });

  it('skips strings to their closing quote: escaped quotes and runs of backslashes', () => {
    // An even run of backslashes ends the string at the quote after it: the brackets after count.
    expect(jsonNestingExceeds('[["a\\\\"]]', 1)).toBe(true);
    expect(jsonNestingExceeds('["a\\\\",[[1]]]', 2)).toBe(true);
    // An odd run escapes the quote: the brackets after it are still inside the string.
    expect(jsonNestingExceeds('["a\\"[[[[\\"]', 1)).toBe(false);
    expect(jsonNestingExceeds('{"k\\"":[[[1]]]}', 3)).toBe(true);
    // An unterminated string hides whatever follows it.
    expect(jsonNestingExceeds('["[[[[[', 1)).toBe(false);
    expect(jsonNestingExceeds('"', 0)).toBe(false);
    const text = JSON.stringify({ recipients: Array.from({ length: 50 }, (_, index) => ({ to: `${index}`, parameters: [`a"[{\\${index}`, '\\'] })) });
    expect(jsonNestingExceeds(text, 4)).toBe(false);
    expect(jsonNestingExceeds(text, 3)).toBe(true);
  });

  it('agrees with a character-by-character count on short texts of quotes, backslashes and brackets', () => {
    const reference = (text: string, limit: number): boolean => {
      let depth = 0;
      let inString = false;
      for (let index = 0; index < text.length; index += 1) {
        const char = text[index];
        if (inString) {
          if (char === '\\') index += 1;
          else if (char === '"') inString = false;
        } else if (char === '"') inString = true;
        else if (char === '[' || char === '{') {
          depth += 1;
          if (depth > limit) return true;
        } else if (char === ']' || char === '}') depth -= 1;
      }
      return false;
    };
    const alphabet = ['"', '\\', '[', ']', '{', '}', 'a'];
    let seed = 40;
    const next = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % below;
    };
    for (let round = 0; round < 20_000; round += 1) {
      const text = Array.from({ length: next(14) }, () => alphabet[next(alphabet.length)]).join('');
      const limit = next(4);
      expect([text, limit, jsonNestingExceeds(text, limit)]).toEqual([text, limit, reference(text, limit)]);
    }
  });

  it.each([
    [
      'broadcast',
      broadcastRoute,
      (json: any) => expect(json).toMatchObject({ status: false, status_code: 400, data: { error: { code: 'JSON_NESTING_TOO_DEEP' } } }),
    ],
    ['organization', organizationRoute, (json: any) => expect(json).toMatchObject({ statusCode: 400, status: 'error' })],
    ['v1', v1Route, (json: any) => expect(json).toMatchObject({ success: false, error: { code: 'JSON_NESTING_TOO_DEEP' } })],
    ['upstream', upstreamRoute, (json: any) => expect(json).toMatchObject({ status: false, error: { type: 'JSON_NESTING_TOO_DEEP', code: 400 } })],
  ])('answers a 10,000-level body on the %s surface with a 400 in its shape', async (_surface, target, shape) => {
    const { call } = setup();
    for (const body of [deep(10_000), JSON.stringify({ fromPhoneNumber: '15550001001', data: [{ nested: JSON.parse(deep(100)) }] })]) {
      const response = await call(target, body);
      expect(response.statusCode).toBe(400);
      expect(response.json.message ?? response.json.error.message).toBe('Request body nests deeper than 64 levels');
      shape(response.json);
    }
  });

  it('answers a failed authentication before a body error (401 before 400)', async () => {
    const { call } = setup();
    expect((await call(broadcastRoute, deep(10_000), 'bad')).statusCode).toBe(401);
    expect((await call(broadcastRoute, '{"broken"', 'bad')).statusCode).toBe(401);
    expect((await call(broadcastRoute, '{"broken"', 'good')).statusCode).toBe(400);
  });
});

describe('security headers', () => {
  it('are on successes and on errors, and change no status or body', async () => {
    const { call } = setup();
    for (const response of [await call(broadcastRoute, '{}'), await call(broadcastRoute, '{', 'good'), await call(broadcastRoute, '{}', 'bad')]) {
      expect(response.headers).toMatchObject({ 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store', 'Content-Type': 'application/json' });
      expect(response.headers?.['Strict-Transport-Security']).toMatch(/^max-age=\d+/);
    }
  });
});

describe('store faults', () => {
  it.each([
    ['a store timeout', new StoreUnavailableError('Store unavailable: TimeoutError'), 503, 'SERVICE_UNAVAILABLE'],
    ['tenancy throttling', new TenancyStoreUnavailableError('Tenancy store unavailable: ThrottlingException'), 503, 'AUTH_STORE_UNAVAILABLE'],
    [
      'a validation error',
      Object.assign(new Error('One or more parameter values were invalid: table wbp-messaging'), { name: 'ValidationException' }),
      500,
      'INTERNAL_ERROR',
    ],
  ])('answer %s with %d, Retry-After only when a retry can help, nothing internal', async (_name, error, status, code) => {
    const { call } = setup({ operationError: error });
    const response = await call(v1Route, '{}');
    expect(response.statusCode).toBe(status);
    expect(response.json).toEqual({ success: false, error: { code, message: expect.any(String) } });
    expect(response.headers?.['Retry-After']).toBe(status === 503 ? '1' : undefined);
    expect(response.body).not.toMatch(/Timeout|Throttling|Validation|wbp-|table|at /);
  });

  it('a rate-limit store refusing a key is a 500, not a retryable 503', async () => {
    const { call } = setup({ limiterError: Object.assign(new Error('Key too large'), { name: 'ValidationException' }) });
    expect((await call(broadcastRoute, '{"fromPhoneNumber":"15550001001"}')).statusCode).toBe(500);
    const unavailable = setup({ limiterError: new RateLimitStoreUnavailableError('Rate-limit store unavailable') });
    const response = await unavailable.call(broadcastRoute, '{"fromPhoneNumber":"15550001001"}');
    expect(response.statusCode).toBe(503);
    expect(response.headers?.['Retry-After']).toBe('1');
  });
});

describe('rate-limit buckets', () => {
  it('scope only plausible phone numbers; anything else shares the key bucket', async () => {
    const { call, buckets } = setup();
    await call(broadcastRoute, JSON.stringify({ fromPhoneNumber: '15550001001' }));
    await call(broadcastRoute, JSON.stringify({ fromPhoneNumber: '1'.repeat(3000) }));
    await call(broadcastRoute, JSON.stringify({ fromPhoneNumber: JSON.parse(deep(60)) }));
    await call(broadcastRoute, JSON.stringify({ fromPhoneNumber: 15550001001 }));
    await call(broadcastRoute, '[]');
    expect(buckets).toEqual([
      'template-broadcast#cred_1#15550001001',
      'template-broadcast#cred_1#',
      'template-broadcast#cred_1#',
      'template-broadcast#cred_1#',
      'template-broadcast#cred_1#',
    ]);
  });

  it('gives a sender a bucket of its own only once it proves a number of the caller; rotating other numbers all count in the key bucket', async () => {
    const { call, buckets, senderChecks } = setup();
    for (const sender of ['15550001001', '15550009999', '447700900123', '15550001002', '15550001001']) {
      await call(broadcastRoute, JSON.stringify({ fromPhoneNumber: sender }));
    }
    expect(buckets).toEqual([
      'template-broadcast#cred_1#15550001001',
      'template-broadcast#cred_1#',
      'template-broadcast#cred_1#',
      'template-broadcast#cred_1#15550001002',
      'template-broadcast#cred_1#15550001001',
    ]);
    // Junk is never looked up: only plausible numbers reach the store.
    await call(broadcastRoute, JSON.stringify({ fromPhoneNumber: '1'.repeat(3000) }));
    expect(senderChecks).toHaveLength(5);
  });

  it('a key bound to a number gives only that number a bucket, without a read', async () => {
    const { call, buckets, senderChecks } = setup({ caller: { ...caller, scope: { kind: 'sender', phoneNumber: '15550001001' } } });
    await call(broadcastRoute, JSON.stringify({ fromPhoneNumber: '15550001001' }));
    await call(broadcastRoute, JSON.stringify({ fromPhoneNumber: '15550001002' }));
    expect(buckets).toEqual(['template-broadcast#cred_1#15550001001', 'template-broadcast#cred_1#']);
    expect(senderChecks).toEqual([]);
  });

  it('counts a dry run (?dryRun=true) in its own read-only class, any other value in the broadcast class', () => {
    const route = { ...broadcastRoute, rateLimit: 'template-broadcast' as const, dryRunRateLimit: 'broadcast-dry-run' as const };
    const request = (query: Record<string, string>) => ({ route, query, caller, body: { fromPhoneNumber: '15550001001' }, sourceIp: '1.2.3.4' });
    expect(rateLimitBucket(request({ dryRun: 'true' }) as never, '15550001001')).toEqual({
      bucket: 'broadcast-dry-run#cred_1#15550001001',
      limitPerMinute: 30,
    });
    expect(rateLimitBucket(request({ dryRun: 'false' }) as never, '15550001001')).toEqual({
      bucket: 'template-broadcast#cred_1#15550001001',
      limitPerMinute: 10,
    });
    expect(rateLimitBucket(request({}) as never, '15550001001')?.bucket).toBe('template-broadcast#cred_1#15550001001');
  });

  it('bounds the query scope of the templates class the same way', () => {
    const request = (phone: string) => ({
      route: { ...broadcastRoute, rateLimit: 'templates' as const },
      query: { phone_number: phone },
      caller,
      body: undefined,
      sourceIp: '1.2.3.4',
    });
    expect(senderNamedBy(request('15550100001') as never)).toBe('15550100001');
    expect(senderNamedBy(request('9'.repeat(2048)) as never)).toBe('');
    expect(rateLimitBucket(request('15550100001') as never, '15550100001')?.bucket).toBe('templates#cred_1#15550100001');
    expect(rateLimitBucket(request('9'.repeat(2048)) as never, '')?.bucket).toBe('templates#cred_1#');
  });

  it('keys minted by generate-key count in one bucket per sender number, whichever key calls; other keys keep their own', () => {
    const minted = (credentialId: string, phoneNumber: string): AuthenticatedCaller => ({
      organizationId: 'org_1',
      credentialId,
      credentialKind: 'broadcast-api-key',
      scope: { kind: 'earlier-sender', phoneNumber },
    });
    const request = (who: AuthenticatedCaller, rateLimit: 'earlier-send' | 'status') => ({
      route: { ...broadcastRoute, rateLimit },
      query: {},
      caller: who,
      body: {},
      sourceIp: '1.2.3.4',
    });
    const bucketOf = (who: AuthenticatedCaller, rateLimit: 'earlier-send' | 'status' = 'earlier-send') =>
      rateLimitBucket(request(who, rateLimit) as never, '')?.bucket;
    expect(bucketOf(minted('cred_a', '15550100001'))).toBe('earlier-send#minted:org_1:15550100001');
    expect(bucketOf(minted('cred_b', '15550100001'))).toBe(bucketOf(minted('cred_a', '15550100001')));
    expect(bucketOf(minted('cred_b', '15550100001'), 'status')).toBe('status#minted:org_1:15550100001');
    expect(bucketOf(minted('cred_c', '15550100002'))).toBe('earlier-send#minted:org_1:15550100002');
    expect(bucketOf({ ...caller, scope: { kind: 'sender', phoneNumber: '15550100001' } })).toBe('earlier-send#cred_1');
    expect(bucketOf(caller)).toBe('earlier-send#cred_1');
  });
});

describe('the error table', () => {
  const sources = readdirSync('shared')
    .map((module) => join('shared', module, 'errors.ts'))
    .filter((file) => existsSync(file));

  it('every error class of every module declares a unique code, and the table keys are codes of real classes', () => {
    const codes = new Map<string, string>();
    for (const file of sources) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/export class (\w+Error) extends \w+ \{([\s\S]*?)\n\}/g)) {
        const code = /readonly code(?::\s*string)?\s*=\s*'([A-Z_]+)'/.exec(match[2]!)?.[1];
        expect([match[1], code]).toEqual([match[1], expect.stringMatching(/^[A-Z][A-Z_]+$/)]);
        expect(codes.get(code!)).toBeUndefined();
        codes.set(code!, match[1]!);
      }
    }
    expect(codes.size).toBeGreaterThan(50);
    expect(mappedErrorCodes.filter((code) => !codes.has(code))).toEqual([]);
  });

  it('answers a rich template that does not fit, or cannot be sent by broadcast, with 400 and its own code and message', () => {
    expect(describeError(new TemplateContentError('data[2].header is required'), 'broadcast')).toMatchObject({
      statusCode: 400,
      code: 'TEMPLATE_CONTENT',
      message: 'data[2].header is required',
    });
    expect(describeError(new TemplateNotSendableError('template t cannot be sent by broadcast'), 'broadcast')).toMatchObject({
      statusCode: 400,
      code: 'TEMPLATE_NOT_SENDABLE',
    });
  });

  it('maps by code, not by class: a subclass with its own code gets its own answer', () => {
    class SomethingElseError extends StoreUnavailableError {
      override readonly code = 'NOT_IN_THE_TABLE';
    }
    expect(describeError(new SomethingElseError('x'), 'v1').statusCode).toBe(500);
    expect(describeError(new StoreUnavailableError('x'), 'v1')).toMatchObject({ statusCode: 503, retryAfterHeaderSeconds: 1 });
  });
});

describe('typed operations', () => {
  it('refuse to build a group whose operation declares another auth kind than its route', () => {
    expect(() =>
      createGroupHandler({
        group: 'broadcast-send',
        routes: [broadcastRoute],
        dependencies: () => ({}) as never,
        operations: { send: httpOperation('v1-api-key', async () => ({ statusCode: 200, body: {} })) },
      }),
    ).toThrow(/written for auth v1-api-key/);
  });
});
