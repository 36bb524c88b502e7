/**
 * What the status summary, the broadcasts list and the campaign view show of a job's outcomes
 * (docs/OUTCOMES.md "Where it shows", docs/BROADCAST.md "Status"): the counts of
 * shared/outcomes/count-outcomes.ts, and what the billed cost comes to per reply and per click.
 *
 * Compatible extension: a job no outcome reached answers exactly as before. `replied`, `clicked`
 * and `buttons` appear together once the job has any outcome fact or held-out recipient (then 0
 * means none); `repliedByStop` and `heldOut` only when above 0.
 */
import type { OutcomeCounts } from '../outcomes/outcome-facts';
import type { CampaignCost } from '../pricing/campaign-cost';
import { formatMicros, parseDecimalToMicros } from '../tenancy/money';

/** The summary's outcome fields (JobSummary extends it). */
export interface OutcomeSummary {
  /** Recipients with an attributed reply (a tap is a reply; held-out people never count here). */
  replied?: number;
  /** Recipients with at least one counted click on a tracked link (unique people). */
  clicked?: number;
  /** Taps per quick-reply button: each person once per button; `index` -1 when no button of the template matched the tap. */
  buttons?: Array<{ index: number; payload: string; taps: number }>;
  /** Recipients whose STOP reply was attributed to the job (they are on the opt-out list now). */
  repliedByStop?: number;
  /** Held out of the campaign (never sent: its holdout, status HELD_OUT). */
  heldOut?: number;
}

/**
 * The summary's outcome fields; nothing for a job without any outcome (so its answer is unchanged).
 *
 * @example
 * outcomeSummaryOf({ replied: 3, clicked: 1, clicks: 2, optedOut: 0, buttons: [], holdout: { heldOut: 0, inbound: 0 } }); // { replied: 3, clicked: 1, buttons: [] }
 * outcomeSummaryOf(emptyOutcomeCounts()); // {}
 */
export function outcomeSummaryOf(outcomes: OutcomeCounts | undefined): OutcomeSummary {
  if (!outcomes) return {};
  const { replied, clicked, optedOut, buttons, holdout } = outcomes;
  if (replied + clicked + optedOut + buttons.length + holdout.heldOut + holdout.inbound === 0) return {};
  return {
    replied,
    clicked,
    buttons: buttons.map((button) => ({ ...button })),
    ...(optedOut > 0 && { repliedByStop: optedOut }),
    ...(holdout.heldOut > 0 && { heldOut: holdout.heldOut }),
  };
}

/**
 * A summary's outcome fields alone (the campaign view's totals show them as its job's summary does).
 *
 * @example
 * outcomeTotalsOf({ ...summary, replied: 3, clicked: 0, buttons: [] }); // { replied: 3, clicked: 0, buttons: [] }
 */
export function outcomeTotalsOf(summary: OutcomeSummary | undefined): OutcomeSummary {
  if (!summary) return {};
  const { replied, clicked, buttons, repliedByStop, heldOut } = summary;
  return {
    ...(replied !== undefined && { replied }),
    ...(clicked !== undefined && { clicked }),
    ...(buttons !== undefined && { buttons }),
    ...(repliedByStop !== undefined && { repliedByStop }),
    ...(heldOut !== undefined && { heldOut }),
  };
}

/**
 * `amount` divided by `count`, to the micro-unit (half up), as a decimal string; undefined when the count is 0.
 *
 * @example
 * perOutcome('1.00', 3); // '0.333333'
 * perOutcome('0.0529', 0); // undefined
 */
export function perOutcome(amount: string, count: number): string | undefined {
  if (!(count > 0)) return undefined;
  return formatMicros(Math.round(parseDecimalToMicros(amount) / count));
}

/**
 * The cost with `perReply` and `perClick` (docs/BROADCAST.md "Cost per campaign"): the billed amount
 * over the recipients who replied, or clicked; each absent when its count is 0.
 *
 * @example
 * withCostPerOutcome({ currency: 'USD', billed: 10, amount: '0.529', byCategory }, { ...counts, replied: 4, clicked: 0 });
 * // { currency: 'USD', billed: 10, amount: '0.529', byCategory, perReply: '0.13225' }
 */
export function withCostPerOutcome(cost: CampaignCost, outcomes: OutcomeCounts | undefined): CampaignCost {
  const perReply = outcomes && perOutcome(cost.amount, outcomes.replied);
  const perClick = outcomes && perOutcome(cost.amount, outcomes.clicked);
  return { ...cost, ...(perReply !== undefined && { perReply }), ...(perClick !== undefined && { perClick }) };
}
