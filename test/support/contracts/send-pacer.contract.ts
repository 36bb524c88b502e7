/**
 * What every SendPacer does, as observed through the port (fake in test/support/broadcast-fakes.ts,
 * adapter DynamoDbSendPacer): disjoint blocks of slots per account, and holds that only ever push
 * the schedule later. Kept to the port's observable behaviour; each test uses its own account key.
 */
import type { AccountTurnRequest } from '../../../shared/sending/account-turn';
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

    it('concurrent reservations get disjoint blocks', async () => {
      const account = freshAccount();
      const starts = await Promise.all(Array.from({ length: 8 }, () => pacer.reserve(account, 4, 40, now)));
      expect([...starts].sort((left, right) => left - right)).toEqual(Array.from({ length: 8 }, (_, index) => now + index * 100));
    });

    describe("the account's turn", () => {
      const turn = (owner: string, at: number, overrides: Partial<AccountTurnRequest> = {}): AccountTurnRequest => ({
        owner,
        nowMs: at,
        untilMs: at + 12_500,
        overlapMs: 1_500,
        rampMs: 3_000,
        laneMs: 1_500,
        ...overrides,
      });

      it('goes to one of the chunks that ask together; the others learn whose it is and until when', async () => {
        const account = freshAccount();
        const answers = await Promise.all(['job#0', 'job#1', 'job#2', 'job#3'].map((owner) => pacer.takeTurn(account, turn(owner, now))));
        expect(answers.filter((answer) => answer.granted)).toHaveLength(1);
        const refused = answers.filter((answer) => !answer.granted);
        expect(refused).toHaveLength(3);
        for (const answer of refused) expect(answer).toMatchObject({ granted: false, turn: { startedAt: now, until: now + 12_500 } });
      });

      it("is taken again by its own holder (a continuation), and by the next chunk a lane's time before it ends", async () => {
        const account = freshAccount();
        expect(await pacer.takeTurn(account, turn('job#0', now))).toEqual({ granted: true });
        expect(await pacer.takeTurn(account, turn('job#0', now + 5_000))).toEqual({ granted: true });
        // job#0's turn now runs to now + 17,500, its sends keep the schedule booked to now + 17,000.
        await pacer.reserve(account, 17, 1, now);
        expect(await pacer.takeTurn(account, turn('job#1', now + 15_000))).toMatchObject({ granted: false });
        expect(await pacer.takeTurn(account, turn('job#1', now + 16_000))).toEqual({ granted: true });
      });

      it('is joined after the ramp only when the holder leaves gaps in the schedule', async () => {
        const account = freshAccount();
        await pacer.takeTurn(account, turn('job#0', now));
        // The holder keeps the schedule booked ahead: no gap.
        await pacer.reserve(account, 10, 1, now);
        expect(await pacer.takeTurn(account, turn('job#1', now + 4_000))).toMatchObject({ granted: false, bookedUntil: now + 10_000 });
        // Past its booked slots (the schedule has gaps) after the ramp: another chunk joins.
        expect(await pacer.takeTurn(account, turn('job#1', now + 10_000))).toEqual({ granted: true });
      });

      it('without a turn, is refused while other senders keep the schedule booked beyond a lane', async () => {
        const account = freshAccount();
        await pacer.reserve(account, 4, 1, now);
        expect(await pacer.takeTurn(account, turn('job#0', now))).toEqual({ granted: false, bookedUntil: now + 4_000 });
        expect(await pacer.takeTurn(account, turn('job#0', now + 2_500))).toEqual({ granted: true });
      });
    });
  });
}
