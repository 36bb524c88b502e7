/**
 * The attribution rules (docs/OUTCOMES.md "Attribution") through the delivery processor on fakes:
 * a `delivered` status writes the person's touch; an inbound message is attributed by its context
 * (tenant-checked), else by the latest touch within its window; taps get their button's index, a
 * STOP an opt-out fact; duplicates add nothing and publish nothing.
 */
import { applyWebhookBatch, type DeliveryEventPorts } from '../../../shared/delivery/apply-webhook-batch';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { optOutKeywordsOf, defaultOptInKeywords, defaultOptOutKeywords } from '../../../shared/inbox/opt-outs';
import { InboundAttribution } from '../../../shared/outcomes/attribute-inbound';
import { quickRepliesOf, tappedIndexOf } from '../../../shared/outcomes/quick-replies';
import { FakeLedgerDeliveryStore, FakeOwnerDirectory, RecordingInboundSink, RecordingLog, statusOf, webhookBody } from '../../support/delivery-fakes';
import { InMemoryOutcomeStore } from '../../support/in-memory-outcome-store';
import { InMemoryTouchStore } from '../../support/in-memory-touch-store';
import { RecordingPublisher } from '../../support/webhook-fakes';

const DELIVERED_AT = Date.parse('2026-12-01T10:00:00.000Z') / 1000;
const HOUR = 3600;
const PHONE = '447700900001';
const BSUID = 'GB.2938475610293847';

function setUp() {
  const owners = new FakeOwnerDirectory();
  owners.phoneNumbers.set('pn_a', { organizationId: 'org_a', wabaId: 'waba-a' });
  owners.phoneNumbers.set('pn_b', { organizationId: 'org_b', wabaId: 'waba-b' });
  const ledger = new FakeLedgerDeliveryStore();
  ledger.addJob('pub_1', 'org_a', 'pn_a', 10, 'cmp_1');
  ledger.setAttribution('pub_1', {
    attributionWindowHours: 24,
    quickReplies: [
      { index: 0, text: 'Yes please' },
      { index: 1, text: 'Stop', payload: 'STOP-PROMO' },
    ],
  });
  for (let index = 0; index < 3; index += 1) {
    ledger.addEntry('pub_1', 0, index, { status: 'SENT', updatedAt: '2026-12-01T09:59:00.000Z', messageId: `wamid.out${index}`, tallyCode: tallyCodes.sent });
  }
  const outcomes = new InMemoryOutcomeStore();
  const touches = new InMemoryTouchStore();
  const events = new RecordingPublisher();
  const attribution = new InboundAttribution({ ledger, outcomes, touches, optOutKeywords: optOutKeywordsOf(defaultOptOutKeywords, defaultOptInKeywords) });
  const ports: DeliveryEventPorts = { owners, ledger, inbound: new RecordingInboundSink(), attribution, events, log: new RecordingLog() };
  const apply = (phoneNumberId: string, body: { statuses?: unknown[]; messages?: unknown[] }, redelivered = false) =>
    applyWebhookBatch(ports, webhookBody([{ phoneNumberId, ...body }]), new Date('2026-12-01T12:00:00.000Z'), { redelivered });
  const deliver = (index: number, recipient: string, userId?: string) =>
    apply('pn_a', {
      statuses: [
        { ...statusOf({ id: `wamid.out${index}`, status: 'delivered', timestamp: DELIVERED_AT, recipient }), ...(userId ? { recipient_user_id: userId } : {}) },
      ],
    });
  const published = (type: string) => events.published.filter(({ event }) => event.type === type).map(({ event }) => event.data);
  return { ledger, outcomes, touches, events, apply, deliver, published };
}

