/** The expander's sizes and waits (docs/CAMPAIGNS.md "How a campaign runs"). */

/** Members read per page: a page becomes at most one 1,000-recipient chunk. */
export const EXPANSION_PAGE_SIZE = 1000;
/** SQS's longest delay: a longer wait is several delayed messages, each re-queued until the time has come. */
export const MAX_EXPANSION_DELAY_SECONDS = 900;
/** How often a paused campaign's expansion looks again whether it was resumed. */
export const PAUSED_RECHECK_SECONDS = 300;
/** Work per invocation before the expander re-queues itself (well under the function's timeout). */
export const EXPANSION_TIME_BUDGET_MS = 40_000;

/**
 * The delay of a message that is to act at `until` (ISO): the seconds left, at most SQS's 900 (the
 * message is then re-queued until the time has come); 0 when the time is past or absent.
 *
 * @example
 * expansionDelaySeconds('2026-05-04T10:10:00Z', new Date('2026-05-04T10:00:00Z')); // 600
 */
export function expansionDelaySeconds(until: string | undefined, now: Date): number {
  if (until === undefined) return 0;
  const seconds = Math.ceil((Date.parse(until) - now.getTime()) / 1000);
  return Math.min(MAX_EXPANSION_DELAY_SECONDS, Math.max(0, seconds));
}
