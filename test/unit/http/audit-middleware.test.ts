/**
 * The pipeline's audit record (shared/http/middlewares/audit.middleware.ts): what a state-changing
 * call with a caller leaves in the audit log, what leaves nothing, and that a failing log never
 * changes the answer.
 */
import type { RouteDefinition } from '../../../runtime-contract/route-manifest';
import { createGroupHandler } from '../../../shared/http/create-group-handler';
import { RequestValidationError } from '../../../shared/http/errors';
import { httpOperation, type AuthenticatedCaller, type HttpPipelineDependencies } from '../../../shared/http/http-operation';
import { logger } from '../../../shared/observability/logger';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { lambdaContext, proxyEventFor } from '../../support/api-gateway-event';
import { InMemoryAuditLog } from '../../support/in-memory-audit-log';

const route = (method: RouteDefinition['method'], path: string, operation: string, extra: Partial<RouteDefinition> = {}): RouteDefinition => ({
  surface: 'broadcast',
  method,
  path: `/broadcast/public${path}`,
  group: 'broadcast-send',
  operation,
  auth: 'broadcast-api-key',
  rateLimit: 'status',
  ...extra,
});
const cancel = route('POST', '/campaigns/{campaignId}/cancel', 'cancelCampaign', { body: 'none', people: 'campaign-manager' });
const read = route('GET', '/campaigns/{campaignId}', 'getCampaign');
const launch = route('POST', '/campaigns/{campaignId}/launch', 'launchCampaign', { body: 'none', dryRunRateLimit: 'broadcast-dry-run' });

const keyCaller: AuthenticatedCaller = { organizationId: 'org_1', credentialId: 'key_1', credentialKind: 'broadcast-api-key', scope: { kind: 'organization' } };
const personCaller: AuthenticatedCaller = {
  organizationId: 'org_1',
  credentialId: 'person:psn_0123456789abcdef0123',
  credentialKind: 'broadcast-api-key',
  scope: { kind: 'organization' },
  person: { personId: 'psn_0123456789abcdef0123', email: 'ada@example.com', role: 'campaign-manager' },
};

function setup(options: { fail?: Error; operationError?: Error } = {}) {
  const auditLog = new InMemoryAuditLog();
  auditLog.failWith = options.fail;
  let failures = 0;
  const dependencies: HttpPipelineDependencies = {
    authenticate: async (_kind, secret) => {
      if (secret === 'person-token') return personCaller;
      if (secret === 'key') return keyCaller;
      throw Object.assign(new Error('unknown key'), { code: 'INVALID_CREDENTIAL' });
    },
    rateLimiter: { consume: async () => ({ allowed: true, retryAfterSeconds: 0, remaining: 9 }) },
    clock: { now: () => new Date('2026-12-02T09:30:00.000Z') },
    auditLog,
    auditWriteFailed: () => {
      failures += 1;
    },
  };
  const answer = async () => {
    if (options.operationError) throw options.operationError;
    return { statusCode: 200, body: { ok: true } };
  };
  const handler = createGroupHandler({
    group: 'broadcast-send',
    routes: [cancel, read, launch],
    dependencies: () => dependencies,
    operations: {
      cancelCampaign: httpOperation('broadcast-api-key', answer),
      getCampaign: httpOperation('broadcast-api-key', answer),
      launchCampaign: httpOperation('broadcast-api-key', answer),
    },
  });
  const call = (target: RouteDefinition, key: string | undefined, query?: Record<string, string>) =>
    handler(
      proxyEventFor(target, { headers: key ? { 'x-api-key': key } : {}, pathParameters: { campaignId: 'cmp_7' }, sourceIp: '198.51.100.4', query }),
      lambdaContext(),
    );
  const entries = async () => (await auditLog.list({ organizationId: 'org_1', limit: 10 })).entries;
  return { call, entries, auditLog, failures: () => failures };
}

