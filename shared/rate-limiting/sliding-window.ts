/**
 * The sliding-window rule shared by every rate-limiter adapter (two weighted windows).
 *
 * Time is cut into one-minute windows; each keeps a count. At an instant `elapsed` ms into the
 * current window, the last 60 seconds are estimated as
 *   previous × (60 000 − elapsed) / 60 000 + current
 * and a request is admitted when that estimate plus the request itself stays within the limit.
 * Everything is integer arithmetic on milliseconds, so adapters and tests agree to the millisecond.
 */

export const WINDOW_MS = 60_000;

export interface WindowCounts {
  /** Requests admitted in the window before the current one. */
  previous: number;
  /** Requests admitted so far in the current window. */
  current: number;
}

export const windowStartMs = (nowMs: number): number => Math.floor(nowMs / WINDOW_MS) * WINDOW_MS;

/** The total the current window may reach at `nowMs`, given what the previous window admitted. */
export function currentWindowAllowance(limitPerMinute: number, previous: number, nowMs: number): number {
  const remainingOfPrevious = WINDOW_MS - (nowMs - windowStartMs(nowMs));
  return Math.floor((limitPerMinute * WINDOW_MS - previous * remainingOfPrevious) / WINDOW_MS);
}

export const admits = (limitPerMinute: number, counts: WindowCounts, nowMs: number): boolean =>
  counts.current < currentWindowAllowance(limitPerMinute, counts.previous, nowMs);

/** Counts as seen `laterMs`, when no request is admitted meanwhile. */
function countsAt(counts: WindowCounts, nowMs: number, laterMs: number): WindowCounts {
  const windowsAhead = (windowStartMs(laterMs) - windowStartMs(nowMs)) / WINDOW_MS;
  if (windowsAhead === 0) return counts;
  if (windowsAhead === 1) return { previous: counts.current, current: 0 };
  return { previous: 0, current: 0 };
}

/**
 * The smallest whole number of seconds (at least 1) after which a refused request would be
 * admitted. The estimate only falls as time passes, so the first second that admits is the answer;
 * two windows on, both counts are 0, so at most 120 seconds are tried.
 */
export function secondsUntilAdmitted(limitPerMinute: number, counts: WindowCounts, nowMs: number): number {
  if (limitPerMinute < 1) throw new RangeError(`limitPerMinute must be at least 1, got ${limitPerMinute}`);
  for (let seconds = 1; ; seconds += 1) {
    const laterMs = nowMs + seconds * 1000;
    if (admits(limitPerMinute, countsAt(counts, nowMs, laterMs), laterMs)) return seconds;
  }
}
