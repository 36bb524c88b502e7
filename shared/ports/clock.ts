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
