/**
 * Input that used to crash or poison the pipeline, through the local stack: deeply nested JSON
 * (the shared body parsing and the Cloud API sandbox), and rate-limit keys built from junk.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, orderUpdate, recipients } from '../broadcast/broadcast-test-kit';

const deepArray = (depth: number) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown;
const deepText = (depth: number, inner = '"x"') => '['.repeat(depth) + inner + ']'.repeat(depth);
const NESTING = 'Request body nests deeper than 64 levels';

describe('input hardening', () => {
  let runtime: TestRuntime;
  let apiKey: string;

  beforeAll(async () => {
    runtime = await startTestRuntime();
    apiKey = (await issueKey(runtime.demo.organizationId)).secret;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const rateLimitItems = async (): Promise<string[]> => {
    const services = getServices();
    const { Items = [] } = await services.clients.dynamoDb.send(new ScanCommand({ TableName: services.config.tableNames.rateLimits }));
    return Items.map((item) => String(item.pk));
  };

  describe('rate-limit keys come from validated values only', () => {
    it('a 3,000-digit fromPhoneNumber gets the same 400 as a 16-digit one, and no rate-limit item of its own', async () => {
      const send = (fromPhoneNumber: unknown) =>
        runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(apiKey), body: orderUpdate(recipients(1), { fromPhoneNumber }) });
      const normal = await send('1'.repeat(16));
      const before = await rateLimitItems();
      const huge = await send('1'.repeat(3000));
      expect(normal.status).toBe(400);
      expect(huge.status).toBe(400);
      expect(huge.body.message).toBe(normal.body.message);
      expect(huge.body.data.error.code).toBe('VALIDATION_FAILED');
      // Distinct junk values share the key's one bucket: at most one new item, never one per value.
      for (const junk of ['2'.repeat(3000), 'abc', { nested: true }, '+1 555 0100']) expect((await send(junk)).status).toBe(400);
      const added = (await rateLimitItems()).filter((pk) => !before.includes(pk));
      expect(added.length).toBeLessThanOrEqual(1);
      expect(added.join()).not.toMatch(/1{100}|2{100}|abc|nested/);
      expect((await send(DEMO.sender1)).status).toBe(200);
    });

    it('a 2,048-character ?phone_number gets the same 400 as a 16-digit one', async () => {
      const list = (phoneNumber: string) => runtime.call('GET', `${BASE}/templates?phone_number=${phoneNumber}`, { headers: keyHeader(apiKey) });
      const normal = await list('9'.repeat(16));
      const huge = await list('9'.repeat(2048));
      expect(normal.status).toBe(400);
      expect(huge.status).toBe(400);
      expect(huge.body.message).toBe(normal.body.message);
      expect((await rateLimitItems()).join()).not.toMatch(/9{100}/);
    });

    it('a 10,000-deep array as fromPhoneNumber is a 400, not a 500', async () => {
      const response = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
        headers: keyHeader(apiKey),
        rawBody: JSON.stringify(orderUpdate(recipients(1), { fromPhoneNumber: 'PLACEHOLDER' })).replace('"PLACEHOLDER"', deepText(10_000)),
      });
      expect(response.status).toBe(400);
      expect(response.body.message).toBe(NESTING);
    });
  });

  describe('deeply nested JSON', () => {
    it.each([
      ['send-template-broadcast', `${BASE}/send-template-broadcast`],
      ['send-freeform', `${BASE}/send-freeform`],
    ])('%s answers 400 in the broadcast shape, at the top or inside a field', async (_name, path) => {
      for (const rawBody of [deepText(10_000), JSON.stringify({ fromPhoneNumber: DEMO.sender1, data: [{ toPhoneNumber: deepArray(100) }] })]) {
        const response = await runtime.call('POST', path, { headers: keyHeader(apiKey), rawBody });
        expect(response.status).toBe(400);
        expect(response.body).toMatchObject({ status: false, status_code: 400, message: NESTING, data: { error: { code: 'JSON_NESTING_TOO_DEEP' } } });
      }
    });

    it('an /upstream POST answers 400 in the Graph-style shape', async () => {
      const response = await runtime.call('POST', `/staging/api/v2/upstream/phone-numbers/${DEMO.phoneNumberId1}/messages`, {
        headers: { authorization: `Bearer ${runtime.demo.accessToken}` },
        rawBody: `{"messaging_product":"whatsapp","to":"15550009999","type":"text","text":{"body":${deepText(10_000)}}}`,
      });
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ status: false, message: NESTING, error: { message: NESTING, code: 400 } });
    });

    it('the Cloud API sandbox answers a Graph error (#100)', async () => {
      const response = await fetch(`${runtime.demo.sandboxUrl}/v25.0/${DEMO.phoneNumberId1}/messages`, {
        method: 'POST',
        headers: { authorization: 'Bearer sandbox-token-demo-retail', 'content-type': 'application/json' },
        body: deepText(10_000, '{}'),
      });
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { message: `(#100) ${NESTING}`, type: 'OAuthException', code: 100 } });
    });
  });
});
