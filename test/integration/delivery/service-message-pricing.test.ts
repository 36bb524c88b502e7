/**
 * Issue 35 item 7 through the local runtime: service (free-form) messages priced as Meta bills them
 * since 2026-10-01 (../shared/meta/platform-changes-2026-h2.md rows 1–3; docs/DELIVERY-STATUS.md
 * "Service messages").
 *
 * - The sandbox's free tier: with 999 of this month's deliveries already counted, the next free-form
 *   message is `free_customer_service` (free) and the one after `regular` (billed at the rate card's
 *   `service` price): its recipients row, CSV and the summary's `cost` say so; an exempt account's
 *   would-be-billed message carries `subtype: "paid_exempt"` and costs nothing.
 * - The platform's own count across a month boundary, from Meta-signed status webhooks with chosen
 *   timestamps (Meta's statuses without pricing on our messages): 999 service deliveries on the number
 *   (997 seeded on the counter, two of another app through the webhook) and two free-form ones on the
 *   last day of a month (the 1,000th free, the 1,001st billed), then the next month's first delivery
 *   free again.
 */
import { getServices } from '../../../functions/composition';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbServiceMessageCounter } from '../../../shared/adapters/dynamodb/dynamodb-service-message-counter';
import { signWebhookBody } from '../../../shared/meta-app/webhook-signature';
import { runRateCardAdminCommand } from '../../../shared/pricing/rate-card-admin-commands';
import { statusOf, webhookBody, type StatusSpec } from '../../support/delivery-fakes';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';

jest.setTimeout(180_000);

// `service` priced for +44 only: +91 falls back to the utility price (Meta: the market's utility rate).
const card = { currency: 'USD', rates: { '44': { service: '0.0200', utility: '0.0220' }, '*': { utility: '0.0100' } } };

type Row = {
  status: string;
  messageId: string | null;
  pricing?: { category: string; type: string; billable: boolean; subtype?: string };
  cost?: { currency: string; amount: string };
};

