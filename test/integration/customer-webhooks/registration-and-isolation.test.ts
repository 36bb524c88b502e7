/**
 * Webhook endpoint registration through the local runtime (real HTTP, gateway key checks, dynalite,
 * the local token cipher, the system DNS resolver), outside local mode: https only, no loopback.
 */
import { join } from 'node:path';
import { GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { buildServices } from '../../../functions/composition';
import { DynamoDbWebhookEndpointRegistry } from '../../../shared/adapters/dynamodb/dynamodb-webhook-endpoint-registry';
import { LocalAesTokenCipher } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { parseAppConfig } from '../../../shared/config/app-config';
import { systemClock } from '../../../shared/ports/clock';
import { runAdminCli, type AdminCliResult } from '../../support/admin-cli';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

jest.setTimeout(180_000);

const WEBHOOKS = '/prod/api/v2/broadcast/public/webhooks';
const PUBLIC_URL = 'https://93.184.216.34/hooks/in';

let runtime: TestRuntime;
const call = (method: string, path: string, key: string, body?: unknown) => runtime.call(method, `${WEBHOOKS}${path}`, { headers: { 'x-api-key': key }, body });
const tenancyTable = () => runtime.environment.TENANCY_TABLE!;

async function storedItem(organizationId: string, endpointId: string) {
  const result = await runtime.dynamodb.send(
    new GetItemCommand({ TableName: tenancyTable(), Key: { pk: { S: `ORG#${organizationId}` }, sk: { S: `WEBHOOK#${endpointId}` } }, ConsistentRead: true }),
  );
  return result.Item && unmarshall(result.Item);
}

beforeAll(async () => {
  runtime = await startTestRuntime({ startWorkers: false, environment: { CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK: '0' } });
});

afterAll(async () => {
  await runtime?.close();
});

describe('registration', () => {
  let id: string;
  let secret: string;

  test('POST /webhooks answers 201 with the secret, once', async () => {
    const response = await call('POST', '', runtime.demo.apiKey, { url: PUBLIC_URL, events: ['message.status', 'job.completed'] });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      status: true,
      status_code: 201,
      message: expect.any(String),
      data: {
        id: expect.stringMatching(/^whk_/),
        url: PUBLIC_URL,
        events: ['message.status', 'job.completed'],
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9_-]{43}$/),
      },
    });
    ({ id, secret } = response.body.data);
  });

  test('GET /webhooks lists it, never with the secret', async () => {
    const response = await call('GET', '', runtime.demo.apiKey);
    expect(response.status).toBe(200);
    expect(response.body.data.webhooks).toEqual([
      { id, url: PUBLIC_URL, events: ['message.status', 'job.completed'], state: 'ACTIVE', createdAt: expect.any(String) },
    ]);
    expect(JSON.stringify(response.body)).not.toContain(secret);
    expect(JSON.stringify(response.body)).not.toContain('ncrypted');
  });

  test('the stored item holds no plaintext secret, only a ciphertext bound to the organization and endpoint', async () => {
    const item = (await storedItem(runtime.demo.organizationId, id))!;
    expect(item).toMatchObject({ entity: 'webhook-endpoint', id, organizationId: runtime.demo.organizationId, url: PUBLIC_URL });
    const text = JSON.stringify(item);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(secret.slice('whsec_'.length));
    expect(item.encryptedSecret).toMatch(/^[a-z0-9.-]+:/);

    const cipher = new LocalAesTokenCipher(runtime.environment.LOCAL_TOKEN_KEY!);
    const registry = new DynamoDbWebhookEndpointRegistry(
      buildServices(parseAppConfig(runtime.environment)).clients.dynamoDb,
      tenancyTable(),
      cipher,
      systemClock,
    );
    const endpoint = (await registry.get(runtime.demo.organizationId, id))!;
    expect(await registry.secretOf(endpoint)).toBe(secret);
    // The same ciphertext copied onto another organization's endpoint does not decrypt there.
    const other = runtime.demo.otherOrg.organizationId;
    await runtime.dynamodb.send(
      new PutItemCommand({
        TableName: tenancyTable(),
        Item: {
          pk: { S: `ORG#${other}` },
          sk: { S: 'WEBHOOK#whk_copied' },
          id: { S: 'whk_copied' },
          organizationId: { S: other },
          url: { S: PUBLIC_URL },
          events: { L: [{ S: 'message.status' }] },
          state: { S: 'ACTIVE' },
          createdAt: { S: endpoint.createdAt },
          encryptedSecret: { S: item.encryptedSecret as string },
        },
      }),
    );
    await expect(registry.secretOf({ ...endpoint, id: 'whk_copied', organizationId: other })).rejects.toMatchObject({ code: 'TOKEN_DECRYPTION' });
    await registry.delete(other, 'whk_copied');
  });

  test.each([
    ['https://169.254.169.254/latest/meta-data/', 'WEBHOOK_ADDRESS_NOT_ALLOWED'],
    ['https://10.0.0.1/hook', 'WEBHOOK_ADDRESS_NOT_ALLOWED'],
    ['https://[::ffff:169.254.169.254]/hook', 'WEBHOOK_ADDRESS_NOT_ALLOWED'],
    ['https://localhost/hook', 'WEBHOOK_ADDRESS_NOT_ALLOWED'],
    ['http://93.184.216.34/hook', 'INVALID_WEBHOOK_URL'],
    ['https://user:pw@93.184.216.34/hook', 'INVALID_WEBHOOK_URL'],
  ])('%s is refused at registration (%s) and nothing is stored', async (url, code) => {
    const response = await call('POST', '', runtime.demo.apiKey, { url, events: ['message.status'] });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ status: false, status_code: 400, data: { error: { code } } });
    const stored = await runtime.dynamodb.send(
      new QueryCommand({
        TableName: tenancyTable(),
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': { S: `ORG#${runtime.demo.organizationId}` }, ':prefix': { S: 'WEBHOOK#' } },
      }),
    );
    expect((stored.Items ?? []).map((entry) => unmarshall(entry).url)).toEqual([PUBLIC_URL]);
  });

  test("another organization's key cannot list, delete, test or redeliver the endpoint", async () => {
    const otherKey = runtime.demo.otherOrg.apiKey;
    expect((await call('GET', '', otherKey)).body.data).toEqual({ webhooks: [] });
    for (const [method, path, body] of [
      ['DELETE', `/${id}`, undefined],
      ['POST', `/${id}/test`, undefined],
      ['POST', `/${id}/redeliver`, { eventId: 'evt_anything' }],
      ['POST', `/${id}/redeliver`, { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' }],
    ] as const) {
      const response = await call(method, path, otherKey, body);
      expect([method, path, response.status, response.body.data?.error?.code]).toEqual([method, path, 404, 'WEBHOOK_NOT_FOUND']);
      // Exactly the answer of an id that exists nowhere.
      const unknown = await call(method, path.replace(id, 'whk_doesNotExist0000000000'), otherKey, body);
      expect({ status: unknown.status, message: unknown.body.message }).toEqual({ status: response.status, message: response.body.message });
    }
    expect(await storedItem(runtime.demo.organizationId, id)).toBeDefined();
  });

  test('DELETE removes it for its own organization; a second DELETE is 404', async () => {
    expect(await call('DELETE', `/${id}`, runtime.demo.apiKey)).toMatchObject({ status: 200, body: { status: true, data: { id } } });
    expect(await storedItem(runtime.demo.organizationId, id)).toBeUndefined();
    expect((await call('DELETE', `/${id}`, runtime.demo.apiKey)).status).toBe(404);
    expect((await call('GET', '', runtime.demo.apiKey)).body.data).toEqual({ webhooks: [] });
  });
});

