/**
 * The pacer holds a business account at its Meta rate however many invocations send for it (issue
 * 40 item 1): with the event sources' ceilings from the capacity model, 200 chunk-worker invocations
 * can hold chunks of one account at once. Each runs its own SendSlots (the real code) against one
 * shared pacer schedule, under a virtual clock: an invocation takes a slot, waits for it, sends,
 * takes the next. Every 1 s window stays at or under the rate, and the whole run within 1 % of it.
 */
import { SendSlots } from '../../../shared/sending/send-slots';
import type { Clock } from '../../../shared/ports/clock';
import { InMemorySendPacer } from '../../support/broadcast-fakes';

const INVOCATIONS = 200;
const RUN_MS = 60_000;

/** A seeded generator (mulberry32): the same start offsets on every run. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function sendTimes(ratePerSecond: number): Promise<number[]> {
  let nowMs = 0;
  const clock: Clock = { now: () => new Date(nowMs) };
  const pacer = new InMemorySendPacer();
  const random = seeded(40);
  // Each invocation's next moment of work; they start within the first second, in any order.
  const invocations = Array.from({ length: INVOCATIONS }, () => ({
    slots: new SendSlots(pacer, 'waba_1', ratePerSecond, clock),
    readyAt: Math.floor(random() * 1000),
  }));
  const sent: number[] = [];
  for (;;) {
    let next = invocations[0]!;
    for (const invocation of invocations) if (invocation.readyAt < next.readyAt) next = invocation;
    if (next.readyAt >= RUN_MS) break;
    nowMs = next.readyAt;
    const slot = await next.slots.take();
    const sendAt = Math.max(slot, nowMs);
    if (sendAt < RUN_MS) sent.push(sendAt);
    // The invocation waits for its slot, sends, and comes back for the next one at once.
    next.readyAt = sendAt;
    if (slot < nowMs) next.readyAt = nowMs + 1;
  }
  return sent.sort((a, b) => a - b);
}

/** Sends in every 1 s window starting at each send (the worst window, not only aligned ones). */
function busiestSecond(times: number[]): number {
  let most = 0;
  let start = 0;
  for (let end = 0; end < times.length; end++) {
    while (times[end]! - times[start]! >= 1000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

describe.each([80, 1_000])('one account at %i messages/s, %#', (rate) => {
  let times: number[];
  beforeAll(async () => {
    times = await sendTimes(rate);
  });

  it(`sends at its rate with ${INVOCATIONS} invocations sharing it: within 1 % over the run`, () => {
    const firstSecond = times[0]!;
    const achieved = (times.length * 1000) / (RUN_MS - firstSecond);
    expect(Math.abs(achieved - rate) / rate).toBeLessThanOrEqual(0.01);
  });

  it('never sends more than its rate in any 1 s window', () => {
    expect(busiestSecond(times)).toBeLessThanOrEqual(rate);
  });

  it('the window check sees a burst (two invocations ignoring the pacer would double it)', () => {
    const doubled = [...times, ...times].sort((a, b) => a - b);
    expect(busiestSecond(doubled)).toBeGreaterThan(rate);
  });
});