let sequence = 0;
const inbound = (spec: {
  from?: string;
  userId?: string;
  at: number;
  text?: string;
  context?: string;
  button?: { payload: string; text: string };
  buttonReply?: { id: string; title: string };
}) => ({
  ...(spec.from ? { from: spec.from } : {}),
  ...(spec.userId ? { from_user_id: spec.userId } : {}),
  id: `wamid.in${(sequence += 1)}`,
  timestamp: String(spec.at),
  ...(spec.context ? { context: { from: '15550000000', id: spec.context } } : {}),
  ...(spec.button
    ? { type: 'button', button: spec.button }
    : spec.buttonReply
      ? { type: 'interactive', interactive: { type: 'button_reply', button_reply: spec.buttonReply } }
      : { type: 'text', text: { body: spec.text ?? 'hi' } }),
});

describe('replies by context', () => {
  it('attributes a reply naming our message to its recipient, once, with one message.replied', async () => {
    const kit = setUp();
    const reply = inbound({ from: PHONE, at: DELIVERED_AT + 90 * HOUR, context: 'wamid.out2', text: 'Sounds good' });
    await kit.apply('pn_a', { messages: [reply] });
    await kit.apply('pn_a', { messages: [reply] });
    expect(kit.outcomes.outcomesOfJob('pub_1').get(2)).toEqual({ repliedAt: new Date((DELIVERED_AT + 90 * HOUR) * 1000).toISOString() });
    // A context reply has no window: 90 hours after the send still counts (the job's window is 24).
    expect(kit.published('message.replied')).toEqual([
      expect.objectContaining({
        jobId: 'pub_1',
        campaignId: 'cmp_1',
        recipientIndex: 2,
        recipient: PHONE,
        messageId: reply.id,
        repliedTo: 'wamid.out2',
        via: 'context',
      }),
    ]);
  });

  it('republishes on a redelivered batch (same event id), and adds no fact', async () => {
    const kit = setUp();
    const reply = inbound({ from: PHONE, at: DELIVERED_AT + HOUR, context: 'wamid.out0' });
    await kit.apply('pn_a', { messages: [reply] });
    await kit.apply('pn_a', { messages: [reply] }, true);
    const replied = kit.events.published.filter(({ event }) => event.type === 'message.replied');
    expect(replied).toHaveLength(2);
    expect(replied[0]!.event.id).toBe(replied[1]!.event.id);
    expect(kit.outcomes.writes.filter(({ event }) => event.kind === 'reply')).toHaveLength(2);
    expect(kit.outcomes.outcomesOfJob('pub_1').size).toBe(1);
  });

  it('reads the job once for a batch of replies to it (the owner read is shared per delivery)', async () => {
    const kit = setUp();
    const replies = [0, 1, 2].map((index) => inbound({ from: `44770090010${index}`, at: DELIVERED_AT + HOUR, context: `wamid.out${index}` }));
    await kit.apply('pn_a', { messages: replies });
    expect(kit.ledger.jobOwnerReads).toBe(1);
    expect(kit.touches.reads).toBe(0);
    expect(kit.outcomes.outcomesOfJob('pub_1').size).toBe(3);
  });

  it('ignores a context naming another organization’s message', async () => {
    const kit = setUp();
    await kit.apply('pn_b', { messages: [inbound({ from: PHONE, at: DELIVERED_AT + HOUR, context: 'wamid.out1' })] });
    expect(kit.outcomes.writes).toEqual([]);
    expect(kit.published('message.replied')).toEqual([]);
  });

  it('records a template quick-reply tap with its button index (payload given at accept, else the label; -1 when none)', async () => {
    const kit = setUp();
    await kit.apply('pn_a', {
      messages: [inbound({ from: PHONE, at: DELIVERED_AT + HOUR, context: 'wamid.out0', button: { payload: 'STOP-PROMO', text: 'Stop' } })],
    });
    await kit.apply('pn_a', {
      messages: [inbound({ from: '447700900002', at: DELIVERED_AT + HOUR, context: 'wamid.out1', button: { payload: 'Yes please', text: 'Yes please' } })],
    });
    await kit.apply('pn_a', {
      messages: [inbound({ from: '447700900003', at: DELIVERED_AT + HOUR, context: 'wamid.out2', buttonReply: { id: 'other', title: 'Other' } })],
    });
    const taps = (index: number) =>
      kit.outcomes
        .outcomesOfJob('pub_1')
        .get(index)
        ?.buttonTaps?.map(({ index: button, payload }) => ({ button, payload }));
    expect(taps(0)).toEqual([{ button: 1, payload: 'STOP-PROMO' }]);
    expect(taps(1)).toEqual([{ button: 0, payload: 'Yes please' }]);
    expect(taps(2)).toEqual([{ button: -1, payload: 'other' }]);
    expect(kit.published('button.tapped')).toEqual([
      expect.objectContaining({ recipientIndex: 0, button: { index: 1, payload: 'STOP-PROMO' }, repliedTo: 'wamid.out0' }),
      expect.objectContaining({ recipientIndex: 1, button: { index: 0, payload: 'Yes please' } }),
      expect.objectContaining({ recipientIndex: 2, button: { index: -1, payload: 'other' } }),
    ]);
    expect(kit.published('message.replied')).toHaveLength(3);
  });

  it('counts a STOP reply as an opt-out attributed to the job', async () => {
    const kit = setUp();
    await kit.apply('pn_a', { messages: [inbound({ from: PHONE, at: DELIVERED_AT + HOUR, context: 'wamid.out1', text: ' stop ' })] });
    expect(kit.outcomes.outcomesOfJob('pub_1').get(1)).toMatchObject({ optedOutAt: expect.any(String), repliedAt: expect.any(String) });
  });
});

