/** The five routes through the real pipeline on in-memory ports: envelopes, statuses, scope. */
import { webhookOperations } from '../../../functions/broadcast-webhooks/operations';
import { serviceRoutesOf, type RouteDefinition } from '../../../runtime-contract/route-manifest';
import { randomSecretGenerator } from '../../../shared/crypto/secret-generator';
import type { BroadcastWebhooksServices } from '../../../functions/broadcast-webhooks/broadcast-webhooks.composition';
import { createGroupHandler } from '../../../shared/http/create-group-handler';
import type { AuthenticatedCaller, HttpPipelineDependencies } from '../../../shared/http/http-operation';
import { fixedClock } from '../../../shared/ports/clock';
import { sequentialIdGenerator } from '../../../shared/ports/id-generator';
import { lambdaContext, proxyEventFor } from '../../support/api-gateway-event';
import { InMemoryRedeliveryQuota } from '../../support/customer-event-fairness-fakes';
import { InMemoryEventLog, InMemoryWebhookRegistry, RecordingPublisher, tableResolver } from '../../support/webhook-fakes';
import { InMemoryAuditLog } from '../../support/in-memory-audit-log';

const keys: Record<string, AuthenticatedCaller> = {
  'key-a': { organizationId: 'org_a', credentialId: 'cred_a', credentialKind: 'broadcast-api-key', scope: { kind: 'organization' } },
  'key-b': { organizationId: 'org_b', credentialId: 'cred_b', credentialKind: 'broadcast-api-key', scope: { kind: 'organization' } },
  'key-bound': { organizationId: 'org_a', credentialId: 'cred_c', credentialKind: 'broadcast-api-key', scope: { kind: 'sender', phoneNumber: '15550001' } },
};

function setup(options: { redeliveriesPerDay?: number } = {}) {
  const registry = new InMemoryWebhookRegistry();
  const publisher = new RecordingPublisher();
  const eventLog = new InMemoryEventLog();
  const clock = fixedClock('2026-03-01T12:00:00.000Z');
  const dependencies: BroadcastWebhooksServices & HttpPipelineDependencies = {
    authenticate: async (_kind, secret) => {
      const caller = keys[secret ?? ''];
      if (!caller) throw Object.assign(new Error('unknown'), { code: 'INVALID_CREDENTIAL' });
      return caller;
    },
    rateLimiter: { consume: async () => ({ allowed: true, retryAfterSeconds: 0, remaining: 29 }) },
    clock,
    registry,
    auditLog: new InMemoryAuditLog(),
    resolver: tableResolver({ 'hooks.example.com': ['93.184.216.34'] }),
    secrets: randomSecretGenerator,
    ids: sequentialIdGenerator(),
    urlPolicy: { allowInsecureLocalReceivers: false },
    publisher,
    eventLog,
    redeliveryQuota: new InMemoryRedeliveryQuota(),
    redeliveriesPerDay: options.redeliveriesPerDay ?? 5_000,
  };
  const handler = createGroupHandler<BroadcastWebhooksServices>({
    group: 'broadcast-webhooks',
    operations: webhookOperations,
    dependencies: () => dependencies,
  });
  const routes = serviceRoutesOf('broadcast-webhooks');
  const route = (operation: string): RouteDefinition => routes.find((candidate) => candidate.operation === operation)!;
  const callWithHeaders = async (operation: string, options: { key?: string; body?: unknown; webhookId?: string } = {}) => {
    const event = proxyEventFor(route(operation), {
      headers: { 'x-api-key': options.key ?? 'key-a', ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: options.body === undefined ? null : JSON.stringify(options.body),
      pathParameters: options.webhookId === undefined ? undefined : { webhookId: options.webhookId },
    });
    const result = await handler(event, lambdaContext());
    return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body) };
  };
  const call = async (operation: string, options: { key?: string; body?: unknown; webhookId?: string } = {}) => {
    const { status, body } = await callWithHeaders(operation, options);
    return { status, body };
  };
  return { call, callWithHeaders, registry, publisher, eventLog };
}

