/**
 * The sandbox's emulation of Meta's free tier of service messages (issue 35; sandbox/service-tier.ts):
 * the first 1,000 delivered per business number and UTC month `free_customer_service`, then `regular`
 * and billable; a new month free again; an exempt account's would-be-billed messages `paid_exempt`.
 */
import { useSandbox } from '../../support/use-sandbox';
import { Receiver } from './webhook-receiver';
import { PHONE_ID, RECIPIENT, WABA_ID, fixtureAccounts, templateMessage, textMessage } from './sandbox-test-helpers';

const receiver = new Receiver();
let clock = Date.parse('2026-10-31T23:00:00Z');
const client = useSandbox({ accounts: fixtureAccounts(), now: () => clock });

beforeAll(() => receiver.start());
afterAll(() => receiver.stop());
beforeEach(async () => {
  client.sandbox.reset();
  receiver.clear();
  clock = Date.parse('2026-10-31T23:00:00Z');
  const configured = await client.sandboxApi('POST', '/webhooks', {
    url: receiver.url,
    appSecret: 'secret',
    sentDelayMs: 0,
    deliveredDelayMs: 20,
    readRate: 0,
    duplicateRate: 1,
    concurrency: 1,
    batch: false,
  });
  expect(configured.status).toBe(200);
});

/** Sends one text and answers the pricing of its `delivered` status(es) once posted. */
async function deliveredPricing(body: unknown = textMessage(RECIPIENT)): Promise<unknown[]> {
  receiver.clear();
  const sent = await client.send(body);
  expect(sent.status).toBe(200);
  expect(await client.sandboxApi('POST', '/webhooks/drain')).toMatchObject({ status: 200 });
  return receiver
    .statuses()
    .filter((status) => status.status === 'delivered')
    .map((status) => status.pricing);
}

const free = { billable: false, pricing_model: 'PMP', category: 'service', type: 'free_customer_service' };
const billed = { billable: true, pricing_model: 'PMP', category: 'service', type: 'regular' };

describe('the free tier of service messages', () => {
  it('1,000 delivered free per number and month (duplicates count once), the 1,001st billed, the next month free again', async () => {
    expect(await client.sandboxApi('POST', '/service-tier', { phoneNumberId: PHONE_ID, month: '2026-10', delivered: 999 })).toMatchObject({ status: 200 });
    expect(await deliveredPricing()).toEqual([free, free]);
    expect(await deliveredPricing()).toEqual([billed, billed]);
    expect((await client.sandboxApi('GET', '/service-tier')).body).toEqual({ data: [{ phoneNumberId: PHONE_ID, month: '2026-10', delivered: 1001 }] });
    // Sent at 23:59:59.990, delivered 20 ms later: November's first.
    clock = Date.parse('2026-10-31T23:59:59.990Z');
    expect(await deliveredPricing()).toEqual([free, free]);
    expect((await client.sandboxApi('GET', '/service-tier')).body.data).toContainEqual({ phoneNumberId: PHONE_ID, month: '2026-11', delivered: 1 });
  });

  it('reactions are never counted nor charged, also past the 1,000', async () => {
    await client.sandboxApi('POST', '/service-tier', { phoneNumberId: PHONE_ID, month: '2026-10', delivered: 1000 });
    const reaction = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: RECIPIENT,
      type: 'reaction',
      reaction: { message_id: 'wamid.earlier', emoji: '👍' },
    };
    expect(await deliveredPricing(reaction)).toEqual([free, free]);
    expect((await client.sandboxApi('GET', '/service-tier')).body).toEqual({ data: [{ phoneNumberId: PHONE_ID, month: '2026-10', delivered: 1000 }] });
  });

  it('templates are priced in their category and never counted', async () => {
    expect(await deliveredPricing(templateMessage('order_update', 'en_US', ['Ann', '42']))).toEqual([
      { billable: true, pricing_model: 'PMP', category: 'utility', type: 'regular' },
      expect.anything(),
    ]);
    expect((await client.sandboxApi('GET', '/service-tier')).body).toEqual({ data: [] });
  });

  it('an exempt account: what it would be billed for carries subtype paid_exempt and is not billable; templates too', async () => {
    expect(await client.sandboxApi('POST', `/accounts/${WABA_ID}/pricing-exempt`, { exempt: true })).toMatchObject({
      status: 200,
      body: { wabaId: WABA_ID, exempt: true },
    });
    await client.sandboxApi('POST', '/service-tier', { phoneNumberId: PHONE_ID, month: '2026-10', delivered: 1000 });
    expect((await deliveredPricing())[0]).toEqual({ ...billed, billable: false, subtype: 'paid_exempt' });
    expect((await deliveredPricing(templateMessage('order_update', 'en_US', ['Ann', '42'])))[0]).toMatchObject({
      category: 'utility',
      type: 'regular',
      billable: false,
      subtype: 'paid_exempt',
    });
    expect(await client.sandboxApi('DELETE', `/accounts/${WABA_ID}/pricing-exempt`)).toMatchObject({ status: 200, body: { exempt: false } });
    expect((await deliveredPricing())[0]).toEqual(billed);
  });

  it('refuses a malformed count with a message naming the field', async () => {
    expect(await client.sandboxApi('POST', '/service-tier', { phoneNumberId: PHONE_ID, month: '2026-13', delivered: 1 })).toMatchObject({
      status: 400,
      body: { error: { message: 'month must be YYYY-MM' } },
    });
    expect(await client.sandboxApi('POST', `/accounts/${WABA_ID}/pricing-exempt`, { exempt: 'yes' })).toMatchObject({
      status: 400,
      body: { error: { message: 'exempt must be a boolean' } },
    });
  });
});
