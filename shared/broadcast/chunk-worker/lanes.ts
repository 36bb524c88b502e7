/**
 * The chunk worker's lane scheduler: concurrent lanes take recipients one at a time, each after
 * its send slot, while the time budget lasts.
 */
import type { ChunkRecipient } from '../chunk-message';
import type { SendSlots } from '../../sending/send-slots';

/** What the lanes work on: one invocation's recipients, slots, budget and sending (chunk-run.ts). */
export interface LaneWork {
  readonly slots: SendSlots;
  /** Recipients not taken yet, in order; a lane takes the first. */
  readonly pending: ChunkRecipient[];
  /** The first failure of a lane or a store write: every lane stops. */
  readonly failure: unknown;
  fail(error: unknown): void;
  /** The in-flight budget now. */
  lanesWanted(): number;
  /** The epoch ms after which no send starts. */
  budgetEnd(): number;
  /** Whether the job still goes on (asked right before each claim). */
  goes(): Promise<boolean>;
  /** Claims, sends and records one recipient on its slot. */
  sendTo(recipient: ChunkRecipient, slot: number): Promise<void>;
}

/** Lanes started at once; then each finished send starts at most LANES_ADDED_PER_SEND more (a slow start). */
const FIRST_LANES = 16;
const LANES_ADDED_PER_SEND = 2;

/**
 * Lanes take recipients while their send can still start within the budget. How many run follows
 * `lanesWanted` (the in-flight budget, which moves with the observed latency): FIRST_LANES start,
 * then after each send a lane starts up to LANES_ADDED_PER_SEND more up to the budget (so the
 * lanes double per round trip instead of claiming hundreds of recipients in one burst against
 * the store), and a lane beyond the budget stops before taking another recipient.
 * The slot comes before the claim: with other workers sharing the account it can be far ahead,
 * and a recipient is only claimed when its send can still start in time. The first failure stops
 * every lane.
 */
export async function runLanes(work: LaneWork): Promise<void> {
  const { slots, pending } = work;
  const hasTimeFor = (): boolean => slots.peek() < work.budgetEnd();
  const running = new Set<Promise<void>>();
  // Counted synchronously (a lane's loop test and its exit run in one step), so lanes over the budget stop one by one.
  let active = 0;
  const grow = (most: number): void => {
    if (work.failure !== undefined) return;
    // Counted once: a lane that finds nothing to do ends at once and must not be replaced in a loop.
    for (let missing = Math.min(work.lanesWanted(), pending.length, active + most) - active; missing > 0; missing -= 1) {
      const started = lane().finally(() => running.delete(started));
      running.add(started);
    }
  };
  const lane = async (): Promise<void> => {
    active += 1;
    try {
      while (work.failure === undefined && pending.length > 0 && hasTimeFor() && active <= work.lanesWanted()) {
        try {
          const slot = await slots.take();
          // Asked after the wait for a slot, right before the claim and the send.
          const recipient = work.failure === undefined && slot < work.budgetEnd() && (await work.goes()) ? pending.shift() : undefined;
          if (!recipient) {
            slots.giveBack(slot);
            break;
          }
          await work.sendTo(recipient, slot);
          grow(LANES_ADDED_PER_SEND);
        } catch (error) {
          work.fail(error);
        }
      }
    } finally {
      active -= 1;
    }
  };
  grow(FIRST_LANES);
  while (running.size > 0) await Promise.all([...running]);
}
