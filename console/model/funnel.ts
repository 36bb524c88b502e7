import type { CampaignTotals, JobSummary, ReasonRow, SkippedByReason } from './api-types';
import { heldOutBarOf, outcomeBarsOf, type FunnelBar } from './outcomes';

export type { FunnelBar } from './outcomes';

/**
 * The funnel sent → delivered → read → replied / clicked, with failed (and held out) beside it:
 * exactly the status summary's counts (`sent` includes delivered and read; `delivered` includes
 * read), so the chart and the API agree. Replied and clicked only when the summary has them.
 *
 * @example
 * funnelOf({ sent: 10, delivered: 8, read: 3, failed: 2 } as JobSummary).map((bar) => bar.value); // [10, 8, 3, 2]
 */
export function funnelOf(summary: JobSummary): FunnelBar[] {
  return [
    { label: 'Sent', value: summary.sent },
    { label: 'Delivered', value: summary.delivered },
    { label: 'Read', value: summary.read },
    ...outcomeBarsOf(summary),
    { label: 'Failed', value: summary.failed },
    ...heldOutBarOf(summary),
  ];
}

/**
 * A campaign's funnel: audience → sendable → sent → delivered → read → replied / clicked, with
 * skipped, opted out, failed and held out beside them; exactly the campaign's `totals` (the same
 * rules as a job's summary).
 *
 * @example
 * campaignFunnelOf({ audience: 12, sendable: 10, sent: 9, delivered: 8, read: 3, skipped: 1, optedOut: 1, failed: 1 } as CampaignTotals).map((bar) => bar.value);
 * // [12, 10, 9, 8, 3, 1, 1, 1]
 */
export function campaignFunnelOf(totals: CampaignTotals): FunnelBar[] {
  return [
    { label: 'Audience', value: totals.audience },
    { label: 'Sendable', value: totals.sendable },
    { label: 'Sent', value: totals.sent },
    { label: 'Delivered', value: totals.delivered },
    { label: 'Read', value: totals.read },
    ...outcomeBarsOf(totals),
    { label: 'Skipped', value: totals.skipped },
    { label: 'Opted out', value: totals.optedOut },
    { label: 'Failed', value: totals.failed },
    ...heldOutBarOf(totals),
  ];
}

const SKIPPED_WORDS: Record<keyof SkippedByReason, string> = {
  DUPLICATE: 'Already met in this campaign (another audience, form or pair): one message per person',
  EXCLUDED: 'In an excluded audience',
  FILTERED_OUT: "Not matching the campaign's filter",
  MISSING_ATTRIBUTE: 'Without an attribute a value needs, and no fallback (listed as FAILED)',
  INVALID_PARAMETER: 'A filled value Meta would refuse (listed as FAILED)',
};

export interface SkippedRow {
  reason: string;
  count: number;
  meaning: string;
}

/**
 * The members left out at expansion, by reason, in the API's order, those with none left out.
 *
 * @example
 * skippedRowsOf({ DUPLICATE: 300, MISSING_ATTRIBUTE: 0 }).map((row) => [row.reason, row.count]); // [['DUPLICATE', 300]]
 */
export function skippedRowsOf(skipped: Partial<SkippedByReason> | undefined): SkippedRow[] {
  return (Object.keys(SKIPPED_WORDS) as Array<keyof SkippedByReason>)
    .map((reason) => ({ reason, count: skipped?.[reason] ?? 0, meaning: SKIPPED_WORDS[reason] }))
    .filter((row) => row.count > 0);
}

export interface FailureGroup {
  code: string;
  count: number;
  title: string;
  action: string;
}

const FALLBACK = { text: 'The message could not be sent', action: 'Send to the recipient again later' };

/**
 * The summary's failures grouped by code, most first, each with its title and what to do from the
 * failure-reason table (failure-codes.json); a code the table lacks reads as the default reason.
 *
 * @example
 * failureGroupsOf({ '131049': 3 }, [{ code: '131049', text: 'Meta chose not to deliver…', action: 'Do not resend at once…' }]);
 * // [{ code: '131049', count: 3, title: 'Meta chose not to deliver…', action: 'Do not resend at once…' }]
 */
export function failureGroupsOf(failuresByReason: Record<string, number>, table: readonly ReasonRow[]): FailureGroup[] {
  const byCode = new Map(table.map((row) => [row.code, row]));
  return Object.entries(failuresByReason)
    .filter(([, count]) => count > 0)
    .map(([code, count]) => {
      const row = byCode.get(code) ?? byCode.get('TEMPLATE_SEND_FAILED') ?? { ...FALLBACK, code };
      return { code, count, title: row.text, action: row.action };
    })
    .sort((a, b) => b.count - a.count || a.code.localeCompare(b.code));
}
