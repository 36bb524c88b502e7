import fc from 'fast-check';
import {
  countTallyCode,
  emptyDeliveryCounts,
  recipientStatusOf,
  tallyCodeOfEvent,
  tallyCodes,
  tallyRankOf,
  type DeliveryFacts,
  type DeliveryStage,
  type SendOutcome,
} from '../../../shared/delivery/recipient-status';

const now = new Date('2026-11-24T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(now.getTime() - hours * 3600_000).toISOString();
const sent: SendOutcome = { status: 'SENT', updatedAt: hoursAgo(1) };

describe('a recipient status from its send outcome and Meta events', () => {
  it('is PENDING before any claim or while the send is in flight', () => {
    expect(recipientStatusOf(undefined, {}, now)).toBe('PENDING');
    expect(recipientStatusOf({ status: 'CANCELLED', updatedAt: hoursAgo(30) }, {}, now)).toBe('CANCELLED');
    expect(recipientStatusOf({ status: 'HELD_OUT', updatedAt: hoursAgo(30) }, {}, now)).toBe('HELD_OUT');
    expect(recipientStatusOf({ status: 'SENDING', updatedAt: hoursAgo(0) }, {}, now)).toBe('PENDING');
  });

  it('is SENT once Meta accepted the call, or once a sent event arrived before the outcome was written', () => {
    expect(recipientStatusOf(sent, {}, now)).toBe('SENT');
    expect(recipientStatusOf({ status: 'SENDING', updatedAt: hoursAgo(0) }, { sentAt: hoursAgo(0) }, now)).toBe('SENT');
  });

  it('accepts read without a prior delivered', () => {
    expect(recipientStatusOf(sent, { readAt: hoursAgo(0) }, now)).toBe('READ');
  });

  it('keeps DELIVERED when a failed event comes after delivery (multi-device rule)', () => {
    expect(recipientStatusOf(sent, { deliveredAt: hoursAgo(0.5), failedAt: hoursAgo(0.2), metaErrorCode: 131026 }, now)).toBe('DELIVERED');
  });

  it('is FAILED by webhook when only a failure arrived', () => {
    expect(recipientStatusOf(sent, { failedAt: hoursAgo(0.5), metaErrorCode: 131049 }, now)).toBe('FAILED');
  });

  it('stays FAILED when the send itself failed, whatever arrives', () => {
    expect(recipientStatusOf({ status: 'FAILED', updatedAt: hoursAgo(1) }, { deliveredAt: hoursAgo(0) }, now)).toBe('FAILED');
  });

  it('turns an UNKNOWN outcome into what its events say, or UNCONFIRMED after the window', () => {
    const unknown: SendOutcome = { status: 'UNKNOWN', updatedAt: hoursAgo(2) };
    expect(recipientStatusOf(unknown, {}, now)).toBe('UNKNOWN');
    expect(recipientStatusOf(unknown, { deliveredAt: hoursAgo(1) }, now)).toBe('DELIVERED');
    expect(recipientStatusOf({ status: 'UNKNOWN', updatedAt: hoursAgo(24) }, {}, now)).toBe('UNCONFIRMED');
    expect(recipientStatusOf(unknown, {}, now, 3600_000)).toBe('UNCONFIRMED');
  });

  it('does not depend on the order in which events arrived (facts are first-seen timestamps)', () => {
    const stages: DeliveryStage[] = ['sent', 'delivered', 'read', 'failed'];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...stages), { maxLength: 8 }), (arrivals) => {
        const facts: DeliveryFacts = {};
        for (const stage of arrivals) (facts as Record<string, string>)[`${stage}At`] ??= hoursAgo(0);
        const reversed: DeliveryFacts = {};
        for (const stage of [...arrivals].reverse()) (reversed as Record<string, string>)[`${stage}At`] ??= hoursAgo(0);
        expect(recipientStatusOf(sent, facts, now)).toBe(recipientStatusOf(sent, reversed, now));
      }),
    );
  });
});

describe('tally codes', () => {
  /** What a tally attribute ends at: the worker writes if absent, events write when the stored code sorts below their rank. */
  const converge = (workerCode: string | undefined, events: DeliveryStage[], workerFirst: boolean): string | undefined => {
    let stored: string | undefined;
    const worker = () => {
      if (workerCode !== undefined) stored ??= workerCode;
    };
    if (workerFirst) worker();
    for (const stage of events) {
      if (stored === undefined || stored < tallyRankOf(stage)) stored = tallyCodeOfEvent(stage, 131049);
    }
    if (!workerFirst) worker();
    return stored;
  };

  it('converge to the same code whatever the order, duplicates and whether the worker wrote first', () => {
    const stages: DeliveryStage[] = ['sent', 'delivered', 'read', 'failed'];
    fc.assert(
      fc.property(
        fc.constantFrom(tallyCodes.sent, tallyCodes.unknown(now), undefined),
        fc.array(fc.constantFrom(...stages), { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        (workerCode, events, workerFirst) => {
          const shuffled = [...events].reverse();
          const a = converge(workerCode, events, workerFirst);
          const b = converge(workerCode, [...shuffled, ...shuffled], !workerFirst);
          expect(a).toBe(b);
        },
      ),
    );
  });

  it('never lets an event override a failure on send', () => {
    expect(converge(tallyCodes.failedOnSend('131026'), ['read'], true)).toBe('9X:131026');
  });

  it('never lets an event override a cancelled recipient (never sent)', () => {
    expect(converge(tallyCodes.cancelled, ['sent', 'failed', 'delivered', 'read'], true)).toBe('9C');
  });

  it('never lets an event override a held-out recipient (never sent)', () => {
    expect(converge(tallyCodes.heldOut, ['sent', 'failed', 'delivered', 'read'], true)).toBe('9H');
  });

  it('count a recipient once, in the summary fields the design names', () => {
    const counts = emptyDeliveryCounts();
    for (const code of [
      '1S',
      '3D',
      '4R',
      '2F:131049',
      '9X:INVALID_PHONE_NUMBER',
      '9C',
      tallyCodes.heldOut,
      tallyCodes.unknown(new Date(now.getTime() - 3600_000)),
      tallyCodes.unknown(new Date(now.getTime() - 25 * 3600_000)),
    ]) {
      countTallyCode(counts, code, now);
    }
    expect(counts).toEqual({
      sent: 3,
      delivered: 2,
      read: 1,
      failed: 2,
      unknown: 1,
      unconfirmed: 1,
      cancelled: 1,
      held: 0,
      heldOut: 1,
      failuresByReason: { '131049': 1, INVALID_PHONE_NUMBER: 1 },
      accounted: 9,
      pricing: { billable: 0, byCategory: {} },
    });
  });

  it('ignore an attribute that is not a code', () => {
    const counts = emptyDeliveryCounts();
    countTallyCode(counts, 'garbage', now);
    expect(counts.accounted).toBe(0);
  });
});
