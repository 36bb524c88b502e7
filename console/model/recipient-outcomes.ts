/**
 * A recipient's outcomes as columns of the recipients table (issue 38, docs/CONSOLE.md "Outcomes"):
 * when they first replied, the first button they tapped, and their clicks with the first one's time.
 * The columns show when the list's rows carry the fields (a service from before outcomes has none).
 */
import type { RecipientRow } from './api-types';
import { formatCount, formatTime } from './format';

export const OUTCOME_COLUMNS: readonly string[] = ['Replied', 'Button', 'Clicks (first)'];

type OutcomeRow = Pick<RecipientRow, 'repliedAt' | 'buttonPayload' | 'firstClickAt' | 'clicks'>;

/**
 * Whether any row of the page carries an outcome field (null counts: the service has the column).
 *
 * @example
 * hasOutcomeColumns([{ repliedAt: null }]); // true
 * hasOutcomeColumns([{}]); // false
 */
export const hasOutcomeColumns = (rows: readonly OutcomeRow[]): boolean =>
  rows.some((row) => row.repliedAt !== undefined || row.buttonPayload !== undefined || row.firstClickAt !== undefined || row.clicks !== undefined);

/**
 * The row's outcome cells: replied at, button payload, clicks with the first click's time.
 *
 * @example
 * outcomeCellsOf({ repliedAt: null, buttonPayload: 'YES', clicks: 0 }); // ['—', 'YES', '—']
 */
export function outcomeCellsOf(row: OutcomeRow): string[] {
  const clicks = row.clicks ?? 0;
  return [formatTime(row.repliedAt), row.buttonPayload || '—', clicks > 0 ? `${formatCount(clicks)} (first ${formatTime(row.firstClickAt)})` : '—'];
}
