import { dispatchSend, openSendSession } from '../../../shared/sending/dispatch-send';
import type { SendOutcome } from '../../../shared/sending/ports';
import { bulkSendBudget, chunkWorkerBudget, pacedRate, type SendPolicySettings } from '../../../shared/sending/send-policy';
import { SendSlots } from '../../../shared/sending/send-slots';
import { InMemorySendPacer, VirtualTime, accepted, rejected, unknownOutcome } from '../../support/broadcast-fakes';

const START = '2026-03-01T09:00:00.000Z';
const startMs = new Date(START).getTime();
const policy: SendPolicySettings = { maxAttempts: 3, backoff: { baseMs: 100, maxMs: 1000 }, rateLimitHoldMs: 1000 };

function setup(rate = 20, budget = chunkWorkerBudget(policy), options: { firstBlock?: number } = {}) {
  const time = new VirtualTime(START);
  const pacer = new InMemorySendPacer();
  const random = jest.fn(() => 0.5);
  const session = openSendSession(
    { pacer, clock: time, sleep: time.sleep, random },
    { accountKey: 'waba_1', messagesPerSecond: rate },
    policy,
    budget,
    options,
  );
  /** A send that answers the scripted outcomes in order (then accepted), recording when it was made. */
  const scripted = (...outcomes: SendOutcome[]) => {
    const at: number[] = [];
    const send = async () => {
      at.push(time.nowMs());
      return outcomes.shift() ?? accepted(`wamid.${at.length}`);
    };
    return { at, send };
  };
  return { time, pacer, random, session, scripted };
}

describe('SendSlots', () => {
  it('hands out slots 1000/rate ms apart from blocks of about 100 ms reserved on the shared pacer', async () => {
    const { time, pacer } = setup();
    const slots = new SendSlots(pacer, 'waba_1', 20, time);
    const taken = await Promise.all(Array.from({ length: 5 }, () => slots.take()));
    expect(taken.map((slot) => slot - startMs)).toEqual([0, 50, 100, 150, 200]);
    // 20/s → blocks of 2; concurrent takes wait for one reservation at a time.
    expect(pacer.reservations.map((reservation) => reservation.count)).toEqual([2, 2, 2]);
  });

  it('sizes the first reservation when asked (a bulk call reserves all its recipients at once)', async () => {
    const { time, pacer } = setup();
    const slots = new SendSlots(pacer, 'waba_1', 20, time, { firstBlock: 10 });
    for (let index = 0; index < 11; index += 1) await slots.take();
    expect(pacer.reservations.map((reservation) => reservation.count)).toEqual([10, 2]);
  });

  it('never reserves more slots than the sender can still use (demand), and at least one for a retry', async () => {
    const { time, pacer } = setup();
    let left = 3;
    // 80/s → standard blocks of 8; a chunk with 3 recipients left reserves 3, leaving the rest of
    // the account's schedule to its next chunk instead of a gap of 5 unused slots.
    const slots = new SendSlots(pacer, 'waba_1', 80, time, { demand: () => left });
    for (; left > 0; left -= 1) await slots.take();
    await slots.take(); // a retry after the last recipient was taken
    expect(pacer.reservations.map((reservation) => reservation.count)).toEqual([3, 1]);
    const next = new SendSlots(pacer, 'waba_1', 80, time);
    expect((await next.take()) - startMs).toBe(4 * 12.5);
  });

  it('reuses a handed-back slot while it is ahead, and drops it once passed', async () => {
    const { time, pacer } = setup();
    const slots = new SendSlots(pacer, 'waba_1', 10, time);
    const first = await slots.take();
    slots.giveBack(first);
    expect(slots.peek()).toBe(first);
    expect(await slots.take()).toBe(first);
    slots.giveBack(first);
    await time.run(time.sleep(1));
    // Passed: the next slot of the block instead, no burst.
    expect(await slots.take()).toBe(first + 100);
  });

  it("stays within the account's rate when two senders share it", async () => {
    const { time, pacer } = setup();
    const a = new SendSlots(pacer, 'waba_1', 20, time);
    const b = new SendSlots(pacer, 'waba_1', 20, time);
    const taken = [];
    for (let index = 0; index < 6; index += 1) taken.push(await a.take(), await b.take());
    expect(new Set(taken).size).toBe(12);
    expect([...taken].sort((x, y) => x - y).map((slot) => slot - startMs)).toEqual(Array.from({ length: 12 }, (_, index) => index * 50));
  });
});

