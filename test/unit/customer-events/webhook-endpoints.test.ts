import { fixedClock } from '../../../shared/ports/clock';
import { sequentialIdGenerator } from '../../../shared/ports/id-generator';
import { parseRequest } from '../../../shared/http/validation';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { endpointRegistrationSchema, redeliverySchema } from '../../../shared/customer-events/webhook-endpoint.schema';
import { parseWebhookUrl } from '../../../shared/customer-events/webhook-url';
import {
  deleteEndpoint,
  listEndpoints,
  MAX_ENDPOINTS_PER_ORGANIZATION,
  redeliverEvents,
  registerEndpoint,
  sendTestEvent,
  type EndpointDeliveryPorts,
  type EndpointRegistrationPorts,
} from '../../../shared/customer-events/webhook-endpoints';
import { randomSecretGenerator } from '../../../shared/crypto/secret-generator';
import { InMemoryRedeliveryQuota } from '../../support/customer-event-fairness-fakes';
import { InMemoryEventLog, InMemoryWebhookRegistry, RecordingPublisher, tableResolver } from '../../support/webhook-fakes';

const ORG = { organizationId: 'org_a' };
const OTHER = { organizationId: 'org_b' };
const dns = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'],
  localhost: ['127.0.0.1', '::1'],
  'sneaky.example.com': ['93.184.216.34', '10.1.2.3'],
  'metadata.example.com': ['169.254.169.254'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
};

function kit(options: { local?: boolean } = {}) {
  const registry = new InMemoryWebhookRegistry();
  const publisher = new RecordingPublisher();
  const eventLog = new InMemoryEventLog();
  const resolver = tableResolver(dns);
  const clock = fixedClock('2026-03-01T12:00:00.000Z');
  const ids = sequentialIdGenerator();
  const registration: EndpointRegistrationPorts = {
    registry,
    resolver,
    secrets: randomSecretGenerator,
    ids,
    clock,
    urlPolicy: { allowInsecureLocalReceivers: options.local ?? false },
  };
  const delivery: EndpointDeliveryPorts = {
    registry,
    publisher,
    eventLog,
    ids,
    clock,
    redeliveryQuota: new InMemoryRedeliveryQuota(),
    redeliveriesPerDay: 5_000,
  };
  return { registry, publisher, eventLog, resolver, clock, registration, delivery };
}

const register = (ports: EndpointRegistrationPorts, url: string, events: string[] = ['message.status'], manager = ORG) =>
  registerEndpoint(ports, manager, parseRequest(endpointRegistrationSchema, { url, events }));

describe('url rules', () => {
  const strict = { allowInsecureLocalReceivers: false };
  const local = { allowInsecureLocalReceivers: true };

  test.each([
    ['/relative/path', 'url must be an absolute URL'],
    ['hooks.example.com/x', 'url must be an absolute URL'],
    ['http://hooks.example.com/x', 'url must use https'],
    ['ftp://hooks.example.com/x', 'url must use https'],
    ['javascript:alert(1)', 'url must use https'],
    ['https://user:pass@hooks.example.com/x', 'url must not contain credentials'],
    ['https://user@hooks.example.com/x', 'url must not contain credentials'],
    [`https://hooks.example.com/${'a'.repeat(2048)}`, 'url must be at most 2,048 characters'],
  ])('%s is refused: %s', (url, message) => {
    expect(() => parseWebhookUrl(url, strict)).toThrow(expect.objectContaining({ code: 'INVALID_WEBHOOK_URL', message: expect.stringContaining(message) }));
  });

  test('https is accepted and normalized, the fragment dropped', () => {
    expect(parseWebhookUrl('https://Hooks.Example.com/in?x=1#frag', strict).href).toBe('https://hooks.example.com/in?x=1');
  });

  test('http only in the local runtime; other schemes never', () => {
    expect(parseWebhookUrl('http://localhost:4000/hook', local).href).toBe('http://localhost:4000/hook');
    expect(() => parseWebhookUrl('ftp://localhost/x', local)).toThrow('url must use https or http');
  });
});

