/**
 * Meta's free tier of service messages (issue 35 item 7): delivered service messages counted per
 * sending number and UTC month, once per message; the first 1,000 free, the rest billed; Meta's
 * own pricing on the status is the truth; the next month starts at 1 again.
 */
import { applyWebhookBatch } from '../../../shared/delivery/apply-webhook-batch';
import { callbackDataOf } from '../../../shared/delivery/callback-data';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { countsAsServiceDelivery, serviceMonthOf, serviceTierPricing, serviceTierUsage } from '../../../shared/delivery/service-tier';
import {
  FakeLedgerDeliveryStore,
  FakeOwnerDirectory,
  InMemoryServiceMessageCounter,
  RecordingLog,
  statusOf,
  webhookBody,
  type StatusSpec,
} from '../../support/delivery-fakes';

const NOW = new Date('2026-11-01T00:10:00.000Z');
const PHONE_ID = 'pn_service';
const OCT_31 = Date.parse('2026-10-31T23:59:00Z') / 1000;
const NOV_1 = Date.parse('2026-11-01T00:00:30Z') / 1000;
const service = (type: string) => ({ billable: type === 'regular', pricing_model: 'PMP', type, category: 'service' });

describe('the counting rule', () => {
  it('counts in the UTC month of Meta’s delivery time', () => {
    expect(serviceMonthOf(new Date('2026-10-31T23:59:59.999Z'))).toBe('2026-10');
    expect(serviceMonthOf(new Date('2026-11-01T00:00:00.000Z'))).toBe('2026-11');
  });

  it('prices ordinals 1–1,000 free and 1,001 on billed, as Meta writes it', () => {
    expect(serviceTierPricing(1)).toEqual({ category: 'service', type: 'free_customer_service', billable: false, pricingModel: 'PMP' });
    expect(serviceTierPricing(1000).billable).toBe(false);
    expect(serviceTierPricing(1001)).toEqual({ category: 'service', type: 'regular', billable: true, pricingModel: 'PMP' });
    expect(serviceTierUsage('2026-11', 1200)).toEqual({ month: '2026-11', delivered: 1200, freeRemaining: 0 });
  });

  it('counts first reaches of a service message only: delivered or read, Meta’s service category, or a free-form job Meta did not price', () => {
    const pricing = { category: 'service', type: 'regular', billable: true, pricingModel: 'PMP' };
    expect(countsAsServiceDelivery({ stage: 'delivered', pricing }, false)).toBe(true);
    expect(countsAsServiceDelivery({ stage: 'read' }, true)).toBe(true);
    expect(countsAsServiceDelivery({ stage: 'sent', pricing }, true)).toBe(false);
    expect(countsAsServiceDelivery({ stage: 'failed' }, true)).toBe(false);
    expect(countsAsServiceDelivery({ stage: 'delivered' }, false)).toBe(false);
    // Reactions and templates are priced in another category (or not at all) by Meta: never counted.
    expect(countsAsServiceDelivery({ stage: 'delivered', pricing: { ...pricing, category: 'utility' } }, true)).toBe(false);
  });
});

describe('the free tier through the webhook batch', () => {
  function setup(jobs: number) {
    const owners = new FakeOwnerDirectory();
    owners.phoneNumbers.set(PHONE_ID, { organizationId: 'org_a', wabaId: 'waba-a' });
    const ledger = new FakeLedgerDeliveryStore();
    for (let job = 0; job < jobs; job += 1) {
      ledger.addJob(`msg_${job}`, 'org_a', PHONE_ID, 1);
      ledger.addEntry(`msg_${job}`, 0, 0, { status: 'SENT', updatedAt: NOW.toISOString(), messageId: `wamid.f${job}`, tallyCode: tallyCodes.sent });
    }
    const serviceTier = new InMemoryServiceMessageCounter();
    const log = new RecordingLog();
    const apply = (specs: StatusSpec[]) =>
      applyWebhookBatch({ owners, ledger, log, serviceTier }, webhookBody([{ phoneNumberId: PHONE_ID, statuses: specs.map(statusOf) }]), NOW);
    const freeform = (job: number, timestamp: number, extra: Partial<StatusSpec> = {}): StatusSpec => ({
      id: `wamid.f${job}`,
      status: 'delivered',
      timestamp,
      callbackData: callbackDataOf({ kind: 'ledger', jobId: `msg_${job}`, chunkIndex: 0, index: 0 }),
      ...extra,
    });
    return { ledger, serviceTier, apply, freeform, log };
  }

  it('1,001 deliveries across a month boundary: 999 of another app (Meta-priced) and two free-form ones in October, one in November', async () => {
    const kit = setup(3);
    const others = Array.from(
      { length: 999 },
      (_, index): StatusSpec => ({ id: `wamid.o${index}`, status: 'delivered', timestamp: OCT_31 - index, pricing: service('free_customer_service') }),
    );
    await kit.apply(others);
    expect(await kit.serviceTier.deliveriesIn(PHONE_ID, '2026-10')).toBe(999);
    // The 1,000th (free) and the 1,001st (billed): Meta's statuses here carry no pricing, so the count decides.
    await kit.apply([kit.freeform(0, OCT_31 + 10)]);
    await kit.apply([kit.freeform(1, OCT_31 + 20), kit.freeform(1, OCT_31 + 25, { status: 'read' })]);
    await kit.apply([kit.freeform(2, NOV_1)]);
    expect(kit.ledger.tallyOf('msg_0', 0)).toBe('3D~3service~0');
    // Priced on its delivered status; the read adds no pricing of its own (Meta's would outrank it).
    expect(kit.ledger.tallyOf('msg_1', 0)).toBe('4R~3service~1');
    expect(kit.ledger.tallyOf('msg_2', 0)).toBe('3D~3service~0');
    expect(await kit.serviceTier.deliveriesIn(PHONE_ID, '2026-10')).toBe(1001);
    expect(await kit.serviceTier.deliveriesIn(PHONE_ID, '2026-11')).toBe(1);
  });

  it('counts a message once however often its statuses arrive, and keeps Meta’s pricing where it is given', async () => {
    const kit = setup(1);
    const delivered = kit.freeform(0, NOV_1, { pricing: { ...service('regular'), subtype: 'paid_exempt', billable: false } });
    await kit.apply([delivered, delivered]);
    await kit.apply([delivered, { ...delivered, status: 'read', pricing: undefined, timestamp: NOV_1 + 5 }]);
    expect(await kit.serviceTier.deliveriesIn(PHONE_ID, '2026-11')).toBe(1);
    // Meta said regular but exempt: not billed, whatever the count says.
    expect(kit.ledger.tallyOf('msg_0', 0)).toBe('4R~3service~0');
    expect(kit.log.lines.filter((line) => line.level === 'warn')).toEqual([]);
  });

  it('leaves template and sent statuses uncounted', async () => {
    const kit = setup(1);
    await kit.apply([
      kit.freeform(0, NOV_1, { status: 'sent' }),
      { id: 'wamid.t', status: 'delivered', timestamp: NOV_1, pricing: { ...service('regular'), category: 'utility' } },
    ]);
    expect(await kit.serviceTier.deliveriesIn(PHONE_ID, '2026-11')).toBe(0);
  });
});
