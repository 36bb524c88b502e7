/**
 * Meta's facts as set members of a tally item (messaging-tally-facts.ts): any order and any number
 * of copies give the same facts; the earliest time of a stage is the fact; what adds nothing adds
 * no member. And the merge with facts older versions kept on the ledger entry.
 */
import * as fc from 'fast-check';
import {
  addEvent,
  factMembersUpdate,
  factsOfSlot,
  slotStatesOf,
  type FactEventInput,
  type FactMembers,
  type SlotState,
} from '../../../shared/adapters/dynamodb/messaging-tally-facts';
import { decodeTally, tallyFactsOf } from '../../../shared/adapters/dynamodb/messaging-tally-items';
import { MalformedMessagingItemError } from '../../../shared/adapters/dynamodb/messaging-table';
import { mergeDeliveryFacts } from '../../../shared/delivery/recipient-status';

const T = 1_790_000_000;
const at = (seconds: number) => new Date((T + seconds) * 1000);
const marketing = { category: 'marketing', type: 'regular', billable: true, pricingModel: 'PMP' };
const free = { category: 'service', type: 'free_customer_service', billable: false, pricingModel: 'PMP' };

/** Applies events as the adapter does and returns the item the members would make (set union). */
function itemAfter(events: FactEventInput[][], slot = 3, sk = 'TALLY#0002'): Record<string, unknown> {
  const item: Record<string, unknown> = { pk: 'JOB#j', sk };
  for (const batch of events) {
    const states = slotStatesOf(item);
    const state: SlotState = states.get(slot) ?? { times: {}, pricing: {} };
    const members: FactMembers = { numbers: {}, strings: {} };
    for (const event of batch) addEvent(state, slot, event, '44', members);
    for (const [name, values] of [...Object.entries(members.numbers), ...Object.entries(members.strings)]) {
      item[name] = new Set([...((item[name] as Set<unknown> | undefined) ?? []), ...values]);
    }
  }
  return item;
}

describe('tally fact sets', () => {
  const events: FactEventInput[] = [
    { stage: 'sent', timestamp: at(1), pricing: marketing },
    { stage: 'delivered', timestamp: at(5), pricing: free },
    { stage: 'delivered', timestamp: at(4) },
    { stage: 'read', timestamp: at(9) },
    { stage: 'failed', timestamp: at(7), error: { code: 131026, title: 'Undeliverable: see: docs' } },
    { stage: 'failed', timestamp: at(8), error: { code: 131049, title: 'Later' } },
  ];

  it('any order, any batching and any copies give the same facts: the earliest time per stage, the earliest failure', () => {
    const expected = tallyFactsOf(itemAfter([events])).get(103);
    expect(expected).toEqual({
      facts: {
        sentAt: at(1).toISOString(),
        deliveredAt: at(4).toISOString(),
        readAt: at(9).toISOString(),
        failedAt: at(7).toISOString(),
        metaErrorCode: 131026,
        metaErrorTitle: 'Undeliverable: see: docs',
        sentPricing: marketing,
        deliveredPricing: free,
      },
      callingCode: '44',
    });
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: events.length - 1 }), { minLength: events.length, maxLength: 20 }),
        fc.integer({ min: 1, max: 5 }),
        (order, size) => {
          const shuffled = [...order.map((position) => events[position]!), ...events];
          const batches = Array.from({ length: Math.ceil(shuffled.length / size) }, (_, batch) => shuffled.slice(batch * size, batch * size + size));
          expect(tallyFactsOf(itemAfter(batches)).get(103)).toEqual(expected);
        },
      ),
    );
  });

  it('adds no member for what adds nothing', () => {
    const state: SlotState = { times: {}, pricing: {} };
    const members: FactMembers = { numbers: {}, strings: {} };
    expect(addEvent(state, 0, { stage: 'read', timestamp: at(3) }, undefined, members)).toBe(true);
    expect(addEvent(state, 0, { stage: 'read', timestamp: at(3) }, undefined, members)).toBe(false);
    expect(addEvent(state, 0, { stage: 'read', timestamp: at(4) }, undefined, members)).toBe(false);
    expect(members).toEqual({ numbers: { er: [T + 3] }, strings: {} });
    expect(factMembersUpdate({ pk: 'p', sk: 's' }, { numbers: {}, strings: {} }, 1)).toBeUndefined();
  });

  it('counts the higher of the outcome code and the facts’ code, with the calling code on the pricing', () => {
    const item = itemAfter([[{ stage: 'sent', timestamp: at(1), pricing: marketing }]]);
    item.r00103 = '1S';
    item.r00104 = '9X:INVALID_PHONE_NUMBER';
    item.r00105 = '0U:1790000000';
    expect(new Map(decodeTally(item))).toEqual(
      new Map([
        [103, '1S~1marketing~1~44'],
        [104, '9X:INVALID_PHONE_NUMBER'],
        [105, '0U:1790000000'],
      ]),
    );
  });

  it('never trusts a member of a slot outside its item', () => {
    expect(() => slotStatesOf({ sk: 'TALLY#0000', es: new Set([50 * 1e10 + T]) })).toThrow(MalformedMessagingItemError);
    expect(() => slotStatesOf({ sk: 'TALLY#0000', ep: new Set(['x:marketing:1']) })).toThrow(MalformedMessagingItemError);
  });

  it('round-trips a category it has no letter for', () => {
    const pricing = { category: 'referral_conversion', type: 'free_entry_point', billable: false, pricingModel: 'CBP' };
    const state = slotStatesOf(itemAfter([[{ stage: 'sent', timestamp: at(1), pricing }]])).get(3)!;
    expect(factsOfSlot(state).facts.sentPricing).toEqual(pricing);
  });
});

describe('mergeDeliveryFacts', () => {
  it('keeps the earliest time per stage, its record’s pricing (else the other’s) and the earliest failure with its error', () => {
    const older = {
      sentAt: '2026-01-01T00:00:01.000Z',
      sentPricing: marketing,
      deliveredAt: '2026-01-01T00:00:09.000Z',
      failedAt: '2026-01-01T00:00:03.000Z',
      metaErrorCode: 1,
      metaErrorTitle: 'a',
    };
    const tally = {
      sentAt: '2026-01-01T00:00:02.000Z',
      deliveredAt: '2026-01-01T00:00:05.000Z',
      deliveredPricing: free,
      readAt: '2026-01-01T00:00:07.000Z',
      failedAt: '2026-01-01T00:00:04.000Z',
      metaErrorCode: 2,
      metaErrorTitle: 'b',
    };
    expect(mergeDeliveryFacts(older, tally)).toEqual({
      sentAt: older.sentAt,
      sentPricing: marketing,
      deliveredAt: tally.deliveredAt,
      deliveredPricing: free,
      readAt: tally.readAt,
      failedAt: older.failedAt,
      metaErrorCode: 1,
      metaErrorTitle: 'a',
    });
    expect(mergeDeliveryFacts(older, undefined)).toBe(older);
    expect(mergeDeliveryFacts({}, tally)).toEqual(tally);
  });
});