describe('body schemas', () => {
  test.each([
    [{ url: 'https://a.example/x', events: [] }, 'events must list at least one event type'],
    [{ url: 'https://a.example/x', events: ['message.status', 'message.status'] }, 'events must not list an event type twice'],
    [{ url: 'https://a.example/x', events: ['message.sent'] }, 'events[0] must be one of message.status, job.completed, message.received, template.status'],
    [{ url: 'https://a.example/x', events: ['webhook.test'] }, 'events[0] must be one of'],
    [{ events: ['message.status'] }, 'url is required'],
    [{ url: `https://a.example/${'x'.repeat(2100)}`, events: ['message.status'] }, 'url must be at most 2,048 characters'],
  ])('registration %j → %s', (body, message) => {
    expect(() => parseRequest(endpointRegistrationSchema, body)).toThrow(
      expect.objectContaining({ code: 'REQUEST_VALIDATION', message: expect.stringContaining(message) }),
    );
  });

  test.each([
    [{}, 'must give either eventId or a time range'],
    [{ eventId: 'evt_1', from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z' }, 'not both'],
    [{ from: '2026-03-01T00:00:00Z' }, 'must give both from and to'],
    [{ from: 'yesterday', to: '2026-03-02T00:00:00Z' }, 'from must be an ISO 8601 timestamp'],
  ])('redelivery %j → %s', (body, message) => {
    expect(() => parseRequest(redeliverySchema, body)).toThrow(
      expect.objectContaining({ code: 'REQUEST_VALIDATION', message: expect.stringContaining(message) }),
    );
  });
});

describe('registerEndpoint', () => {
  test('stores the endpoint and returns a whsec_ secret of 256 bits once', async () => {
    const { registration, registry } = kit();
    const { endpoint, secret } = await register(registration, 'https://hooks.example.com/in', ['message.status', 'job.completed']);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(endpoint).toEqual({
      id: 'whk_0001',
      organizationId: 'org_a',
      url: 'https://hooks.example.com/in',
      events: ['message.status', 'job.completed'],
      state: 'ACTIVE',
      createdAt: '2026-03-01T12:00:00.000Z',
    });
    expect(await registry.get('org_a', 'whk_0001')).toEqual(endpoint);
    expect(registry.secrets.get('whk_0001')).toBe(secret);
  });

  test.each([
    ['https://10.0.0.1/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://[::ffff:169.254.169.254]/x', 'link-local'],
    ['https://[fd00::1]/x', 'private'],
    ['https://100.64.0.7/x', 'shared'],
    ['https://0.0.0.0/x', 'unspecified'],
    ['https://sneaky.example.com/x', 'private'],
    ['https://metadata.example.com/x', 'link-local'],
    ['https://localhost/x', 'loopback'],
    ['https://127.0.0.1/x', 'loopback'],
    ['https://[::1]/x', 'loopback'],
    ['https://mapped.example.com/x', 'loopback'],
    ['https://0x7f.1/x', 'loopback'],
  ])('%s is refused (%s) and nothing is stored', async (url, category) => {
    const { registration, registry } = kit();
    await expect(register(registration, url)).rejects.toMatchObject({ code: 'WEBHOOK_ADDRESS_NOT_ALLOWED', message: expect.stringContaining(category) });
    expect(await registry.list('org_a')).toEqual([]);
  });

  test('an ip-literal host is judged without DNS; a name is resolved', async () => {
    const { registration, resolver } = kit();
    await expect(register(registration, 'https://10.0.0.1/')).rejects.toThrow();
    expect(resolver.asked).toEqual([]);
    await register(registration, 'https://hooks.example.com/');
    expect(resolver.asked).toEqual(['hooks.example.com']);
  });

  test('a host without addresses is refused', async () => {
    const { registration } = kit();
    await expect(register(registration, 'https://nowhere.example.com/')).rejects.toMatchObject({ code: 'WEBHOOK_HOST_UNRESOLVABLE' });
  });

  test('locally, http and loopback receivers are allowed; private and metadata addresses still are not', async () => {
    const { registration } = kit({ local: true });
    await expect(register(registration, 'http://localhost:4000/hook')).resolves.toMatchObject({ endpoint: { url: 'http://localhost:4000/hook' } });
    await expect(register(registration, 'http://127.0.0.1:4000/hook')).resolves.toBeDefined();
    await expect(register(registration, 'http://169.254.169.254/')).rejects.toMatchObject({ code: 'WEBHOOK_ADDRESS_NOT_ALLOWED' });
    await expect(register(registration, 'http://192.168.1.10/')).rejects.toMatchObject({ code: 'WEBHOOK_ADDRESS_NOT_ALLOWED' });
  });

  test(`at most ${MAX_ENDPOINTS_PER_ORGANIZATION} endpoints per organization; others are not affected`, async () => {
    const { registration } = kit();
    for (let index = 0; index < MAX_ENDPOINTS_PER_ORGANIZATION; index += 1) await register(registration, `https://hooks.example.com/${index}`);
    await expect(register(registration, 'https://hooks.example.com/11')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_LIMIT' });
    await expect(register(registration, 'https://hooks.example.com/other', ['message.status'], OTHER)).resolves.toBeDefined();
  });

  test('keys bound to a sender, or minted by generate-key, may not manage endpoints', async () => {
    const { registration } = kit();
    for (const scope of [
      { kind: 'sender', phoneNumber: '15550001' },
      { kind: 'earlier-sender', phoneNumber: '15550001' },
    ] as const) {
      const manager = { organizationId: 'org_a', scope };
      await expect(register(registration, 'https://hooks.example.com/', ['message.status'], manager)).rejects.toMatchObject({
        code: 'WEBHOOK_MANAGEMENT_OUTSIDE_KEY_SCOPE',
      });
      await expect(listEndpoints(registration, manager)).rejects.toMatchObject({ code: 'WEBHOOK_MANAGEMENT_OUTSIDE_KEY_SCOPE' });
    }
    await expect(
      register(registration, 'https://hooks.example.com/', ['message.status'], { organizationId: 'org_a', scope: { kind: 'organization' } } as never),
    ).resolves.toBeDefined();
  });
});

describe('list, delete, test, redeliver', () => {
  async function withEndpoint(events: string[] = ['message.status', 'job.completed']) {
    const setup = kit();
    const { endpoint } = await register(setup.registration, 'https://hooks.example.com/in', events);
    return { ...setup, endpoint };
  }

  const event = (id: string, type: CustomerEvent['type'], createdAt: string): CustomerEvent => ({ id, type, createdAt, data: { n: id } });

  test("list shows only the organization's endpoints; delete removes one; another organization gets not-found", async () => {
    const { registration, endpoint } = await withEndpoint();
    expect((await listEndpoints(registration, ORG)).map((e) => e.id)).toEqual([endpoint.id]);
    expect(await listEndpoints(registration, OTHER)).toEqual([]);
    await expect(deleteEndpoint(registration, OTHER, endpoint.id)).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    await deleteEndpoint(registration, ORG, endpoint.id);
    expect(await listEndpoints(registration, ORG)).toEqual([]);
    await expect(deleteEndpoint(registration, ORG, endpoint.id)).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
  });

  test('the test event goes to this endpoint only, with a fresh id and type webhook.test', async () => {
    const { delivery, publisher, endpoint } = await withEndpoint(['template.status']);
    const first = await sendTestEvent(delivery, ORG, endpoint.id);
    const second = await sendTestEvent(delivery, ORG, endpoint.id);
    expect(first).toMatchObject({ type: 'webhook.test', createdAt: '2026-03-01T12:00:00.000Z', data: { webhookId: endpoint.id } });
    expect(first.id).not.toBe(second.id);
    expect(publisher.delivered).toEqual([
      { endpointId: endpoint.id, event: first },
      { endpointId: endpoint.id, event: second },
    ]);
    expect(publisher.published).toEqual([]);
  });

  test('another organization can neither test nor redeliver, and nothing is queued', async () => {
    const { delivery, publisher, eventLog, endpoint } = await withEndpoint();
    eventLog.add('org_a', event('evt_1', 'message.status', '2026-03-01T10:00:00.000Z'));
    await expect(sendTestEvent(delivery, OTHER, endpoint.id)).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    await expect(redeliverEvents(delivery, OTHER, endpoint.id, { eventId: 'evt_1' })).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    expect(publisher.delivered).toEqual([]);
  });

  test("the publisher is not reached before the endpoint proved to be the caller's", async () => {
    const { registry, eventLog, endpoint } = await withEndpoint();
    const ports = { registry, eventLog, ids: sequentialIdGenerator(), clock: fixedClock('2026-03-01T12:00:00Z') } as unknown as EndpointDeliveryPorts;
    Object.defineProperty(ports, 'publisher', {
      get: () => {
        throw new Error('publisher built');
      },
    });
    await expect(sendTestEvent(ports, ORG, 'whk_unknown')).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
    await expect(sendTestEvent(ports, ORG, endpoint.id)).rejects.toThrow('publisher built');
  });

  test('redelivers one logged event by id, with its original id', async () => {
    const { delivery, publisher, eventLog, endpoint } = await withEndpoint();
    const logged = event('evt_1', 'message.status', '2026-03-01T10:00:00.000Z');
    eventLog.add('org_a', logged);
    eventLog.add('org_b', event('evt_b', 'message.status', '2026-03-01T10:00:00.000Z'));
    expect(await redeliverEvents(delivery, ORG, endpoint.id, { eventId: 'evt_1' })).toEqual({ queued: 1 });
    expect(publisher.delivered).toEqual([{ endpointId: endpoint.id, event: logged }]);
    await expect(redeliverEvents(delivery, ORG, endpoint.id, { eventId: 'evt_b' })).rejects.toMatchObject({ code: 'CUSTOMER_EVENT_NOT_FOUND' });
    await expect(redeliverEvents(delivery, ORG, endpoint.id, { eventId: 'evt_missing' })).rejects.toMatchObject({ code: 'CUSTOMER_EVENT_NOT_FOUND' });
  });

  test('redelivers a range: only the subscribed types, oldest first', async () => {
    const { delivery, publisher, eventLog, endpoint } = await withEndpoint(['message.status']);
    eventLog.add('org_a', event('evt_1', 'message.status', '2026-03-01T09:00:00.000Z'));
    eventLog.add('org_a', event('evt_2', 'template.status', '2026-03-01T09:30:00.000Z'));
    eventLog.add('org_a', event('evt_3', 'message.status', '2026-03-01T10:00:00.000Z'));
    eventLog.add('org_a', event('evt_4', 'message.status', '2026-03-01T11:00:00.000Z'));
    const result = await redeliverEvents(delivery, ORG, endpoint.id, { from: new Date('2026-03-01T09:00:00Z'), to: new Date('2026-03-01T11:00:00Z') });
    expect(result).toEqual({ queued: 2 });
    expect(publisher.delivered.map((entry) => entry.event.id)).toEqual(['evt_1', 'evt_3']);
  });

  test('a range must be forward, at most 7 days and hold at most 1,000 events', async () => {
    const { delivery, publisher, eventLog, endpoint } = await withEndpoint();
    const from = new Date('2026-03-01T00:00:00Z');
    await expect(redeliverEvents(delivery, ORG, endpoint.id, { from, to: from })).rejects.toMatchObject({
      code: 'REDELIVERY_RANGE',
      message: 'to must be later than from',
    });
    await expect(redeliverEvents(delivery, ORG, endpoint.id, { from, to: new Date(from.getTime() + 7 * 86_400_000 + 1) })).rejects.toMatchObject({
      code: 'REDELIVERY_RANGE',
    });
    for (let index = 0; index < 1001; index += 1)
      eventLog.add('org_a', event(`evt_${index}`, 'message.status', new Date(from.getTime() + index * 1000).toISOString()));
    await expect(redeliverEvents(delivery, ORG, endpoint.id, { from, to: new Date(from.getTime() + 7 * 86_400_000) })).rejects.toMatchObject({
      code: 'REDELIVERY_RANGE',
      message: expect.stringContaining('more than 1,000 events'),
    });
    expect(publisher.delivered).toEqual([]);
    expect(await redeliverEvents(delivery, ORG, endpoint.id, { from, to: new Date(from.getTime() + 1000 * 1000) })).toEqual({ queued: 1000 });
    expect(eventLog.limits.every((limit) => limit === 1001)).toBe(true);
  });
});
