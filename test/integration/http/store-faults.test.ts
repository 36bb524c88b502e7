/**
 * Storage faults on every store, through the whole local stack: faults are injected into the
 * SDK clients the composition built (a middleware on the real client, inside the adapters' own
 * classification), so each adapter, its error mapping and the HTTP pipeline run as deployed.
 */
import { DynamoDBServiceException, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import type { MiddlewareStack } from '@smithy/types';
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, orderUpdate, recipients } from '../broadcast/broadcast-test-kit';

type FaultKind = 'timeout' | 'throttling' | 'validation';

const faultOf = (kind: FaultKind): Error => {
  switch (kind) {
    case 'timeout':
      return Object.assign(new Error('Socket timed out after 2000 ms'), { name: 'TimeoutError' });
    case 'throttling':
      return new ProvisionedThroughputExceededException({
        message: 'The level of configured provisioned throughput for the table was exceeded',
        $metadata: { httpStatusCode: 400 },
      });
    case 'validation':
      return new DynamoDBServiceException({
        name: 'ValidationException',
        $fault: 'client',
        message: 'One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit',
        $metadata: { httpStatusCode: 400 },
      });
  }
};

/** A fault on every call to one table (DynamoDB) or queue (SQS) until cleared. */
function injectFaults(stack: MiddlewareStack<any, any>) {
  let active: { target: string; kind: FaultKind } | undefined;
  stack.add(
    (next) => async (args) => {
      const input = args.input as { TableName?: string; QueueUrl?: string };
      if (active && (input.TableName === active.target || input.QueueUrl === active.target)) throw faultOf(active.kind);
      return next(args);
    },
    { step: 'build', name: 'testFaultInjection', override: true },
  );
  return {
    on: (target: string, kind: FaultKind) => (active = { target, kind }),
    clear: () => (active = undefined),
  };
}

describe('storage faults on every store', () => {
  let runtime: TestRuntime;
  let dynamo: ReturnType<typeof injectFaults>;
  let sqs: ReturnType<typeof injectFaults>;
  let tables: Record<string, string>;
  let queueUrl: string;

  beforeAll(async () => {
    runtime = await startTestRuntime();
    const services = getServices();
    tables = services.config.tableNames;
    queueUrl = services.config.queueUrls.outboundMessages;
    dynamo = injectFaults(services.clients.dynamoDbBase.middlewareStack);
    sqs = injectFaults(services.clients.sqs.middlewareStack);
  }, 60_000);
  afterEach(() => {
    dynamo.clear();
    sqs.clear();
  });
  afterAll(async () => {
    await runtime?.close();
  });

  const v1 = () => runtime.call('GET', '/v1/contacts', { headers: { authorization: `Bearer ${runtime.demo.v1ApiKey}` } });
  const status = async () =>
    runtime.call('GET', `${BASE}/status/pub_no-such-job`, { headers: keyHeader((await issueKey(runtime.demo.organizationId)).secret) });
  const send = async (headers: Record<string, string> = {}) =>
    runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: { ...keyHeader((await issueKey(runtime.demo.organizationId)).secret), ...headers },
      body: orderUpdate(recipients(2, { first: 9_100_000_000 + Math.floor(Math.random() * 1e6) }), { fromPhoneNumber: DEMO.sender1 }),
    });

  const sendBulk = async () =>
    runtime.call('POST', `${BASE}/send-bulk`, {
      headers: keyHeader((await issueKey(runtime.demo.organizationId)).secret),
      body: {
        broadcastName: `faults-${Math.random()}`,
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        globalTemplateParams: ['Ada', 'A-1'],
        data: [{ countryCode: '44', toPhoneNumber: '7700900123' }],
      },
    });
  const upstreamBulk = () =>
    runtime.call('POST', `/staging/api/v2/upstream/phone-numbers/${DEMO.phoneNumberId1}/messages/bulk`, {
      headers: { authorization: `Bearer ${runtime.demo.accessToken}` },
      body: { template: { name: 'order_update', language: 'en_US' }, recipients: [{ to: '15557775000', parameters: ['Ada', 'A-1'] }] },
    });

  const stores: Array<
    [string, () => string, 'dynamo' | 'sqs', () => Promise<{ status: number; headers: Headers; body: any }>, 'v1' | 'broadcast' | 'upstream']
  > = [
    ['tenancy (authentication)', () => tables.tenancy!, 'dynamo', v1, 'v1'],
    ['rate limits', () => tables.rateLimits!, 'dynamo', v1, 'v1'],
    ['inbox', () => tables.inbox!, 'dynamo', v1, 'v1'],
    ['messaging (jobs)', () => tables.messaging!, 'dynamo', status, 'broadcast'],
    ['messaging (accept path)', () => tables.messaging!, 'dynamo', () => send(), 'broadcast'],
    ['idempotency', () => tables.idempotency!, 'dynamo', () => send({ 'Idempotency-Key': `fault-${Math.random()}` }), 'broadcast'],
    ['outbound queue (SQS)', () => queueUrl, 'sqs', () => send(), 'broadcast'],
    ['messaging (campaign names of send-bulk)', () => tables.messaging!, 'dynamo', sendBulk, 'broadcast'],
    ['messaging (send pacer of /upstream bulk)', () => tables.messaging!, 'dynamo', upstreamBulk, 'upstream'],
  ];

  describe.each(stores)('%s', (_store, target, client, call, surface) => {
    it.each<[FaultKind, number]>([
      ['timeout', 503],
      ['throttling', 503],
      ['validation', 500],
    ])('%s → %d in the surface shape, Retry-After only when retrying helps, nothing internal', async (kind, expected) => {
      (client === 'dynamo' ? dynamo : sqs).on(target(), kind);
      const response = await call();
      expect(response.status).toBe(expected);
      if (expected === 503) expect(response.headers.get('retry-after')).toBe('1');
      else expect(response.headers.get('retry-after')).toBeNull();
      if (surface === 'v1') expect(response.body).toEqual({ success: false, error: { code: expect.any(String), message: expect.any(String) } });
      else if (surface === 'upstream') expect(response.body).toMatchObject({ status: false, error: { type: expect.any(String), code: expected } });
      else expect(response.body).toMatchObject({ status: false, status_code: expected, data: { error: { code: expect.any(String) } } });
      const text = JSON.stringify(response.body);
      expect(text).not.toMatch(/Exception|TimeoutError|Socket|throughput|parameter values|wbp|table|\bat \w/i);
    });
  });

  it('answers normally again once the fault clears', async () => {
    expect((await v1()).status).toBe(200);
    // The job store is read first: without a fault, the unknown job is the contract's 404.
    expect((await status()).status).toBe(404);
    expect((await send()).status).toBe(200);
  });
});
