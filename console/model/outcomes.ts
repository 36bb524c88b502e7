/**
 * What recipients did after the send, as the console shows it (issue 38, docs/CONSOLE.md "Outcomes"):
 * the funnel's bars after read (replied, clicked, each with its rate against delivered), taps per
 * button, the outcome facts beside the cost (STOP replies, cost per reply and per click) and a
 * campaign's lift over its held-out group. A field the answer lacks (a job from before outcomes) shows
 * nothing rather than a zero that would claim nobody replied.
 */
import type { ButtonTaps, CampaignLift, JobCost, OutcomeTotals } from './api-types';
import { MIN_GROUP, MIN_RESPONSES } from '../../shared/outcomes/lift';
import { formatCount, formatMoney } from './format';

/** A bar of the funnel (console/model/funnel.ts): its label, its count and, for an outcome, its rate in words. */
export interface FunnelBar {
  label: string;
  value: number;
  /** "12.5 % of delivered" (outcome bars only; absent when nothing was delivered). */
  rate?: string;
}

/**
 * A share as a percentage with one decimal, or undefined when the whole is 0.
 *
 * @example
 * percentOf(1, 8); // '12.5 %'
 */
export function percentOf(part: number, whole: number): string | undefined {
  if (!(whole > 0)) return undefined;
  return `${((part / whole) * 100).toFixed(1)} %`;
}

/**
 * A fraction (the lift's rates: 0.125) as a percentage with one decimal.
 *
 * @example
 * fractionText(0.125); // '12.5 %'
 */
export const fractionText = (fraction: number): string => `${(fraction * 100).toFixed(1)} %`;

/**
 * The funnel's bars after read: replied and clicked, each when the answer has it, with its rate
 * against delivered (read receipts undercount, delivered does not).
 *
 * @example
 * outcomeBarsOf({ delivered: 80, replied: 10, clicked: 4 }).map((bar) => [bar.label, bar.value, bar.rate]);
 * // [['Replied', 10, '12.5 % of delivered'], ['Clicked', 4, '5.0 % of delivered']]
 */
export function outcomeBarsOf(counts: OutcomeTotals & { delivered: number }): FunnelBar[] {
  const bars: FunnelBar[] = [];
  const add = (label: string, value: number | undefined) => {
    if (typeof value !== 'number') return;
    const rate = percentOf(value, counts.delivered);
    bars.push({ label, value, ...(rate ? { rate: `${rate} of delivered` } : {}) });
  };
  add('Replied', counts.replied);
  add('Clicked', counts.clicked);
  return bars;
}

/**
 * The held-out bar beside the funnel, when the campaign held anyone out.
 *
 * @example
 * heldOutBarOf({ heldOut: 100 }); // [{ label: 'Held out', value: 100 }]
 */
export const heldOutBarOf = (counts: OutcomeTotals): FunnelBar[] =>
  typeof counts.heldOut === 'number' && counts.heldOut > 0 ? [{ label: 'Held out', value: counts.heldOut }] : [];

export interface ButtonRow {
  button: string;
  payload: string;
  taps: number;
}

/**
 * Taps per button, in the template's order (a tap no button matched, index -1, last).
 *
 * @example
 * buttonRowsOf([{ index: 1, payload: 'STOP', taps: 2 }, { index: 0, payload: 'YES', taps: 9 }]);
 * // [{ button: 'Button 1', payload: 'YES', taps: 9 }, { button: 'Button 2', payload: 'STOP', taps: 2 }]
 */
export function buttonRowsOf(buttons: readonly ButtonTaps[] | undefined): ButtonRow[] {
  const order = (index: number) => (index < 0 ? Number.MAX_SAFE_INTEGER : index);
  return [...(buttons ?? [])]
    .sort((a, b) => order(a.index) - order(b.index) || a.payload.localeCompare(b.payload))
    .map((entry) => ({ button: entry.index < 0 ? 'No button matched' : `Button ${entry.index + 1}`, payload: entry.payload, taps: entry.taps }));
}

/**
 * The payloads tapped (the follow-up dialog offers them), each once, in the template's order.
 *
 * @example
 * tappedPayloadsOf([{ index: 0, payload: 'YES', taps: 3 }, { index: 1, payload: 'NO', taps: 1 }]); // ['YES', 'NO']
 */