test('the manifest serves the five routes on the broadcast surface with one rate class', () => {
  expect(serviceRoutesOf('broadcast-webhooks').map((route) => `${route.method} ${route.path} ${route.auth} ${route.rateLimit}`)).toEqual([
    'POST /broadcast/public/webhooks broadcast-api-key webhooks',
    'GET /broadcast/public/webhooks broadcast-api-key webhooks',
    'DELETE /broadcast/public/webhooks/{webhookId} broadcast-api-key webhooks',
    'POST /broadcast/public/webhooks/{webhookId}/test broadcast-api-key webhooks',
    'POST /broadcast/public/webhooks/{webhookId}/redeliver broadcast-api-key webhooks',
  ]);
});

test('register 201 with the secret once; list 200 without it; delete 200; then 404', async () => {
  const { call } = setup();
  const created = await call('registerWebhook', { body: { url: 'https://hooks.example.com/in', events: ['message.status'] } });
  expect(created).toEqual({
    status: 201,
    body: {
      status: true,
      status_code: 201,
      message: expect.stringContaining('store the secret now'),
      data: { id: 'whk_0001', url: 'https://hooks.example.com/in', events: ['message.status'], secret: expect.stringMatching(/^whsec_/) },
    },
  });
  const listed = await call('listWebhooks');
  expect(listed).toEqual({
    status: 200,
    body: {
      status: true,
      status_code: 200,
      message: '1 webhook endpoint(s)',
      data: {
        webhooks: [{ id: 'whk_0001', url: 'https://hooks.example.com/in', events: ['message.status'], state: 'ACTIVE', createdAt: '2026-03-01T12:00:00.000Z' }],
      },
    },
  });
  expect(JSON.stringify(listed.body)).not.toContain(created.body.data.secret);
  expect(await call('deleteWebhook', { webhookId: 'whk_0001' })).toMatchObject({ status: 200, body: { status: true, data: { id: 'whk_0001' } } });
  expect(await call('deleteWebhook', { webhookId: 'whk_0001' })).toMatchObject({
    status: 404,
    body: { status: false, status_code: 404, data: { error: { code: 'WEBHOOK_NOT_FOUND' } } },
  });
});

test('test 202 with the event id; redeliver 202 with the count', async () => {
  const { call, publisher, eventLog } = setup();
  await call('registerWebhook', { body: { url: 'https://hooks.example.com/in', events: ['message.status'] } });
  const tested = await call('testWebhook', { webhookId: 'whk_0001' });
  expect(tested).toMatchObject({ status: 202, body: { status: true, status_code: 202, data: { eventId: expect.stringMatching(/^evt_/) } } });
  expect(publisher.delivered).toEqual([{ endpointId: 'whk_0001', event: expect.objectContaining({ id: tested.body.data.eventId, type: 'webhook.test' }) }]);
  eventLog.add('org_a', { id: 'evt_x', type: 'message.status', createdAt: '2026-03-01T11:00:00.000Z', data: {} });
  expect(await call('redeliverWebhook', { webhookId: 'whk_0001', body: { eventId: 'evt_x' } })).toMatchObject({ status: 202, body: { data: { queued: 1 } } });
  expect(await call('redeliverWebhook', { webhookId: 'whk_0001', body: { from: '2026-03-01T00:00:00Z', to: '2026-03-01T12:00:00Z' } })).toMatchObject({
    status: 202,
    body: { data: { queued: 1 } },
  });
});

