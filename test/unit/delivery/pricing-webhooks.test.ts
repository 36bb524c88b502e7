/**
 * Meta's `pricing` on status webhooks: parsed leniently, kept per stage on the ledger entry, and
 * counted once per recipient under its latest pricing (by status precedence), whatever the order
 * and however often a batch is delivered.
 */
import { applyWebhookBatch } from '../../../shared/delivery/apply-webhook-batch';
import { callbackDataOf } from '../../../shared/delivery/callback-data';
import { effectivePricing, pricingOf, splitPricedCode } from '../../../shared/delivery/message-pricing';
import { tallyCodeOfFacts, tallyCodes } from '../../../shared/delivery/recipient-status';
import { parseWebhookBody } from '../../../shared/delivery/webhook-payload.schema';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingLog, statusOf, webhookBody, type StatusSpec } from '../../support/delivery-fakes';

const NOW = new Date('2026-03-01T10:00:00.000Z');
const T0 = Math.floor(NOW.getTime() / 1000) - 600;
const JOB = 'job_p';
const PHONE_ID = 'pn_a';
const b1 = (index: number) => callbackDataOf({ kind: 'ledger', jobId: JOB, chunkIndex: 0, index });
const meta = (category: string, extra: Record<string, unknown> = {}) => ({ billable: true, pricing_model: 'PMP', type: 'regular', category, ...extra });

function setup(recipients = 3) {
  const owners = new FakeOwnerDirectory();
  owners.phoneNumbers.set(PHONE_ID, { organizationId: 'org_a', wabaId: 'waba-a' });
  const ledger = new FakeLedgerDeliveryStore();
  ledger.addJob(JOB, 'org_a', PHONE_ID);
  for (let index = 0; index < recipients; index += 1)
    ledger.addEntry(JOB, 0, index, { status: 'SENT', updatedAt: NOW.toISOString(), messageId: `wamid.${index}`, tallyCode: tallyCodes.sent });
  const published: Array<{ data: Record<string, unknown> }> = [];
  const events = { publish: async (_organizationId: string, event: { data: Record<string, unknown> }) => void published.push(event) };
  const apply = (...specs: StatusSpec[]) =>
    applyWebhookBatch({ owners, ledger, log: new RecordingLog(), events }, webhookBody([{ phoneNumberId: PHONE_ID, statuses: specs.map(statusOf) }]), NOW);
  return { ledger, apply, published };
}

describe('parsing Meta’s pricing object', () => {
  const parse = (pricing: unknown, status = 'sent') =>
    parseWebhookBody(webhookBody([{ phoneNumberId: PHONE_ID, statuses: [{ ...statusOf({ id: 'w', status }), pricing }] }]), NOW);

  it('reads Meta’s documented shape into ours', () => {
    const parsed = parse(meta('marketing'));
    expect(parsed.changes[0]).toMatchObject({ statuses: [{ pricing: { category: 'marketing', type: 'regular', billable: true, pricingModel: 'PMP' } }] });
  });

  it('spells authentication-international one way, lower-cases Meta’s values', () => {
    expect(pricingOf({ category: 'authentication-international', type: 'REGULAR', pricing_model: 'pmp' })).toEqual({
      category: 'authentication_international',
      type: 'regular',
      billable: true,
      pricingModel: 'PMP',
    });
    expect(pricingOf({ category: 'authentication_international' })?.category).toBe('authentication_international');
    expect(pricingOf({ category: 'marketing_lite' })?.category).toBe('marketing_lite');
  });

  it('derives billable from a free type when Meta left the deprecated flag out', () => {
    expect(pricingOf({ category: 'utility', type: 'free_customer_service' })?.billable).toBe(false);
    expect(pricingOf({ category: 'utility', type: 'regular' })?.billable).toBe(true);
  });

  it('drops a malformed or category-less pricing object and still applies the status', () => {
    for (const bad of ['x', { type: 'regular' }, { category: 42, type: 'regular' }, null]) {
      const parsed = parse(bad);
      expect(parsed.skipped).toEqual([]);
      expect(parsed.changes[0]).toMatchObject({ statuses: [{ messageId: 'w', stage: 'sent' }] });
      expect((parsed.changes[0] as { statuses: Array<{ pricing?: unknown }> }).statuses[0]!.pricing).toBeUndefined();
    }
  });

  it('ignores pricing on a failed status (a failed message is not billed)', () => {
    expect((parse(meta('marketing'), 'failed').changes[0] as { statuses: Array<{ pricing?: unknown }> }).statuses[0]!.pricing).toBeUndefined();
  });
});

