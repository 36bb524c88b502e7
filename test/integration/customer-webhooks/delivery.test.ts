/**
 * Customer event delivery through the local runtime: the publisher (event log on dynalite, the
 * customerEvents queue on fauxqs), the customer-events function fed by the local SQS event source,
 * the SSRF-safe client, and receivers on 127.0.0.1 (loopback allowed in local mode only). The
 * endpoint registry is an in-memory fake handed to the runtime as an override.
 */
import { webhookSubscribersSection } from '../../../functions/composition/webhook-subscribers.section';
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { createCompositionContext } from '../../../functions/composition/composition-context';
import { customerEventLogSection, customerEventPublisherSection } from '../../../functions/composition/customer-events.section';
import { dynamoDbClients } from '../../../functions/composition/dynamodb-clients';
import { systemResolver } from '../../../shared/adapters/http/safe-http-client';
import { parseAppConfig } from '../../../shared/config/app-config';
import { decodeDelivery } from '../../../shared/customer-events/delivery-message';
import { newCustomerEvent } from '../../../shared/customer-events/event-envelope';
import type { CustomerEvent, CustomerEventPublisher } from '../../../shared/customer-events/ports';
import { documentedSnippet } from '../../support/documented-verifier';
import { FakeWebhookRegistry } from '../../support/fake-webhook-registry';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver';

jest.setTimeout(120_000);

const registry = new FakeWebhookRegistry();
let runtime: TestRuntime;
let publisher: CustomerEventPublisher;
let log: ReturnType<ReturnType<typeof customerEventLogSection>>;
const receivers: ScriptedReceiver[] = [];
const { verifyWebhook } = documentedSnippet();

const statusEvent = (sourceKey: string): CustomerEvent =>
  newCustomerEvent({ type: 'message.status', createdAt: new Date(), sourceKey, data: { jobId: 'pub_test', status: 'delivered', sequence: 2 } });

async function receiver(respond: Parameters<typeof startScriptedReceiver>[0]): Promise<ScriptedReceiver> {
  const started = await startScriptedReceiver(respond);
  receivers.push(started);
  return started;
}

beforeAll(async () => {
  runtime = await startTestRuntime({
    seedDemo: false,
    overrides: {
      webhookEndpointRegistry: registry,
      webhookResolver: async (hostname) => (hostname === 'intranet.test' ? [{ address: '10.0.0.7', family: 4 }] : systemResolver(hostname)),
    },
    environment: {
      // Retries at once (full jitter below 1 s rounds down to no delay), for a short window.
      CUSTOMER_EVENT_BACKOFF_BASE_MS: '1',
      CUSTOMER_EVENT_BACKOFF_CAP_MS: '1',
      CUSTOMER_EVENT_RETRY_HOURS: '0.003',
    },
  });
  const context = createCompositionContext(parseAppConfig(process.env), { webhookEndpointRegistry: registry });
  const dynamoDb = dynamoDbClients(context);
  publisher = customerEventPublisherSection(context, dynamoDb, webhookSubscribersSection(context, dynamoDb))();
  log = customerEventLogSection(context, dynamoDb)();
});

afterAll(async () => {
  await Promise.all(receivers.map((started) => started.close()));
  await runtime?.close();
});