describe('the audit record', () => {
  it("records a person's call with who, when, from where, what and how it ended", async () => {
    const { call, entries } = setup();
    const answer = await call(cancel, 'person-token');
    expect(answer.statusCode).toBe(200);
    expect(await entries()).toEqual([
      {
        organizationId: 'org_1',
        entryId: expect.stringMatching(/^aud_20261202T093000000Z_[0-9a-f]{16}$/),
        at: '2026-12-02T09:30:00.000Z',
        actor: { kind: 'person', personId: 'psn_0123456789abcdef0123', email: 'ada@example.com', role: 'campaign-manager' },
        action: 'cancelCampaign',
        method: 'POST',
        path: '/prod/api/v2/broadcast/public/campaigns/cmp_7/cancel',
        target: { campaignId: 'cmp_7' },
        sourceIp: '198.51.100.4',
        statusCode: 200,
        outcome: 'succeeded',
        requestId: answer.headers!['X-Request-Id'],
      },
    ]);
  });

  it("records a refusal after authentication with the error's code, and the key as the actor", async () => {
    const { call, entries } = setup({ operationError: new RequestValidationError('campaignId must be a campaign id') });
    expect((await call(cancel, 'key')).statusCode).toBe(400);
    const [entry] = await entries();
    expect(entry).toMatchObject({
      actor: { kind: 'credential', credentialId: 'key_1', credentialKind: 'broadcast-api-key' },
      statusCode: 400,
      outcome: 'refused',
      errorCode: 'VALIDATION_FAILED',
    });
  });

  it('records a failure as failed (5xx) with its code', async () => {
    const { call, entries } = setup({ operationError: new StoreUnavailableError('table timed out') });
    expect((await call(cancel, 'key')).statusCode).toBe(503);
    expect(await entries()).toMatchObject([{ statusCode: 503, outcome: 'failed', errorCode: 'SERVICE_UNAVAILABLE' }]);
  });

  it('records nothing for a read, a call without a caller, or a dry run', async () => {
    const { call, entries, auditLog } = setup();
    expect((await call(read, 'key')).statusCode).toBe(200);
    expect((await call(cancel, 'wrong-key')).statusCode).toBe(401);
    expect((await call(cancel, undefined)).statusCode).toBe(401);
    expect((await call(launch, 'key', { dryRun: 'true' })).statusCode).toBe(200);
    expect(await entries()).toEqual([]);
    expect(auditLog.recordCalls).toBe(0);
    expect((await call(launch, 'key')).statusCode).toBe(200);
    expect((await entries()).map((entry) => entry.action)).toEqual(['launchCampaign']);
  });

  it('keeps the answer when the log is down: retried briefly, then logged without personal data and counted', async () => {
    const { call, auditLog, failures } = setup({ fail: new StoreUnavailableError('audit table timed out') });
    const errors = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    try {
      const answer = await call(cancel, 'person-token');
      expect(answer.statusCode).toBe(200);
      expect(JSON.parse(answer.body)).toEqual({ ok: true });
      expect(auditLog.recordCalls).toBe(3);
      expect(failures()).toBe(1);
      const logged = JSON.stringify(errors.mock.calls);
      expect(logged).toContain('audit entry not recorded');
      expect(logged).not.toContain('ada@example.com');
      expect(logged).not.toContain('198.51.100.4');
    } finally {
      errors.mockRestore();
    }
  });

  it('does not retry a failure a retry cannot mend, and still keeps the answer', async () => {
    const { call, auditLog, failures } = setup({ fail: new Error('AccessDeniedException') });
    jest.spyOn(logger, 'error').mockImplementationOnce(() => undefined);
    expect((await call(cancel, 'key')).statusCode).toBe(200);
    expect(auditLog.recordCalls).toBe(1);
    expect(failures()).toBe(1);
  });

  it('refuses to build a group with an audited route and no audit log', () => {
    const bare = {
      authenticate: async () => keyCaller,
      rateLimiter: { consume: async () => ({ allowed: true, retryAfterSeconds: 0, remaining: 1 }) },
      clock: { now: () => new Date() },
    };
    expect(() =>
      createGroupHandler({
        group: 'broadcast-send',
        routes: [cancel],
        dependencies: () => bare,
        operations: { cancelCampaign: httpOperation('broadcast-api-key', async () => ({ statusCode: 200, body: {} })) },
      }),
    ).toThrow('Group broadcast-send needs an auditLog for POST /broadcast/public/campaigns/{campaignId}/cancel (cancelCampaign)');
    expect(() =>
      createGroupHandler({
        group: 'broadcast-send',
        routes: [read],
        dependencies: () => bare,
        operations: { getCampaign: httpOperation('broadcast-api-key', async () => ({ statusCode: 200, body: {} })) },
      }),
    ).not.toThrow();
  });
});
