/**
 * A campaign's state as the console reads it (docs/CONSOLE.md "Campaigns"): its words, whether the
 * page keeps reading it, what its buttons may do, and the note that says what a state waits for.
 */
import type { CampaignState, CampaignTotals, CampaignView } from './api-types';
import { formatTime } from './format';

/** The words of a campaign state, the API's value beside them. */
export const campaignStateLabels: Record<CampaignState, string> = {
  DRAFT: 'Draft',
  SCHEDULED: 'Scheduled',
  LAUNCHING: 'Launching',
  SENDING: 'Sending',
  WAITING_FOR_LIMIT: 'Waiting for the messaging limit',
  PAUSED: 'Paused',
  COMPLETED: 'Completed',
  COMPLETED_WITH_FAILURES: 'Completed with failures',
  CANCELLED: 'Cancelled',
  FAILED: 'Failed',
};

const FINISHED: ReadonlySet<CampaignState> = new Set(['COMPLETED', 'COMPLETED_WITH_FAILURES', 'CANCELLED', 'FAILED']);

/**
 * Whether the campaign changes by itself: a finished campaign changes no more, a draft only when
 * someone launches it. The page stops reading those (its Refresh button reads again).
 *
 * @example
 * campaignChangesByItself('WAITING_FOR_LIMIT'); // true
 * campaignChangesByItself('DRAFT'); // false
 */
export const campaignChangesByItself = (state: CampaignState): boolean => state !== 'DRAFT' && !FINISHED.has(state);

/** Whether the campaign is over (no pause, resume or cancel any more). */
export const isCampaignFinished = (state: CampaignState): boolean => FINISHED.has(state);

export interface CampaignControls {
  pause: boolean;
  resume: boolean;
  cancel: boolean;
}

const PAUSABLE: ReadonlySet<CampaignState> = new Set(['LAUNCHING', 'SENDING', 'WAITING_FOR_LIMIT']);
const CANCELLABLE: ReadonlySet<CampaignState> = new Set(['SCHEDULED', 'LAUNCHING', 'SENDING', 'WAITING_FOR_LIMIT', 'PAUSED']);

/**
 * Which of pause, resume and cancel the state allows (the page shows only those): pause while it
 * launches, sends or waits for the limit; resume when paused; cancel from scheduled until finished.
 * A draft has nothing to stop (it is launched by the API or the CLI).
 *
 * @example
 * campaignControlsOf('PAUSED'); // { pause: false, resume: true, cancel: true }
 */
export function campaignControlsOf(state: CampaignState): CampaignControls {
  return { pause: PAUSABLE.has(state), resume: state === 'PAUSED', cancel: CANCELLABLE.has(state) };
}

/**
 * The note beside the state: when a campaign waiting for the messaging limit goes on, who paused
 * one, and failures Meta reported after a COMPLETED send (as for jobs).
 *
 * @example
 * campaignStateNoteOf({ state: 'PAUSED', pause: { pausedBy: 'user' } } as CampaignView); // 'paused by user'
 */
export function campaignStateNoteOf(view: Pick<CampaignView, 'state' | 'waitingUntil' | 'pause' | 'totals'>): string | undefined {
  if (view.state === 'WAITING_FOR_LIMIT')
    return view.waitingUntil ? `goes on at ${formatTime(view.waitingUntil)} as the 24-hour window frees` : 'goes on as the 24-hour window frees';
  if (view.state === 'PAUSED') {
    const by = view.pause?.pausedBy ?? view.pause?.by;
    const parts = [by ? `paused by ${by}` : undefined, view.pause?.reason].filter((part): part is string => !!part);
    return parts.length ? parts.join(': ') : undefined;
  }
  if (view.state === 'COMPLETED' && view.totals.failed > 0) return `${view.totals.failed} failed after sending (reported by Meta)`;
  return undefined;
}

/**
 * The sendable members done so far: sendable less those still queued (the expander adds sendable
 * members page by page, so while it reads the audiences the whole grows too).
 *
 * @example
 * campaignProgressOf({ sendable: 100, queued: 25 } as CampaignTotals); // { settled: 75, percent: 75 }
 */
export function campaignProgressOf(totals: Pick<CampaignTotals, 'sendable' | 'queued'>): { settled: number; percent: number } {
  const settled = Math.max(0, totals.sendable - totals.queued);
  return { settled, percent: totals.sendable === 0 ? 0 : Math.round((settled / totals.sendable) * 100) };
}