test('errors: 400 naming field and rule, 404 for another organization or a malformed id, 403 for a bound key', async () => {
  const { call, publisher } = setup();
  expect(await call('registerWebhook', { body: { url: 'http://hooks.example.com/in', events: ['message.status'] } })).toMatchObject({
    status: 400,
    body: { status: false, status_code: 400, message: 'url must use https', data: { error: { code: 'INVALID_WEBHOOK_URL' } } },
  });
  expect(await call('registerWebhook', { body: { url: 'https://169.254.169.254/', events: ['message.status'] } })).toMatchObject({
    status: 400,
    body: { data: { error: { code: 'WEBHOOK_ADDRESS_NOT_ALLOWED' } } },
  });
  expect(await call('registerWebhook', { body: { url: 'https://hooks.example.com/', events: [] } })).toMatchObject({
    status: 400,
    body: { message: 'events must list at least one event type', data: { error: { code: 'VALIDATION_FAILED' } } },
  });
  await call('registerWebhook', { body: { url: 'https://hooks.example.com/in', events: ['message.status'] } });
  for (const operation of ['deleteWebhook', 'testWebhook', 'redeliverWebhook']) {
    const body = operation === 'redeliverWebhook' ? { eventId: 'evt_1' } : undefined;
    expect(await call(operation, { key: 'key-b', webhookId: 'whk_0001', body })).toMatchObject({
      status: 404,
      body: { data: { error: { code: 'WEBHOOK_NOT_FOUND' } } },
    });
    expect(await call(operation, { webhookId: 'not-an-id', body })).toMatchObject({ status: 404 });
  }
  expect((await call('listWebhooks', { key: 'key-b' })).body.data).toEqual({ webhooks: [] });
  expect(await call('listWebhooks', { key: 'key-bound' })).toMatchObject({ status: 403, body: { data: { error: { code: 'OUTSIDE_KEY_SCOPE' } } } });
  expect(publisher.delivered).toEqual([]);
});

test('redeliver over the daily quota: 429 REDELIVERY_QUOTA_EXCEEDED naming the quota and its reset, Retry-After until then, nothing queued', async () => {
  const { call, callWithHeaders, publisher, eventLog } = setup({ redeliveriesPerDay: 3 });
  await call('registerWebhook', { body: { url: 'https://hooks.example.com/in', events: ['message.status'] } });
  for (const [index, minute] of ['10', '20'].entries())
    eventLog.add('org_a', { id: `evt_${index}`, type: 'message.status', createdAt: `2026-03-01T11:${minute}:00.000Z`, data: {} });
  const range = { from: '2026-03-01T00:00:00Z', to: '2026-03-01T12:00:00Z' };
  expect(await call('redeliverWebhook', { webhookId: 'whk_0001', body: range })).toMatchObject({ status: 202, body: { data: { queued: 2 } } });
  const refused = await callWithHeaders('redeliverWebhook', { webhookId: 'whk_0001', body: range });
  expect(refused).toMatchObject({
    status: 429,
    headers: { 'Retry-After': String(12 * 3600) },
    body: {
      status: false,
      status_code: 429,
      message:
        'Redelivery quota exceeded: an organization may redeliver at most 3 events per day (UTC); 2 already redelivered today, this request would add 2. The quota resets at 2026-03-02T00:00:00.000Z',
      data: { error: { code: 'REDELIVERY_QUOTA_EXCEEDED' } },
    },
  });
  expect(publisher.delivered).toHaveLength(2);
  // What is left of the day still serves a smaller request; another organization has its own quota.
  expect(await call('redeliverWebhook', { webhookId: 'whk_0001', body: { eventId: 'evt_0' } })).toMatchObject({ status: 202, body: { data: { queued: 1 } } });
  expect(await call('redeliverWebhook', { webhookId: 'whk_0001', body: { eventId: 'evt_1' } })).toMatchObject({ status: 429 });
  await call('registerWebhook', { key: 'key-b', body: { url: 'https://hooks.example.com/b', events: ['message.status'] } });
  eventLog.add('org_b', { id: 'evt_b', type: 'message.status', createdAt: '2026-03-01T11:00:00.000Z', data: {} });
  expect(await call('redeliverWebhook', { key: 'key-b', webhookId: 'whk_0002', body: range })).toMatchObject({ status: 202, body: { data: { queued: 1 } } });
});
