/** Time as a port, so use cases can be tested at fixed instants (expiry, billing periods). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; for tests and deterministic seeding. */
export function fixedClock(start: Date | string): Clock & { advanceBy(milliseconds: number): void; set(instant: Date | string): void } {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    advanceBy: (milliseconds) => {
      current += milliseconds;
    },
    set: (instant) => {
      current = new Date(instant).getTime();
    },
  };
}

/**
 * Real time moved by an offset the test controls: everything keeps running at its own pace (timers,
 * queues, pacing), while what the platform reads as "now" can jump ahead (a send window opening,
 * a canary's observation ending). Pass it as the local runtime's `overrides.clock`.
 *
 * @example
 * const clock = shiftedClock();
 * clock.shiftTo('2026-12-07T03:30:00Z'); // now() reads 03:30 UTC and goes on ticking
 * clock.shiftBy(30 * 60_000);            // half an hour later
 */
export function shiftedClock(
  base: () => number = Date.now,
): Clock & { shiftBy(milliseconds: number): void; shiftTo(instant: Date | string): void; readonly offsetMs: number } {
  let offsetMs = 0;
  return {
    now: () => new Date(base() + offsetMs),
    shiftBy: (milliseconds) => {
      offsetMs += milliseconds;
    },
    shiftTo: (instant) => {
      offsetMs = new Date(instant).getTime() - base();
    },
    get offsetMs() {
      return offsetMs;
    },
  };
}