describe('replies by last touch', () => {
  it('writes the touch once per delivered recipient (not per duplicate), under the number and the BSUID', async () => {
    const kit = setUp();
    await kit.deliver(0, PHONE, BSUID);
    await kit.deliver(0, PHONE, BSUID);
    expect(kit.touches.writes).toBe(2);
    await expect(kit.touches.latestTouch('org_a', [BSUID])).resolves.toEqual({
      jobId: 'pub_1',
      campaignId: 'cmp_1',
      chunkIndex: 0,
      index: 0,
      at: '2026-12-01T10:00:00.000Z',
      windowHours: 24,
    });
  });

  it('writes the touch from a `read` when Meta skipped `delivered`; a read after the delivery keeps the delivery time', async () => {
    const kit = setUp();
    await kit.apply('pn_a', { statuses: [statusOf({ id: 'wamid.out1', status: 'read', timestamp: DELIVERED_AT + 60, recipient: '447700900002' })] });
    await expect(kit.touches.latestTouch('org_a', ['447700900002'])).resolves.toMatchObject({ jobId: 'pub_1', index: 1, at: '2026-12-01T10:01:00.000Z' });
    await kit.deliver(0, PHONE);
    await kit.apply('pn_a', { statuses: [statusOf({ id: 'wamid.out0', status: 'read', timestamp: DELIVERED_AT + 600, recipient: PHONE })] });
    await expect(kit.touches.latestTouch('org_a', [PHONE])).resolves.toMatchObject({ index: 0, at: '2026-12-01T10:00:00.000Z' });
  });

  it('offers no touch for a `read` after the delivery (the store knew `delivered`), one for a `read` without it', async () => {
    const kit = setUp();
    await kit.deliver(0, PHONE);
    const afterDelivery = kit.touches.offered;
    await kit.apply('pn_a', { statuses: [statusOf({ id: 'wamid.out0', status: 'read', timestamp: DELIVERED_AT + 600, recipient: PHONE })] });
    expect(kit.touches.offered).toBe(afterDelivery);
    await kit.apply('pn_a', { statuses: [statusOf({ id: 'wamid.out1', status: 'read', timestamp: DELIVERED_AT + 60, recipient: '447700900002' })] });
    expect(kit.touches.offered).toBe(afterDelivery + 1);
  });

  it('a failed touch write fails the batch (the queue delivers it again), and the redelivery writes it', async () => {
    const kit = setUp();
    const record = kit.touches.recordTouches.bind(kit.touches);
    kit.touches.recordTouches = async () => Promise.reject(new Error('store down'));
    await expect(kit.deliver(0, PHONE)).rejects.toThrow('store down');
    kit.touches.recordTouches = record;
    await kit.apply('pn_a', { statuses: [statusOf({ id: 'wamid.out0', status: 'delivered', timestamp: DELIVERED_AT, recipient: PHONE })] }, true);
    await expect(kit.touches.latestTouch('org_a', [PHONE])).resolves.toMatchObject({ jobId: 'pub_1', index: 0 });
  });

  it('attributes a message without context inside the window, and not one after it nor one before the delivery', async () => {
    const kit = setUp();
    await kit.deliver(0, PHONE);
    await kit.deliver(1, '447700900002');
    await kit.deliver(2, '447700900003');
    await kit.apply('pn_a', { messages: [inbound({ from: PHONE, at: DELIVERED_AT + 23 * HOUR })] });
    await kit.apply('pn_a', { messages: [inbound({ from: '447700900002', at: DELIVERED_AT + 25 * HOUR })] });
    await kit.apply('pn_a', { messages: [inbound({ from: '447700900003', at: DELIVERED_AT - 60 })] });
    expect([...kit.outcomes.outcomesOfJob('pub_1').keys()]).toEqual([0]);
    expect(kit.published('message.replied')).toEqual([expect.objectContaining({ recipientIndex: 0, via: 'last-touch', repliedTo: null })]);
    // One touch read per message without context.
    expect(kit.touches.reads).toBe(3);
  });

  it('counts a reply from the BSUID of a phone recipient (Meta named both on the delivered status)', async () => {
    const kit = setUp();
    await kit.deliver(1, PHONE, BSUID);
    await kit.apply('pn_a', { messages: [inbound({ userId: BSUID, at: DELIVERED_AT + HOUR })] });
    expect(kit.outcomes.outcomesOfJob('pub_1').get(1)).toEqual({ repliedAt: expect.any(String) });
  });

  it('keeps organizations apart: another organization’s number with the same person has no touch', async () => {
    const kit = setUp();
    await kit.deliver(0, PHONE);
    await kit.apply('pn_b', { messages: [inbound({ from: PHONE, at: DELIVERED_AT + HOUR })] });
    expect(kit.outcomes.writes).toEqual([]);
  });

  it('a held-out touch gets the reply fact (the holdout’s inbound) and no customer event', async () => {
    const kit = setUp();
    await kit.touches.recordTouches('org_a', [
      {
        personKeys: [PHONE],
        touch: { jobId: 'pub_1', campaignId: 'cmp_1', chunkIndex: 0, index: 5, at: '2026-12-01T10:00:00.000Z', windowHours: 72, heldOut: true },
      },
    ]);
    await kit.apply('pn_a', { messages: [inbound({ from: PHONE, at: DELIVERED_AT + HOUR, text: 'STOP' })] });
    expect(kit.outcomes.outcomesOfJob('pub_1').get(5)).toEqual({ repliedAt: expect.any(String) });
    expect(kit.events.published.filter(({ event }) => event.type !== 'message.received')).toEqual([]);
  });
});

describe('quick-reply buttons', () => {
  it('reads a template’s quick replies with the payloads given at accept, and matches taps', () => {
    const components = [
      { type: 'BODY', text: 'Hi' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'URL', text: 'Shop', url: 'https://x.example' },
          { type: 'QUICK_REPLY', text: 'Yes' },
          { type: 'QUICK_REPLY', text: 'No' },
        ],
      },
    ];
    const buttons = quickRepliesOf(components, [{ index: 2, type: 'quick_reply', payload: 'NO-1' }]);
    expect(buttons).toEqual([
      { index: 1, text: 'Yes' },
      { index: 2, text: 'No', payload: 'NO-1' },
    ]);
    expect(tappedIndexOf(buttons, { payload: 'NO-1', text: 'No' })).toBe(2);
    expect(tappedIndexOf(buttons, { payload: 'Yes', text: 'Yes' })).toBe(1);
    // The label of a button whose payload was given is not what Meta sends back: no match.
    expect(tappedIndexOf(buttons, { payload: 'No', text: 'No' })).toBe(-1);
    expect(quickRepliesOf([{ type: 'BODY', text: 'Hi' }])).toBeUndefined();
  });
});
