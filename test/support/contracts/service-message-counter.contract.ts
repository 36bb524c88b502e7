/**
 * What every ServiceMessageCounter does (fake InMemoryServiceMessageCounter in test/support/delivery-fakes.ts,
 * adapter DynamoDbServiceMessageCounter): one count per message id, per number and month, ordinals
 * 1, 2, 3… and concurrent counts of one message agreeing on one ordinal. Each test uses its own number.
 */
import type { ServiceMessageCounter } from '../../../shared/delivery/service-tier';

let sequence = 0;
const freshNumber = () => `pn-contract-${process.pid}-${Date.now().toString(36)}-${(sequence += 1)}`;

export function describeServiceMessageCounterContract(name: string, makeCounter: () => ServiceMessageCounter | Promise<ServiceMessageCounter>): void {
  describe(`ServiceMessageCounter contract: ${name}`, () => {
    let counter: ServiceMessageCounter;
    beforeAll(async () => {
      counter = await makeCounter();
    });

    it('counts each message once: ordinals 1, 2, …; a repeat answers the first ordinal and month', async () => {
      const number = freshNumber();
      expect(await counter.countDelivery(number, '2026-10', 'wamid.a')).toEqual({ ordinal: 1, month: '2026-10' });
      expect(await counter.countDelivery(number, '2026-10', 'wamid.b')).toEqual({ ordinal: 2, month: '2026-10' });
      expect(await counter.countDelivery(number, '2026-11', 'wamid.a')).toEqual({ ordinal: 1, month: '2026-10' });
      expect(await counter.deliveriesIn(number, '2026-10')).toBe(2);
      expect(await counter.deliveriesIn(number, '2026-11')).toBe(0);
    });

    it('months and numbers count apart (no roll-over)', async () => {
      const [first, second] = [freshNumber(), freshNumber()];
      await counter.countDelivery(first, '2026-10', 'wamid.c');
      expect(await counter.countDelivery(first, '2026-11', 'wamid.d')).toEqual({ ordinal: 1, month: '2026-11' });
      expect(await counter.countDelivery(second, '2026-10', 'wamid.e')).toEqual({ ordinal: 1, month: '2026-10' });
    });

    it('concurrent counts of one message agree on one ordinal and count it once', async () => {
      const number = freshNumber();
      const answers = await Promise.all(Array.from({ length: 4 }, () => counter.countDelivery(number, '2026-10', 'wamid.same')));
      expect(new Set(answers.map(({ ordinal }) => ordinal))).toEqual(new Set([1]));
      expect(await counter.deliveriesIn(number, '2026-10')).toBe(1);
      expect(await counter.countDelivery(number, '2026-10', 'wamid.next')).toEqual({ ordinal: 2, month: '2026-10' });
    });
  });
}