test("in local mode (the local runtime's default), http loopback receivers may be registered; metadata still may not", async () => {
  const services = buildServices(parseAppConfig({ ...runtime.environment, CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK: '1' }));
  const { registerEndpoint, deleteEndpoint } = await import('../../../shared/customer-events/webhook-endpoints');
  const manager = { organizationId: runtime.demo.otherOrg.organizationId };
  const { endpoint } = await registerEndpoint(services.webhooks, manager, { url: 'http://localhost:4999/hook', events: ['message.received'] });
  expect(endpoint.url).toBe('http://localhost:4999/hook');
  await expect(registerEndpoint(services.webhooks, manager, { url: 'http://169.254.169.254/', events: ['message.received'] })).rejects.toMatchObject({
    code: 'WEBHOOK_ADDRESS_NOT_ALLOWED',
  });
  await deleteEndpoint(services.webhooks, manager, endpoint.id);
});

describe('admin CLI', () => {
  const admin = (args: string[]): Promise<AdminCliResult> =>
    runAdminCli([...args, '--env-file', join(runtime.dataDirectory, 'runtime.env')], { timeoutMs: 90_000 });

  test('add-webhook, list-webhooks, remove-webhook for an organization', async () => {
    const org = runtime.demo.organizationId;
    const added = await admin(['add-webhook', '--org', org, '--url', 'https://93.184.216.34/cli', '--events', 'message.status,template.status']);
    expect(added.code).toBe(0);
    const endpoint = JSON.parse(added.stdout);
    expect(endpoint).toMatchObject({
      id: expect.stringMatching(/^whk_/),
      url: 'https://93.184.216.34/cli',
      events: ['message.status', 'template.status'],
      secret: expect.stringMatching(/^whsec_/),
    });

    const listed = await admin(['list-webhooks', '--org', org]);
    expect(JSON.parse(listed.stdout).webhooks.map((webhook: { id: string }) => webhook.id)).toContain(endpoint.id);
    expect(listed.stdout).not.toContain(endpoint.secret);

    const refused = await admin(['add-webhook', '--org', org, '--url', 'https://10.0.0.1/', '--events', 'message.status']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('WEBHOOK_ADDRESS_NOT_ALLOWED');

    expect((await admin(['remove-webhook', '--org', org, '--id', endpoint.id])).code).toBe(0);
    expect(await storedItem(org, endpoint.id)).toBeUndefined();
  });
});
