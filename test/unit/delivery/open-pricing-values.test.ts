/**
 * Meta's pricing values and status values are open strings (issue 35; ../shared/meta/platform-changes-2026-h2.md
 * rows 3 and 10): no value is enumerated, refused or warned about; `billable` is derived when Meta
 * leaves it out; `played` counts with read.
 */
import { applyWebhookBatch } from '../../../shared/delivery/apply-webhook-batch';
import { callbackDataOf } from '../../../shared/delivery/callback-data';
import { billableOf, pricingOf, splitPricedCode } from '../../../shared/delivery/message-pricing';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { parseWebhookBody } from '../../../shared/delivery/webhook-payload.schema';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingLog, statusOf, webhookBody } from '../../support/delivery-fakes';

const NOW = new Date('2026-11-01T10:00:00.000Z');
const PHONE_ID = 'pn_a';
const parseStatus = (status: Record<string, unknown>) => parseWebhookBody(webhookBody([{ phoneNumberId: PHONE_ID, statuses: [status] }]), NOW);

describe('pricing values as open strings', () => {
  it('keeps values it has never seen as they are (lower-cased), with a subtype', () => {
    expect(pricingOf({ category: 'group_service', type: 'free_group_customer_service', pricing_model: 'PMP', subtype: 'paid_exempt' })).toEqual({
      category: 'group_service',
      type: 'free_group_customer_service',
      billable: false,
      pricingModel: 'PMP',
      subtype: 'paid_exempt',
    });
    expect(pricingOf({ category: 'Quantum_Marketing', type: 'Surge', pricing_model: 'NEXT' })).toEqual({
      category: 'quantum_marketing',
      type: 'surge',
      billable: true,
      pricingModel: 'NEXT',
    });
  });

  it('derives billable from type (and an exempt subtype) only when Meta left the flag out', () => {
    expect(billableOf('regular')).toBe(true);
    expect(billableOf('free_customer_service')).toBe(false);
    expect(billableOf('free_group_customer_service')).toBe(false);
    expect(billableOf('regular', 'paid_exempt')).toBe(false);
    expect(pricingOf({ category: 'service', type: 'regular', billable: true, subtype: 'paid_exempt' })?.billable).toBe(true);
    // A flag of another JSON type is ignored, never the pricing.
    expect(pricingOf({ category: 'marketing', type: 'regular', billable: 'yes' })?.billable).toBe(true);
  });

  it('keeps a value with separators the tally code uses from breaking it', () => {
    const pricing = pricingOf({ category: 'odd~cat:egory', type: 'a:b~c', pricing_model: 'x:y' })!;
    expect(pricing).toMatchObject({ category: 'odd_cat_egory', type: 'a_b_c', pricingModel: 'X_Y' });
    expect(splitPricedCode(`3D~3${pricing.category}~1~44`)).toEqual({
      status: '3D',
      pricing: { category: 'odd_cat_egory', billable: true, callingCode: '44' },
    });
  });

  it('reads Meta’s hyphenated category and a status with pricing of unknown shape without skipping it', () => {
    const parsed = parseStatus({
      ...statusOf({ id: 'w', status: 'delivered' }),
      pricing: { category: 'authentication-international', type: 'regular', pricing_model: 7 },
    });
    expect(parsed.skipped).toEqual([]);
    expect(parsed.changes[0]).toMatchObject({ statuses: [{ stage: 'delivered', pricing: { category: 'authentication_international', pricingModel: 'PMP' } }] });
  });
});

describe('status values', () => {
  it('reads played as read, and ignores a status value it does not know, without skipping or warning', async () => {
    const played = parseStatus(statusOf({ id: 'w', status: 'played' }));
    expect(played.changes[0]).toMatchObject({ statuses: [{ stage: 'read' }] });
    const unknown = parseStatus(statusOf({ id: 'w', status: 'rewound' }));
    expect(unknown.skipped).toEqual([]);
    expect(unknown.changes[0]).toMatchObject({ statuses: [] });
  });

  it('counts a played voice message with read in the recipient’s status and the tally', async () => {
    const owners = new FakeOwnerDirectory();
    owners.phoneNumbers.set(PHONE_ID, { organizationId: 'org_a', wabaId: 'waba-a' });
    const ledger = new FakeLedgerDeliveryStore();
    ledger.addJob('job_v', 'org_a', PHONE_ID);
    ledger.addEntry('job_v', 0, 0, { status: 'SENT', updatedAt: NOW.toISOString(), messageId: 'wamid.v', tallyCode: tallyCodes.sent });
    const log = new RecordingLog();
    const callbackData = callbackDataOf({ kind: 'ledger', jobId: 'job_v', chunkIndex: 0, index: 0 });
    const at = Math.floor(NOW.getTime() / 1000);
    const statuses = [
      statusOf({ id: 'wamid.v', status: 'delivered', timestamp: at, callbackData }),
      statusOf({ id: 'wamid.v', status: 'played', timestamp: at + 9, callbackData }),
      statusOf({ id: 'wamid.v', status: 'rewound', timestamp: at + 10, callbackData }),
    ];
    const report = await applyWebhookBatch({ owners, ledger, log }, webhookBody([{ phoneNumberId: PHONE_ID, statuses }]), NOW);
    expect(report).toMatchObject({ applied: 2, skipped: 0, dropped: 0 });
    expect(ledger.statusOf('job_v', 0, 0, NOW)).toBe('READ');
    expect(ledger.tallyOf('job_v', 0)).toBe('4R');
    expect(log.lines.filter((line) => line.level === 'warn')).toEqual([]);
  });
});
