/**
 * A signed 3.5 MiB batch of 2,500 inbound messages, each from its own user known by BSUID, through
 * the local runtime: the endpoint splits it into queue messages that each carry only their
 * messages' contacts (the whole `contacts` list alone is over a queue message, so copying it into
 * every part answered 413 on every retry and Meta dropped the batch), answers 200, and the
 * delivery-events function records every message: 2,500 v1 contacts, each with its open
 * conversation (docs/DELIVERY-STATUS.md "Webhook endpoint").
 */
import { signWebhookBody } from '../../../shared/meta-app/webhook-signature';
import { largeInboundBatch } from '../../support/large-inbound-batch';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { DEMO, kitEnvironment } from '../broadcast/broadcast-test-kit';

jest.setTimeout(900_000);

const MESSAGES = 2_500;

describe('a 3.5 MiB signed batch of 2,500 inbound messages with BSUID contacts', () => {
  let runtime: TestRuntime;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  /** The list's total; -1 when the answer is not a list (a 503 while the store is busy applying the batch). */
  const total = async (path: string): Promise<number> => {
    const answer = await runtime.call('GET', `/v1${path}?pageSize=1`, { headers: { authorization: `Bearer ${runtime.demo.v1ApiKey}` } });
    return answer.status === 200 ? (answer.body.meta.total as number) : -1;
  };

  it('answers 200 and every message is recorded', async () => {
    const batch = largeInboundBatch({
      messages: MESSAGES,
      targetBytes: 3.5 * 1024 * 1024,
      withPhone: false,
      wabaId: DEMO.wabaId,
      phoneNumberId: DEMO.phoneNumberId1,
      displayPhoneNumber: DEMO.sender1,
      timestamp: Math.floor(Date.now() / 1000) - 60,
      tag: 'z',
    });
    const raw = JSON.stringify(batch);
    expect(Buffer.byteLength(raw)).toBeGreaterThan(3.4 * 1024 * 1024);
    // The contacts alone, as a queue message holds them (JSON-escaped), are over its 256 KiB.
    expect(Buffer.byteLength(JSON.stringify(JSON.stringify(batch.entry[0]!.changes[0]!.value.contacts)))).toBeGreaterThan(256 * 1024);
    const contactsBefore = await total('/contacts');

    const answer = await runtime.call('POST', '/hooks/meta/whatsapp', { rawBody: raw, headers: { 'X-Hub-Signature-256': signWebhookBody(raw, runtime.demo.metaAppSecret) } });
    expect([answer.status, answer.body]).toEqual([200, { received: true }]);

    // Waiting on the event sources, not polling the list (counting 2,500 contacts is itself work for the store);
    // a record the store timed out on comes back after its backoff, so wait again while any is missing.
    await runtime.workersIdle();
    for (let round = 0; round < 12 && (await total('/contacts')) !== contactsBefore + MESSAGES; round += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      await runtime.workersIdle();
    }
    expect(await total('/contacts')).toBe(contactsBefore + MESSAGES);
    expect(await total('/conversations')).toBeGreaterThanOrEqual(MESSAGES);
  });
});
