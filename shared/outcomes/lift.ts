/**
 * A campaign's lift over its holdout (docs/OUTCOMES.md "Holdout and lift"): how many of its replies
 * the campaign caused, compared with the held-out people, who were never sent and whose inbound
 * messages within the attribution window say how often people write in anyway.
 *
 * - `sentReplyRate`: replied / sent (the people the campaign reached).
 * - `holdoutInboundRate`: holdout inbound / held out.
 * - `incrementalReplies`: replied − holdoutInboundRate × sent: the replies beyond what the same
 *   number of people would have sent unprompted (may be negative; rounded to 2 decimals).
 * - `costPerIncrementalReply`: the campaign's cost / incrementalReplies, absent when there is no
 *   cost yet or nothing incremental.
 * - `reliable`: the difference of the two rates is unlikely to be chance. True only when both groups
 *   hold at least MIN_GROUP people, the two groups' replies and inbound together reach
 *   MIN_RESPONSES (so the normal approximation holds), and a two-sided two-proportion z-test with
 *   the pooled rate gives |z| ≥ 1.96 (95 % confidence). False says "too small or too close to
 *   trust", not "no lift".
 */
import { formatMicros, parseDecimalToMicros } from '../tenancy/money';
import type { OutcomeCounts } from './outcome-facts';

/** Fewest people in each group (sent, held out) for a lift to be called reliable. */
export const MIN_GROUP = 100;
/** Fewest replies and holdout inbound messages together for a lift to be called reliable. */
export const MIN_RESPONSES = 10;
/** Two-sided 95 % critical value of the standard normal distribution. */
export const Z_95 = 1.96;

export interface Lift {
  sentReplyRate: number;
  holdoutInboundRate: number;
  incrementalReplies: number;
  /** Decimal string in the cost's currency; absent without a cost or when incrementalReplies ≤ 0. */
  costPerIncrementalReply?: string;
  heldOut: number;
  holdoutInbound: number;
  sent: number;
  replied: number;
  reliable: boolean;
}

const round = (value: number, decimals: number): number => {
  const scale = 10 ** decimals;
  return Math.round(value * scale) / scale + 0;
};
const rate = (count: number, of: number): number => (of === 0 ? 0 : count / of);

/**
 * The two-proportion z statistic with the pooled rate; 0 when it is undefined (an empty group, or
 * nobody or everybody responded in both).
 *
 * @example
 * twoProportionZ(30, 1000, 10, 1000); // ≈ 3.2
 */
export function twoProportionZ(successesA: number, sizeA: number, successesB: number, sizeB: number): number {
  if (sizeA === 0 || sizeB === 0) return 0;
  const pooled = (successesA + successesB) / (sizeA + sizeB);
  const spread = Math.sqrt(pooled * (1 - pooled) * (1 / sizeA + 1 / sizeB));
  return spread === 0 ? 0 : (successesA / sizeA - successesB / sizeB) / spread;
}

/**
 * The lift of a campaign from its outcome counts, the people sent and what they cost.
 *
 * @example
 * liftOf({ replied: 90, holdout: { heldOut: 100, inbound: 2 } }, 900, { amount: '45.00' });
 * // { sentReplyRate: 0.1, holdoutInboundRate: 0.02, incrementalReplies: 72, costPerIncrementalReply: '0.625', heldOut: 100, holdoutInbound: 2, sent: 900, replied: 90, reliable: true }
 */
export function liftOf(outcomes: Pick<OutcomeCounts, 'replied' | 'holdout'>, sent: number, cost?: { amount: string }): Lift {
  const { replied } = outcomes;
  const { heldOut, inbound } = outcomes.holdout;
  const holdoutRate = rate(inbound, heldOut);
  const incremental = round(replied - holdoutRate * sent, 2);
  const z = twoProportionZ(replied, sent, inbound, heldOut);
  const reliable = sent >= MIN_GROUP && heldOut >= MIN_GROUP && replied + inbound >= MIN_RESPONSES && Math.abs(z) >= Z_95;
  // To the micro-unit, half up, as the summary's perReply (shared/broadcast/outcome-summary.ts; not imported: broadcast reads this module).
  const perReply = cost === undefined || incremental <= 0 ? undefined : formatMicros(Math.round(parseDecimalToMicros(cost.amount) / incremental));
  return {
    sentReplyRate: round(rate(replied, sent), 4),
    holdoutInboundRate: round(holdoutRate, 4),
    incrementalReplies: incremental,
    ...(perReply !== undefined && { costPerIncrementalReply: perReply }),
    heldOut,
    holdoutInbound: inbound,
    sent,
    replied,
    reliable,
  };
}