describe('dispatchSend', () => {
  it('is sent on the first slot, after waiting for it', async () => {
    const kit = setup();
    const { at, send } = kit.scripted();
    const dispatched = await kit.time.run(dispatchSend(kit.session, { firstSlot: startMs + 300, startsInTime: () => true, send }));
    expect(dispatched).toEqual({ kind: 'sent', messageId: 'wamid.1', attempts: 1 });
    expect(at).toEqual([startMs + 300]);
  });

  it('retries a transient error after a full-jitter backoff on a later slot, without holding the account', async () => {
    const kit = setup();
    const { at, send } = kit.scripted(rejected(131000, 500), rejected(2, 503));
    const dispatched = await kit.time.run(dispatchSend(kit.session, { firstSlot: startMs, startsInTime: () => true, send }));
    expect(dispatched).toMatchObject({ kind: 'sent', attempts: 3 });
    expect(kit.random).toHaveBeenCalledTimes(2);
    // Backoff 50 ms (random 0.5 of 100), then 100 ms (of 200).
    expect(at[1]! - at[0]!).toBeGreaterThanOrEqual(50);
    expect(at[2]! - at[1]!).toBeGreaterThanOrEqual(100);
    expect(kit.pacer.holds).toEqual([]);
  });

  it('holds the account after each rate-limit answer, doubling in a row and starting over after an accepted send', async () => {
    const kit = setup();
    const first = kit.scripted(rejected(130429, 400), rejected(130429, 400));
    await kit.time.run(dispatchSend(kit.session, { firstSlot: startMs, startsInTime: () => true, send: first.send }));
    const second = kit.scripted(rejected(130429, 400));
    await kit.time.run(dispatchSend(kit.session, { firstSlot: await kit.session.slots.take(), startsInTime: () => true, send: second.send }));
    const answered = [first.at[0]!, first.at[1]!, second.at[0]!];
    expect(kit.pacer.holds.map((hold, position) => hold.untilMs - answered[position]!)).toEqual([500, 1000, 500]);
    expect(kit.pacer.holds.every((hold) => hold.accountKey === 'waba_1')).toBe(true);
  });

  it('fails a rejection that is not retryable at once, with its code', async () => {
    const kit = setup();
    const { at, send } = kit.scripted(rejected(131026, 400));
    const dispatched = await kit.time.run(dispatchSend(kit.session, { firstSlot: startMs, startsInTime: () => true, send }));
    expect(dispatched).toMatchObject({ kind: 'failed', attempts: 1, rejection: { error: { code: 131026 } } });
    expect(at).toHaveLength(1);
  });

  it('never retries an unknown outcome, and hands the sender its own unknown outcome', async () => {
    const kit = setup();
    const outcome = { ...unknownOutcome('timeout'), detail: 'kept' };
    const send = jest.fn(async () => outcome);
    const dispatched = await kit.time.run(dispatchSend(kit.session, { firstSlot: startMs, startsInTime: () => true, send }));
    expect(dispatched).toEqual({ kind: 'unknown', outcome, attempts: 1 });
    expect(send).toHaveBeenCalledTimes(1);
    expect(kit.random).not.toHaveBeenCalled();
  });

  it('ends with the last rejection when a retry could not start in time, and hands its slot back', async () => {
    const kit = setup(10);
    const { at, send } = kit.scripted(rejected(131000, 500), rejected(131000, 500));
    const budgetEnd = startMs + 150;
    const dispatched = await kit.time.run(dispatchSend(kit.session, { firstSlot: startMs, startsInTime: (slot) => slot < budgetEnd, send }));
    // 10/s (paced 2 % under: 102 ms apart), backoff 50 then 100 ms: the first retry's slot is reserved at 50 ms, the second at 152 ms: not before the budget's end.
    expect(dispatched).toMatchObject({ kind: 'failed', attempts: 2, rejection: { error: { code: 131000 } } });
    expect(at.map((time) => time - startMs)).toEqual([0, 50]);
    expect(kit.session.slots.peek()).toBe(startMs + 50 + 1000 / pacedRate(10));
  });

  it('gives rate-limit answers the budget of its sender: three times the attempts for the worker, the same for a bulk send', async () => {
    const storm = () => Array.from({ length: 12 }, () => rejected(130429, 400));
    const worker = setup(1000);
    const forWorker = worker.scripted(...storm());
    expect(await worker.time.run(dispatchSend(worker.session, { firstSlot: startMs, startsInTime: () => true, send: forWorker.send }))).toMatchObject({
      kind: 'failed',
      attempts: 9,
    });
    const bulk = setup(1000, bulkSendBudget(policy));
    const forBulk = bulk.scripted(...storm());
    expect(await bulk.time.run(dispatchSend(bulk.session, { firstSlot: startMs, startsInTime: () => true, send: forBulk.send }))).toMatchObject({
      kind: 'failed',
      attempts: 3,
    });
  });
});
