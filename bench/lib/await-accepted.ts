import { sleep } from './stats';

export interface AcceptanceWait {
  /** When the sandbox had the first message (performance.now()), if any. */
  firstMessageAt?: number;
  /** Every expected message accepted. */
  completed: boolean;
  /** Stopped waiting: no new message for `stallMs` before all were accepted. */
  stalled: boolean;
}

/**
 * Waits until the sandbox has accepted `expected` messages, the deadline passes, or nothing new
 * arrives for `stallMs` (the job is stuck, e.g. a failed chunk waiting out its visibility
 * timeout). Timing comes from the sandbox's `receivedAt`, not from this poll.
 */
export async function awaitAccepted(options: {
  acceptedSoFar: () => number;
  expected: number;
  deadline: number;
  stallMs?: number;
  pollMs?: number;
}): Promise<AcceptanceWait> {
  const stallMs = options.stallMs ?? 15_000;
  let firstMessageAt: number | undefined;
  let lastCount = 0;
  let lastProgressAt = performance.now();
  while (performance.now() < options.deadline) {
    const count = options.acceptedSoFar();
    if (count > 0 && firstMessageAt === undefined) firstMessageAt = performance.now();
    if (count >= options.expected) return { firstMessageAt, completed: true, stalled: false };
    if (count !== lastCount) {
      lastCount = count;
      lastProgressAt = performance.now();
    } else if (performance.now() - lastProgressAt > stallMs) {
      return { firstMessageAt, completed: false, stalled: true };
    }
    // acceptedMessages() copies the whole log: poll gently.
    await sleep(options.pollMs ?? 250);
  }
  return { firstMessageAt, completed: false, stalled: false };
}
