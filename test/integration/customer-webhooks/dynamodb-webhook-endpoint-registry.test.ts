/** The registry adapter on dynalite, beyond its port contract (integration/contracts): raw items, encrypted secrets and their cache. */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbWebhookEndpointRegistry } from '../../../shared/adapters/dynamodb/dynamodb-webhook-endpoint-registry';
import { LocalAesTokenCipher, generateLocalTokenKey } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import type { WebhookEndpoint } from '../../../shared/customer-events/ports';
import { fixedClock } from '../../../shared/ports/clock';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';
import { CountingCipher } from '../../support/tenancy-test-ports';

let dynamo: TestDynamo;
beforeAll(async () => {
  dynamo = await startTestDynamo();
});
afterAll(async () => {
  await dynamo.stop();
});

const endpoint = (id: string, organizationId: string, events: WebhookEndpoint['events']): WebhookEndpoint => ({
  id,
  organizationId,
  url: `https://hooks.example.com/${id}`,
  events,
  state: 'ACTIVE',
  createdAt: '2026-03-01T12:00:00.000Z',
});

function registry() {
  const cipher = new CountingCipher(new LocalAesTokenCipher(generateLocalTokenKey()));
  const clock = fixedClock('2026-03-01T12:00:00.000Z');
  return { cipher, clock, registry: new DynamoDbWebhookEndpointRegistry(dynamo.documentClient, dynamo.tableNames.tenancy, cipher, clock) };
}

test('marks on a deleted endpoint do not re-create a key-less item', async () => {
  const { registry: store } = registry();
  await store.create(endpoint('whk_d1', 'org_s4', ['message.status']), 'whsec_d');
  await store.delete('org_s4', 'whk_d1');
  await store.markFailing('org_s4', 'whk_d1', new Date());
  await store.markActive('org_s4', 'whk_d1');
  const raw = await dynamo.documentClient.send(new GetCommand({ TableName: dynamo.tableNames.tenancy, Key: { pk: 'ORG#org_s4', sk: 'WEBHOOK#whk_d1' } }));
  expect(raw.Item).toBeUndefined();
});

test('secrets are stored encrypted and decrypted once per 5 minutes; a deleted endpoint has no secret', async () => {
  const { registry: store, cipher, clock } = registry();
  const e = endpoint('whk_e1', 'org_s5', ['message.status']);
  await store.create(e, 'whsec_plain_e1');
  const raw = await dynamo.documentClient.send(new GetCommand({ TableName: dynamo.tableNames.tenancy, Key: { pk: 'ORG#org_s5', sk: 'WEBHOOK#whk_e1' } }));
  expect(JSON.stringify(raw.Item)).not.toContain('whsec_plain_e1');
  expect(await store.secretOf(e)).toBe('whsec_plain_e1');
  expect(await store.secretOf(e)).toBe('whsec_plain_e1');
  expect(cipher.decryptions).toBe(1);
  clock.advanceBy(5 * 60_000);
  expect(await store.secretOf(e)).toBe('whsec_plain_e1');
  expect(cipher.decryptions).toBe(2);
  await store.delete('org_s5', 'whk_e1');
  await expect(store.secretOf(e)).rejects.toMatchObject({ code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
});