export const tappedPayloadsOf = (buttons: readonly ButtonTaps[] | undefined): string[] => [...new Set(buttonRowsOf(buttons).map((row) => row.payload))];

/**
 * The outcome facts shown with the cost: STOP replies, cost per reply and per click (when present).
 *
 * @example
 * outcomeFactsOf({ repliedByStop: 2 }, { currency: 'EUR', billed: 10, amount: '1.0000', perReply: '0.2500' });
 * // [['Opted out by a STOP reply', '2'], ['Cost per reply', '0.2500 EUR']]
 */
export function outcomeFactsOf(counts: OutcomeTotals, cost: JobCost | null | undefined): Array<[string, string]> {
  const facts: Array<[string, string]> = [];
  if (typeof counts.repliedByStop === 'number') facts.push(['Opted out by a STOP reply', formatCount(counts.repliedByStop)]);
  if (cost?.perReply) facts.push(['Cost per reply', formatMoney(cost.perReply, cost.currency)]);
  if (cost?.perClick) facts.push(['Cost per click', formatMoney(cost.perClick, cost.currency)]);
  return facts;
}

/** Why a lift is not to be trusted, in words (docs/OUTCOMES.md "Holdout and lift"): the lift's own rule (shared/outcomes/lift.ts). */
export const UNRELIABLE_LIFT = {
  heldOut: `Too few held out to trust: at least ${formatCount(MIN_GROUP)} members must be held out (and ${formatCount(MIN_GROUP)} sent) before the difference means anything. Hold out a larger share next time.`,
  responses: `Too few replies to trust: the sent and the held out together need at least ${formatCount(MIN_RESPONSES)} replies and inbound messages. Wait for more, or send to more.`,
  chance: 'Too close to trust: the difference between the two rates could be chance (below 95 % confidence). This does not mean the campaign added nothing.',
} as const;

/**
 * The lift panel's rows: both groups' rates and counts, the replies the campaign caused, their cost.
 *
 * @example
 * liftRowsOf({ sentReplyRate: 0.1, holdoutInboundRate: 0.02, incrementalReplies: 72, heldOut: 100, holdoutInbound: 2, sent: 900, replied: 90, reliable: true }, 'EUR')[0];
 * // ['Reply rate of those sent', '10.0 % (90 of 900)']
 */
export function liftRowsOf(lift: CampaignLift, currency: string | undefined): Array<[string, string]> {
  const rows: Array<[string, string]> = [
    ['Reply rate of those sent', `${fractionText(lift.sentReplyRate)} (${formatCount(lift.replied)} of ${formatCount(lift.sent)})`],
    ['Inbound rate of those held out', `${fractionText(lift.holdoutInboundRate)} (${formatCount(lift.holdoutInbound)} of ${formatCount(lift.heldOut)})`],
    ['Replies the campaign caused (incremental)', new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 }).format(lift.incrementalReplies)],
  ];
  if (lift.costPerIncrementalReply)
    rows.push(['Cost per incremental reply', currency ? formatMoney(lift.costPerIncrementalReply, currency) : lift.costPerIncrementalReply]);
  return rows;
}

/**
 * The lift's verdict in words: what the figure means, or why it is not to be trusted (too few held
 * out or sent, too few responses, or a difference chance could explain).
 *
 * @example
 * liftVerdictOf({ reliable: false, heldOut: 37, sent: 3250, replied: 325, holdoutInbound: 1 } as CampaignLift); // UNRELIABLE_LIFT.heldOut
 */
export function liftVerdictOf(lift: CampaignLift): string {
  if (lift.reliable)
    return 'The held-out members were drawn at random and never sent: the difference between the two rates is what the campaign added (95 % confidence).';
  if (lift.heldOut < MIN_GROUP || lift.sent < MIN_GROUP) return UNRELIABLE_LIFT.heldOut;
  if (lift.replied + lift.holdoutInbound < MIN_RESPONSES) return UNRELIABLE_LIFT.responses;
  return UNRELIABLE_LIFT.chance;
}