describe('service messages priced as Meta bills them', () => {
  let runtime: TestRuntime;
  let key: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment } });
    key = (await issueKey(runtime.demo.organizationId)).secret;
    await runRateCardAdminCommand(getServices().rateCardAdmin, 'set-rate-card', { file: 'card.json' }, () => JSON.stringify(card));
    runtime.sandbox!.webhooks.configure({ sentDelayMs: 0, deliveredDelayMs: 20, readRate: 0, duplicateRate: 0.5, reorderRate: 0 });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  }, 60_000);

  const get = (path: string) => runtime.call('GET', `${BASE}${path}`, { headers: keyHeader(key) });
  const settle = async () => {
    await runtime.workersIdle();
    expect(await runtime.sandbox!.webhooks.drain(60_000)).toBe(true);
    await runtime.workersIdle();
  };
  const sendText = async (to: string): Promise<string> => {
    const answer = await runtime.call('POST', `${BASE}/send-freeform`, {
      headers: keyHeader(key),
      body: { fromPhoneNumber: DEMO.sender1, toPhoneNumber: to, type: 'text', text: 'Your order has shipped' },
    });
    expect(answer.status).toBe(200);
    return answer.headers.get('x-broadcast-job-id')!;
  };
  const rowOf = async (jobId: string): Promise<Row> => {
    const page = await get(`/broadcasts/${jobId}/recipients`);
    expect(page.status).toBe(200);
    return page.body.data.recipients[0];
  };
  const sandboxControl = (method: string, path: string, body?: unknown) =>
    fetch(`${runtime.sandboxUrl}/_sandbox${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const thisMonth = () => new Date().toISOString().slice(0, 7);

  it('the sandbox’s tier: the 1,000th delivered service message is free, the 1,001st billed at the card’s service price', async () => {
    expect((await sandboxControl('POST', '/service-tier', { phoneNumberId: DEMO.phoneNumberId1, month: thisMonth(), delivered: 999 })).status).toBe(200);
    const free = await sendText('447700900101');
    await settle();
    const billed = await sendText('447700900102');
    await settle();

    expect(await rowOf(free)).toMatchObject({ status: 'DELIVERED', pricing: { category: 'service', type: 'free_customer_service', billable: false } });
    expect((await rowOf(free)).cost).toBeUndefined();
    expect(await rowOf(billed)).toMatchObject({
      status: 'DELIVERED',
      pricing: { category: 'service', type: 'regular', billable: true },
      cost: { currency: 'USD', amount: '0.02' },
    });
    const summary = (await get(`/status/${billed}`)).body.data.summary;
    expect(summary.cost).toEqual({ currency: 'USD', billed: 1, amount: '0.02', byCategory: { service: { billed: 1, amount: '0.02' } } });
    expect(summary.pricing).toEqual({ billable: 1, byCategory: { service: 1 } });
    // The sandbox's statuses came twice (duplicates): each message counted once there too.
    const tier = (await (await sandboxControl('GET', '/service-tier')).json()) as { data: unknown[] };
    expect(tier.data).toContainEqual({ phoneNumberId: DEMO.phoneNumberId1, month: thisMonth(), delivered: 1001 });
    // A market without a `service` price: the card's utility price (here the `*` row's).
    const fallback = await sendText('919800000103');
    await settle();
    expect(await rowOf(fallback)).toMatchObject({ pricing: { type: 'regular', billable: true }, cost: { currency: 'USD', amount: '0.01' } });
  });

  it('an exempt account: what it would be billed for says paid_exempt and costs nothing (JSON and CSV)', async () => {
    expect((await sandboxControl('POST', `/accounts/${DEMO.wabaId}/pricing-exempt`, { exempt: true })).status).toBe(200);
    try {
      const jobId = await sendText('447700900104');
      await settle();
      const row = await rowOf(jobId);
      expect(row).toMatchObject({ pricing: { category: 'service', type: 'regular', billable: false, subtype: 'paid_exempt' } });
      expect(row.cost).toBeUndefined();
      const csv = (await (await fetch(`${runtime.baseUrl}${BASE}/broadcasts/${jobId}/recipients?format=csv`, { headers: keyHeader(key) })).text()).split(
        '\r\n',
      );
      expect(csv[0]!.endsWith(',pricingModel,cost,costCurrency,pricingSubtype,repliedAt,buttonPayload,firstClickAt,clicks,waitingUntil')).toBe(true);
      expect(csv[1]!.endsWith(',service,regular,false,PMP,,,paid_exempt,,,,,')).toBe(true);
    } finally {
      await sandboxControl('DELETE', `/accounts/${DEMO.wabaId}/pricing-exempt`);
    }
  });

  it('the platform’s own count across a month boundary, from signed statuses without pricing: 1,000 free, the 1,001st billed, the next month free again', async () => {
    // Meta's statuses come from here (signed, chosen times); the sandbox only accepts the sends.
    runtime.sandbox!.webhooks.configure({ enabled: false });
    const jobs = [await sendText('447700900201'), await sendText('447700900202'), await sendText('447700900203')];
    await runtime.workersIdle();
    const messageIds = await Promise.all(jobs.map(async (jobId) => (await rowOf(jobId)).messageId!));
    const at = (iso: string) => Date.parse(iso) / 1000;
    const post = async (statuses: StatusSpec[]) => {
      const raw = JSON.stringify(
        webhookBody([{ wabaId: DEMO.wabaId, phoneNumberId: DEMO.phoneNumberId1, displayPhoneNumber: DEMO.sender1, statuses: statuses.map(statusOf) }]),
      );
      const answer = await runtime.call('POST', '/hooks/meta/whatsapp', {
        rawBody: raw,
        headers: { 'x-hub-signature-256': signWebhookBody(raw, runtime.demo.metaAppSecret) },
      });
      expect(answer.status).toBe(200);
    };
    // 997 of June's deliveries are on the counter already (seeded: 997 signed statuses would take a minute here;
    // test/unit/delivery/service-tier.test.ts drives all 1,001 through the batch), then two service messages another
    // app sent from the number, priced by Meta: counted too (Meta's tier is the number's).
    const services = getServices();
    const counter = new DynamoDbServiceMessageCounter(services.clients.dynamoDb, services.config.tableNames.messaging!);
    await services.clients.dynamoDb.send(
      new PutCommand({ TableName: services.config.tableNames.messaging!, Item: { pk: `SVCTIER#${DEMO.phoneNumberId1}`, sk: 'MONTH#2026-06', delivered: 997 } }),
    );
    const meta = { billable: false, pricing_model: 'PMP', type: 'free_customer_service', category: 'service' };
    await post(
      [0, 1].map(
        (index): StatusSpec => ({
          id: `wamid.other${index}`,
          status: 'delivered',
          timestamp: at('2026-06-30T12:00:00Z') + index,
          recipient: '447700955000',
          pricing: meta,
        }),
      ),
    );
    await runtime.workersIdle();
    expect(await counter.deliveriesIn(DEMO.phoneNumberId1, '2026-06')).toBe(999);
    const ours = (index: number, iso: string): StatusSpec => ({
      id: messageIds[index]!,
      status: 'delivered',
      timestamp: at(iso),
      recipient: `44770090020${index + 1}`,
    });
    await post([ours(0, '2026-06-30T23:59:00Z')]);
    await runtime.workersIdle();
    await post([ours(1, '2026-06-30T23:59:59Z'), ours(1, '2026-06-30T23:59:59Z')]);
    await runtime.workersIdle();
    await post([ours(2, '2026-07-01T00:00:00Z')]);
    await runtime.workersIdle();

    expect(await rowOf(jobs[0]!)).toMatchObject({ status: 'DELIVERED', pricing: { category: 'service', type: 'free_customer_service', billable: false } });
    expect(await rowOf(jobs[1]!)).toMatchObject({
      status: 'DELIVERED',
      pricing: { category: 'service', type: 'regular', billable: true },
      cost: { currency: 'USD', amount: '0.02' },
    });
    expect(await rowOf(jobs[2]!)).toMatchObject({ status: 'DELIVERED', pricing: { category: 'service', type: 'free_customer_service', billable: false } });
    expect(await counter.deliveriesIn(DEMO.phoneNumberId1, '2026-06')).toBe(1001);
    expect(await counter.deliveriesIn(DEMO.phoneNumberId1, '2026-07')).toBe(1);
  });
});