describe('pricing on the ledger entry and in the summary', () => {
  it('keeps each stage’s pricing and shows the highest stage’s', async () => {
    const kit = setup();
    await kit.apply(
      { id: 'wamid.0', status: 'sent', timestamp: T0, callbackData: b1(0), pricing: meta('marketing_lite') },
      { id: 'wamid.0', status: 'delivered', timestamp: T0 + 5, callbackData: b1(0), pricing: meta('marketing') },
    );
    const facts = kit.ledger.entry(JOB, 0, 0)!.facts;
    expect(facts.sentPricing?.category).toBe('marketing_lite');
    expect(facts.deliveredPricing?.category).toBe('marketing');
    expect(effectivePricing(facts)).toEqual({ stage: 'delivered', pricing: { category: 'marketing', type: 'regular', billable: true, pricingModel: 'PMP' } });
    expect(kit.ledger.tallyOf(JOB, 0)).toBe('3D~3marketing~1');
  });

  it('counts each recipient once, under its latest category, in every order and under redelivery', async () => {
    const recipient0 = [
      { id: 'wamid.0', status: 'sent', timestamp: T0, callbackData: b1(0), pricing: meta('marketing_lite') },
      { id: 'wamid.0', status: 'delivered', timestamp: T0 + 5, callbackData: b1(0), pricing: meta('marketing') },
      { id: 'wamid.0', status: 'read', timestamp: T0 + 9, callbackData: b1(0) },
    ];
    const recipient1 = [
      { id: 'wamid.1', status: 'sent', timestamp: T0, callbackData: b1(1), pricing: meta('utility', { billable: false, type: 'free_customer_service' }) },
      {
        id: 'wamid.1',
        status: 'delivered',
        timestamp: T0 + 5,
        callbackData: b1(1),
        pricing: meta('utility', { billable: false, type: 'free_customer_service' }),
      },
    ];
    const recipient2 = [{ id: 'wamid.2', status: 'sent', timestamp: T0, callbackData: b1(2), pricing: meta('authentication-international') }];
    const all: StatusSpec[] = [...recipient0, ...recipient1, ...recipient2];
    const orders = [all, [...all].reverse(), [all[2]!, all[5]!, all[0]!, all[4]!, all[1]!, all[3]!]];
    for (const order of orders) {
      const kit = setup();
      // One event per batch, each batch twice (a redelivery), then the whole lot once more.
      for (const event of order) {
        await kit.apply(event);
        await kit.apply(event);
      }
      await kit.apply(...order);
      const counts = kit.ledger.countsOf(JOB, NOW);
      expect(counts.pricing).toEqual({ billable: 2, byCategory: { marketing: 1, utility: 1, authentication_international: 1 } });
      expect(counts).toMatchObject({ sent: 3, delivered: 2, read: 1 });
      expect(kit.ledger.tallyOf(JOB, 0)).toBe('4R~3marketing~1');
    }
  });

  it('adds a delivered pricing that arrives after a read without one (the code of the merged facts)', async () => {
    const kit = setup();
    await kit.apply({ id: 'wamid.0', status: 'read', timestamp: T0 + 9, callbackData: b1(0) });
    expect(kit.ledger.tallyOf(JOB, 0)).toBe(tallyCodes.read);
    await kit.apply({ id: 'wamid.0', status: 'delivered', timestamp: T0 + 5, callbackData: b1(0), pricing: meta('marketing') });
    expect(kit.ledger.tallyOf(JOB, 0)).toBe('4R~3marketing~1');
    expect(kit.ledger.countsOf(JOB, NOW).pricing).toEqual({ billable: 1, byCategory: { marketing: 1 } });
  });

  it('does not count a recipient whose message failed after its priced sent', async () => {
    const kit = setup();
    await kit.apply(
      { id: 'wamid.0', status: 'sent', timestamp: T0, callbackData: b1(0), pricing: meta('marketing') },
      { id: 'wamid.0', status: 'failed', timestamp: T0 + 2, callbackData: b1(0), error: { code: 131026, title: 'Message undeliverable' } },
    );
    expect(kit.ledger.tallyOf(JOB, 0)).toBe('2F:131026');
    expect(kit.ledger.countsOf(JOB, NOW).pricing).toEqual({ billable: 0, byCategory: {} });
    // The list still shows what Meta said at `sent`.
    expect(effectivePricing(kit.ledger.entry(JOB, 0, 0)!.facts)?.pricing.category).toBe('marketing');
  });

  it('carries the event’s pricing in message.status, null without one', async () => {
    const kit = setup();
    await kit.apply(
      { id: 'wamid.0', status: 'sent', timestamp: T0, callbackData: b1(0), pricing: meta('marketing') },
      { id: 'wamid.0', status: 'read', timestamp: T0 + 3, callbackData: b1(0) },
    );
    const byStatus = Object.fromEntries(kit.published.map((event) => [event.data.status, event.data.pricing]));
    expect(byStatus).toEqual({ SENT: { category: 'marketing', type: 'regular', billable: true, pricingModel: 'PMP' }, READ: null });
  });
});

describe('priced tally codes', () => {
  const pricing = { category: 'marketing', type: 'regular', billable: true, pricingModel: 'PMP' };
  it('grow with every added fact, so the tally stays a max-register', () => {
    const steps = [
      { sentAt: 'a' },
      { sentAt: 'a', sentPricing: pricing },
      { sentAt: 'a', sentPricing: pricing, failedAt: 'b', metaErrorCode: 131026 },
      { sentAt: 'a', sentPricing: pricing, failedAt: 'b', metaErrorCode: 131026, deliveredAt: 'c' },
      { sentAt: 'a', sentPricing: pricing, deliveredAt: 'c', deliveredPricing: { ...pricing, category: 'marketing_lite' } },
      { sentAt: 'a', sentPricing: pricing, deliveredAt: 'c', readAt: 'd', deliveredPricing: { ...pricing, category: 'marketing_lite' } },
    ].map((facts) => tallyCodeOfFacts(facts)!);
    for (let step = 1; step < steps.length; step += 1) expect(steps[step]! > steps[step - 1]!).toBe(true);
    expect(steps.every((code) => code < tallyCodes.cancelled && code < tallyCodes.failedOnSend('X'))).toBe(true);
    expect(splitPricedCode(steps[5]!)).toEqual({ status: '4R', pricing: { category: 'marketing_lite', billable: true } });
    expect(splitPricedCode('2F:131026')).toEqual({ status: '2F:131026' });
  });
});
