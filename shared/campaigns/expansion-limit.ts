/**
 * The expander's side of Meta's messaging limit (docs/CAMPAIGNS.md "The messaging limit plan"):
 * a page is only as large as the portfolio's headroom (so what is read can be sent), its new
 * recipients are reserved before its chunk is queued (messaging-limit.ts, the accept's own count),
 * and what does not fit waits until the moving 24-hour window frees enough (limit-plan.ts).
 *
 * The page size is decided before a page is read and kept in the checkpoint: a page run again (a
 * redelivery, a crash, a wait) is the same page with the same people, which is what keeps its
 * claims and indexes the same (expansion-page.ts).
 */
import { MessagingLimitExceededError } from '../broadcast/errors';
import { reserveReach, type MessagingLimitDependencies } from '../broadcast/messaging-limit';
import type { SenderAccount } from '../broadcast/ports';
import { whenRecipientsFit, type LimitWindow } from './limit-plan';
import { readLimitWindow } from './limit-window';
import { EXPANSION_PAGE_SIZE } from './expansion-timing';

const HOUR_MS = 3_600_000;

export type PageAllowance = { pageSize: number } | { waitUntil: Date };

/** When to look again: when `needed` fit, else when anything frees, else in an hour (an estimate's noise). */
const waitFor = (window: LimitWindow, needed: number): Date =>
  whenRecipientsFit(window, Math.max(1, needed)) ?? whenRecipientsFit(window, 1) ?? new Date(window.now.getTime() + HOUR_MS);

/**
 * How many members the next page may read: a full page without a limit, else at most the headroom;
 * none (wait until the window frees) when there is no headroom.
 *
 * @example
 * await pageAllowance(ports, sender, now); // { pageSize: 1000 } | { pageSize: 140 } | { waitUntil: Date }
 */
export async function pageAllowance(ports: MessagingLimitDependencies, sender: SenderAccount, now: Date): Promise<PageAllowance> {
  const window = await readLimitWindow(ports, sender, now);
  if (window.limit === null) return { pageSize: EXPANSION_PAGE_SIZE };
  const headroom = Math.max(0, window.limit - window.usedLast24h);
  return headroom > 0 ? { pageSize: Math.min(EXPANSION_PAGE_SIZE, headroom) } : { waitUntil: waitFor(window, 1) };
}

/**
 * Reserves the page's recipients against the limit; when they do not fit (another send took the
 * headroom meanwhile), when they will.
 *
 * @example
 * await reservePage(ports, sender, ['919800000001'], now); // { reserved: true } | { waitUntil: Date }
 */
export async function reservePage(
  ports: MessagingLimitDependencies,
  sender: SenderAccount,
  recipients: readonly string[],
  now: Date,
): Promise<{ reserved: true } | { waitUntil: Date }> {
  try {
    await reserveReach(ports, sender, recipients, now);
    return { reserved: true };
  } catch (error) {
    if (!(error instanceof MessagingLimitExceededError)) throw error;
    return { waitUntil: waitFor(await readLimitWindow(ports, sender, now), recipients.length) };
  }
}
