import type { JobSummary, ReasonRow } from './api-types';

export interface FunnelBar {
  label: string;
  value: number;
}

/**
 * The funnel sent → delivered → read, with failed beside it: exactly the status summary's counts
 * (`sent` includes delivered and read; `delivered` includes read), so the chart and the API agree.
 *
 * @example
 * funnelOf({ sent: 10, delivered: 8, read: 3, failed: 2 } as JobSummary).map((bar) => bar.value); // [10, 8, 3, 2]
 */
export function funnelOf(summary: JobSummary): FunnelBar[] {
  return [
    { label: 'Sent', value: summary.sent },
    { label: 'Delivered', value: summary.delivered },
    { label: 'Read', value: summary.read },
    { label: 'Failed', value: summary.failed },
  ];
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
