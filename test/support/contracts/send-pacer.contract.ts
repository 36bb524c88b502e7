/**
 * What every SendPacer does, as observed through the port (fake in test/support/broadcast-fakes.ts,
 * adapter DynamoDbSendPacer): disjoint blocks of slots per account, and holds that only ever push
 * the schedule later. Kept to the port's observable behaviour; each test uses its own account key.
 */
import type { SendPacer } from '../../../shared/sending/ports';

let sequence = 0;
const freshAccount = () => `waba-contract-${process.pid}-${Date.now().toString(36)}-${(sequence += 1)}`;
const now = 1_800_000_000_000;

export function describeSendPacerContract(name: string, makePacer: () => SendPacer | Promise<SendPacer>): void {
  describe(`SendPacer contract: ${name}`, () => {
    let pacer: SendPacer;
    beforeAll(async () => {
      pacer = await makePacer();
    });

    it('an idle account starts now; the next block starts where the previous one ends (count / rate seconds)', async () => {
      const account = freshAccount();
      expect(await pacer.reserve(account, 10, 20, now)).toBe(now);
      expect(await pacer.reserve(account, 5, 20, now)).toBe(now + 500);
      expect(await pacer.reserve(account, 1, 20, now + 100)).toBe(now + 750);
    });

    it('once the schedule has drained, a reservation starts at its own now again', async () => {
      const account = freshAccount();
      await pacer.reserve(account, 10, 10, now);
      expect(await pacer.reserve(account, 10, 10, now + 5_000)).toBe(now + 5_000);
    });

    it('accounts have separate schedules', async () => {
      const [first, second] = [freshAccount(), freshAccount()];
      await pacer.reserve(first, 100, 10, now);
      expect(await pacer.reserve(second, 1, 10, now)).toBe(now);
    });

    it('a hold pushes the next slot to its time, and never pulls it back', async () => {
      const account = freshAccount();
      await pacer.holdUntil(account, now + 2_000);
      expect(await pacer.reserve(account, 1, 10, now)).toBe(now + 2_000);
      await pacer.holdUntil(account, now + 1_000);
      expect(await pacer.reserve(account, 1, 10, now)).toBe(now + 2_100);
    });

    it('bookedUntil reads where the schedule stands, without reserving', async () => {
      const account = freshAccount();
      expect(await pacer.bookedUntil(account)).toBeUndefined();
      await pacer.reserve(account, 10, 20, now);
      expect(await pacer.bookedUntil(account)).toBe(now + 500);
      expect(await pacer.bookedUntil(account)).toBe(now + 500);
      expect(await pacer.reserve(account, 1, 20, now)).toBe(now + 500);
    });

    it('concurrent reservations get disjoint blocks', async () => {
      const account = freshAccount();
      const starts = await Promise.all(Array.from({ length: 8 }, () => pacer.reserve(account, 4, 40, now)));
      expect([...starts].sort((left, right) => left - right)).toEqual(Array.from({ length: 8 }, (_, index) => now + index * 100));
    });
  });
}