describe('customer event delivery through the local runtime', () => {
  it('delivers a published event to a loopback receiver, signed so the documented snippet verifies it', async () => {
    const secret = 'whsec_first_receiver';
    const target = await receiver(() => 200);
    registry.add('org_one', 'whk_one', target.url, secret);
    const event = statusEvent('pub_test:0:delivered');
    await publisher.publish('org_one', event);

    const [request] = await eventually(
      async () => target.requests,
      (requests) => requests.length === 1,
    );
    expect(verifyWebhook(secret, request!.headers, request!.rawBody)).toBe(true);
    expect(verifyWebhook('another secret', request!.headers, request!.rawBody)).toBe(false);
    expect(request!.headers['x-webhook-id']).toBe(event.id);
    expect(request!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(request!.rawBody)).toEqual(event);
    expect(await log.find('org_one', event.id)).toEqual(event);
  });

  it('500 three times then 200: exactly one successful delivery, the same X-Webhook-Id on every try', async () => {
    const secret = 'whsec_flaky';
    const flaky = await receiver((_request, index) => (index < 3 ? 500 : 200));
    registry.add('org_flaky', 'whk_flaky', flaky.url, secret);
    const event = statusEvent('pub_test:1:read');
    await publisher.publish('org_flaky', event);

    await eventually(
      async () => flaky.requests,
      (requests) => requests.some((request) => request.status === 200),
    );
    await runtime.workersIdle();
    expect(flaky.requests.map((request) => request.status)).toEqual([500, 500, 500, 200]);
    expect(new Set(flaky.requests.map((request) => request.headers['x-webhook-id']))).toEqual(new Set([event.id]));
    expect(flaky.requests.every((request) => verifyWebhook(secret, request.headers, request.rawBody))).toBe(true);
    expect(registry.failingMarks.filter((mark) => mark.organizationId === 'org_flaky')).toEqual([]);
  });

  it("a dead endpoint of one organization does not delay another's events", async () => {
    const dead = await receiver(() => 'hang');
    const alive = await receiver(() => 200);
    registry.add('org_dead', 'whk_dead', dead.url, 'whsec_dead');
    registry.add('org_alive', 'whk_alive', alive.url, 'whsec_alive');

    await publisher.publish('org_dead', statusEvent('pub_dead:0:sent'));
    await eventually(
      async () => dead.requests,
      (requests) => requests.length === 1,
    );
    const event = statusEvent('pub_alive:0:sent');
    await publisher.publish('org_alive', event);

    await eventually(
      async () => alive.requests,
      (requests) => requests.length === 1,
    );
    expect(alive.requests[0]!.headers['x-webhook-id']).toBe(event.id);
    // The dead endpoint's first attempt is still waiting for its answer (10 s timeout) while B's arrived.
    expect(dead.requests).toHaveLength(1);
    expect(dead.requests[0]!.status).toBeUndefined();
    expect(dead.requests[0]!.connectionClosed).toBe(false);
    await dead.close();
  });

  it('refuses delivery to a name resolving to a private address and to the metadata address: dead-lettered, endpoint failing', async () => {
    registry.add('org_ssrf', 'whk_intranet', 'http://intranet.test:8080/hook', 'whsec_ssrf');
    registry.add('org_ssrf', 'whk_metadata', 'http://169.254.169.254/latest/meta-data/iam', 'whsec_ssrf');
    const event = statusEvent('pub_ssrf:0:sent');
    await publisher.publish('org_ssrf', event);

    const marks = await eventually(
      async () =>
        registry.failingMarks
          .filter((mark) => mark.organizationId === 'org_ssrf')
          .map((mark) => mark.endpointId)
          .sort(),
      (ids) => ids.length === 2,
      60_000,
    );
    expect(marks).toEqual(['whk_intranet', 'whk_metadata']);
    const parked = await runtime.sqs.send(
      new ReceiveMessageCommand({ QueueUrl: runtime.queueUrls.customerEventsDeadLetter, MaxNumberOfMessages: 10, WaitTimeSeconds: 1 }),
    );
    const deliveries = (parked.Messages ?? []).map((message) => decodeDelivery(message.Body ?? ''));
    expect(
      deliveries
        .filter((delivery) => delivery.event.id === event.id)
        .map((delivery) => delivery.endpointId)
        .sort(),
    ).toEqual(['whk_intranet', 'whk_metadata']);
    expect(deliveries.every((delivery) => delivery.attempts >= 1)).toBe(true);
  });
});

describe('the customer event log on dynalite', () => {
  it('records an id once, finds it by id and lists by time range', async () => {
    const first = newCustomerEvent({ type: 'job.completed', createdAt: new Date('2025-05-01T10:00:00.000Z'), sourceKey: 'pub_log', data: { total: 3 } });
    const second = newCustomerEvent({ type: 'job.completed', createdAt: new Date('2025-05-01T10:00:05.000Z'), sourceKey: 'pub_log2', data: { total: 4 } });
    const recent = { ...first, createdAt: new Date().toISOString() };
    const recentSecond = { ...second, createdAt: new Date(Date.now() + 5_000).toISOString() };
    expect(await log.record('org_log', recent)).toEqual(recent);
    // Republished with another time and data: the first record stands, and is what gets delivered.
    expect(await log.record('org_log', { ...recent, createdAt: new Date(Date.now() + 60_000).toISOString(), data: { total: 99 } })).toEqual(recent);
    await log.record('org_log', recentSecond);

    expect(await log.find('org_log', recent.id)).toEqual(recent);
    expect(await log.find('org_other', recent.id)).toBeUndefined();
    const from = new Date(Date.parse(recent.createdAt) - 1_000);
    expect(await log.between('org_log', from, new Date(Date.parse(recentSecond.createdAt) + 1_000), 10)).toEqual([recent, recentSecond]);
    expect(await log.between('org_log', from, new Date(recentSecond.createdAt), 10)).toEqual([recent]);
    expect(await log.between('org_log', from, new Date(Date.parse(recentSecond.createdAt) + 1_000), 1)).toEqual([recent]);
    expect(await log.between('org_other', from, new Date(Date.parse(recentSecond.createdAt) + 1_000), 10)).toEqual([]);
  });
});
