/**
 * The waiting tally codes (shared/delivery/recipient-status.ts `tallyCodes`): `0A:<epoch s>` a
 * recipient waiting for their send window, which opens then (docs/CAMPAIGNS.md "Send windows"),
 * `0B:<epoch s>` one deferred by the frequency cap until then ("Frequency caps"). Never sent yet:
 * the summary counts them in `pending` and, apart, as waiting with the earliest time.
 */

/** Recipients waiting for their send window (0A) or a frequency cap (0B), each with its earliest time (epoch seconds). */
export interface WaitingCounts {
  forWindow: number;
  nextWindowAt?: number;
  forCap: number;
  nextCapAt?: number;
}

/**
 * Counts a waiting code (0A/0B) into `counts.waiting`; false for any other code.
 *
 * @example countWaitingCode(counts, '0A:1764583200'); // true; counts.waiting.forWindow === 1
 */
export function countWaitingCode(counts: { waiting?: WaitingCounts }, code: string): boolean {
  const kind = code.slice(0, 2);
  if (kind !== '0A' && kind !== '0B') return false;
  const at = Number(code.slice(3));
  const waiting = (counts.waiting ??= { forWindow: 0, forCap: 0 });
  if (kind === '0A') {
    waiting.forWindow += 1;
    if (Number.isFinite(at)) waiting.nextWindowAt = Math.min(waiting.nextWindowAt ?? at, at);
  } else {
    waiting.forCap += 1;
    if (Number.isFinite(at)) waiting.nextCapAt = Math.min(waiting.nextCapAt ?? at, at);
  }
  return true;
}

/** The summary's waiting fields (the job status summary, the campaign view's totals). */
export interface WaitingSummary {
  waitingForWindow?: number;
  nextWindowAt?: string;
  deferredByCap?: number;
  nextCapAt?: string;
}

/**
 * The summary's waiting fields (docs/CAMPAIGNS.md "Send windows"), each pair only when someone waits.
 *
 * @example
 * waitingSummaryOf([{ forWindow: 2, nextWindowAt: 1764583200, forCap: 0 }]); // { waitingForWindow: 2, nextWindowAt: '2025-12-01T10:00:00.000Z' }
 */
export function waitingSummaryOf(counts: readonly WaitingCounts[]): WaitingSummary {
  const iso = (epochs: Array<number | undefined>) => {
    const known = epochs.filter((epoch): epoch is number => epoch !== undefined);
    return known.length === 0 ? undefined : new Date(Math.min(...known) * 1000).toISOString();
  };
  const forWindow = counts.reduce((sum, count) => sum + count.forWindow, 0);
  const forCap = counts.reduce((sum, count) => sum + count.forCap, 0);
  const nextWindowAt = iso(counts.map((count) => count.nextWindowAt));
  const nextCapAt = iso(counts.map((count) => count.nextCapAt));
  return {
    ...(forWindow > 0 && { waitingForWindow: forWindow, ...(nextWindowAt && { nextWindowAt }) }),
    ...(forCap > 0 && { deferredByCap: forCap, ...(nextCapAt && { nextCapAt }) }),
  };
}

/**
 * The waiting fields of a summary, to copy into another view (the campaign view's totals): only those present.
 *
 * @example waitingTotalsOf({ waitingForWindow: 3, nextWindowAt: '2026-06-01T03:30:00.000Z', sent: 7 }); // { waitingForWindow: 3, nextWindowAt: '2026-06-01T03:30:00.000Z' }
 */
export function waitingTotalsOf(summary: WaitingSummary | undefined): WaitingSummary {
  if (!summary) return {};
  const { waitingForWindow, nextWindowAt, deferredByCap, nextCapAt } = summary;
  return {
    ...(waitingForWindow !== undefined && { waitingForWindow }),
    ...(nextWindowAt !== undefined && { nextWindowAt }),
    ...(deferredByCap !== undefined && { deferredByCap }),
    ...(nextCapAt !== undefined && { nextCapAt }),
  };
}
