/**
 * The builder's measurement fields (issue 38, docs/CONSOLE.md "New campaign"): a holdout, the share
 * of the audience drawn at random and never sent (`holdout.percent`, above 0 and at most 50, one
 * decimal at most), and the attribution window (`attributionWindowHours`, whole hours 1..720, 72 when
 * left empty). Checked here by the API's rules so the person reads the problem before the draft.
 */
import { ATTRIBUTION_WINDOW_BOUNDS, DEFAULT_ATTRIBUTION_WINDOW_HOURS } from '../../shared/outcomes/outcome-facts';

export { DEFAULT_ATTRIBUTION_WINDOW_HOURS };

/** The largest holdout a campaign takes (docs/OUTCOMES.md "Holdouts"). */
export const MAX_HOLDOUT_PERCENT = 50;

export interface Measurement {
  holdout?: { percent: number };
  attributionWindowHours?: number;
}

/**
 * The create body's measurement fields from the two inputs' text, or the problem in words.
 *
 * @example
 * measurementOf('5', ''); // { values: { holdout: { percent: 5 } } }
 * measurementOf('60', '').problem; // 'The holdout must be above 0 and at most 50 percent, with one decimal at most.'
 */
export function measurementOf(holdoutText: string, windowText: string): { values: Measurement; problem?: string } {
  const values: Measurement = {};
  if (holdoutText.trim() !== '') {
    const percent = Number(holdoutText);
    if (!(percent > 0 && percent <= MAX_HOLDOUT_PERCENT) || Math.round(percent * 10) !== percent * 10) {
      return { values, problem: `The holdout must be above 0 and at most ${MAX_HOLDOUT_PERCENT} percent, with one decimal at most.` };
    }
    values.holdout = { percent };
  }
  if (windowText.trim() !== '') {
    const hours = Number(windowText);
    const { min, max } = ATTRIBUTION_WINDOW_BOUNDS;
    if (!Number.isInteger(hours) || hours < min || hours > max) return { values, problem: `The attribution window must be whole hours from ${min} to ${max}.` };
    values.attributionWindowHours = hours;
  }
  return { values };
}
