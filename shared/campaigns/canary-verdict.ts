/**
 * The canary's and the halt thresholds' arithmetic (docs/CAMPAIGNS.md "Canary and halt thresholds"),
 * pure: from a job's tally codes and attributed opt-outs to the counts, from the counts to the
 * measured rates, and from the rates to a verdict against `haltIf`.
 *
 * - Sent (the denominator): recipients sent to Meta: accepted (sent, delivered, read, held by
 *   pacing), refused or failed by Meta with its error code, or with an unknown outcome. Recipients
 *   the platform never sent (opted out, frequency capped, skipped, held out, cancelled, waiting) are
 *   in no figure.
 * - Opt-outs: STOP replies and `user_preferences` stops attributed to the campaign's messages (the
 *   outcome `optedOut`, each person once), plus failures 131050 (the user stopped marketing messages).
 * - Failures: every recipient Meta refused or failed with an error code (the send's answer or a
 *   `failed` status), 131050 and 131026 included; the platform's own reasons are not failures.
 * - Blocks: Meta sends no block event; the proxy is 131026 (undeliverable, which covers a user who
 *   blocked the business; also a number not on WhatsApp or an old client, so it is an upper bound).
 * - Quality drop: the template's quality rating fell (GREEN > YELLOW > RED) since watching began.
 */
import type { Canary, HaltIf } from '../send-rules/send-rules.schema';
import type { HaltFigures, HaltMeasure, MeasuredRates } from '../send-rules/halt-figures';
import type { TallyCode } from '../delivery/recipient-status';
import { INVALID_PHONE_NUMBER } from '../sending/failure-reasons';

/** The figures' numerators and their denominator. */
export interface HaltCounts {
  sent: number;
  optOuts: number;
  failures: number;
  blocks: number;
}

/** `haltIf` without a canary judges nothing before this many recipients were sent (since the last resume of a halt). */
export const MIN_HALT_SAMPLE = 200;
/** A canary without `percent` or `count` sends this share of the audience first. */
export const DEFAULT_CANARY_PERCENT = 5;

const STOPPED_MARKETING = '131050';
const UNDELIVERABLE = '131026';
const SENT_PREFIXES = new Set(['0U', '1H', '1S', '3D', '4R']);

export const emptyHaltCounts = (): HaltCounts => ({ sent: 0, optOuts: 0, failures: 0, blocks: 0 });

/** Meta's code of a failure tally code, or undefined when the platform refused the recipient itself. */
function metaFailureOf(code: TallyCode): string | undefined {
  const prefix = code.slice(0, 2);
  const reason = code.slice(3);
  if (prefix === '2F') return reason;
  if (prefix !== '9X') return undefined;
  if (/^\d+$/.test(reason)) return reason;
  // The send's answer 131026 is recorded under the contract's name (failure-reasons.ts failureReasonOf).
  return reason === INVALID_PHONE_NUMBER ? UNDELIVERABLE : undefined;
}

/**
 * The counts over a job's tally codes (`within`: only those recipients) plus the attributed opt-outs.
 *
 * @example
 * haltCountsOf([[0, '4R'], [1, '2F:131050'], [2, '9X:OPTED_OUT'], [3, '9X:131026']], 2);
 * // { sent: 3, optOuts: 3, failures: 2, blocks: 1 }
 */
export function haltCountsOf(
  codes: Iterable<readonly [index: number, code: TallyCode]>,
  attributedOptOuts: number,
  within?: (index: number) => boolean,
): HaltCounts {
  const counts = emptyHaltCounts();
  counts.optOuts = attributedOptOuts;
  for (const [index, code] of codes) {
    if (within && !within(index)) continue;
    if (SENT_PREFIXES.has(code.slice(0, 2))) {
      counts.sent += 1;
      continue;
    }
    const meta = metaFailureOf(code);
    if (meta === undefined) continue;
    counts.sent += 1;
    counts.failures += 1;
    if (meta === STOPPED_MARKETING) counts.optOuts += 1;
    if (meta === UNDELIVERABLE) counts.blocks += 1;
  }
  return counts;
}

const rounded = (share: number): number => Math.round(share * 1e6) / 1e6;
const rateOf = (part: number, whole: number): number => (whole <= 0 ? 0 : rounded(Math.min(1, Math.max(0, part) / whole)));

/**
 * The counts since `baseline` (a halt a person resumed: what came after it), never below zero.
 *
 * @example
 * countsSince({ sent: 300, optOuts: 5, failures: 2, blocks: 0 }, { sent: 100, optOuts: 3, failures: 0, blocks: 0 }); // { sent: 200, optOuts: 2, failures: 2, blocks: 0 }
 */
export function countsSince(counts: HaltCounts, baseline: HaltCounts | undefined): HaltCounts {
  if (!baseline) return counts;
  const less = (key: keyof HaltCounts) => Math.max(0, counts[key] - baseline[key]);
  return { sent: less('sent'), optOuts: less('optOuts'), failures: less('failures'), blocks: less('blocks') };
}

/**
 * The rates of the counts (shares of `sent`, rounded to six decimals; 0 with nothing sent).
 *
 * @example
 * measuredRatesOf({ sent: 100, optOuts: 3, failures: 1, blocks: 0 }, false); // { optOutRate: 0.03, failureRate: 0.01, blockRate: 0, qualityDrop: false }
 */
export const measuredRatesOf = (counts: HaltCounts, qualityDrop: boolean): MeasuredRates => ({
  optOutRate: rateOf(counts.optOuts, counts.sent),
  failureRate: rateOf(counts.failures, counts.sent),
  blockRate: rateOf(counts.blocks, counts.sent),
  qualityDrop,
});

const QUALITY_RANK: Readonly<Record<string, number>> = { GREEN: 3, YELLOW: 2, RED: 1 };
/** UNKNOWN (a new template) or no rating ranks as high as GREEN: a first rating of YELLOW or RED is a drop. */
const rankOf = (quality: string | undefined): number => QUALITY_RANK[quality?.toUpperCase() ?? ''] ?? 3;

/**
 * Whether the template's quality rating fell from `before` to `now`.
 *
 * @example
 * qualityDropped('GREEN', 'YELLOW'); // true
 * qualityDropped('RED', 'YELLOW'); // false
 * qualityDropped('UNKNOWN', 'RED'); // true
 */
export const qualityDropped = (before: string | undefined, now: string | undefined): boolean => rankOf(now) < rankOf(before);

export interface VerdictInput {
  stage: HaltFigures['stage'];
  haltIf: HaltIf;
  counts: HaltCounts;
  qualityDrop: boolean;
  /** Rates are judged only from this many sends on (a quality drop always). */
  minSample: number;
}

/**
 * The verdict: the figures, with the thresholds they went over (a rate strictly above its
 * threshold; `qualityDrop: true` and the rating fell). `halt` when any was exceeded.
 *
 * @example
 * verdictOf({ stage: 'canary', haltIf: { optOutRate: 0.01 }, counts: { sent: 100, optOuts: 3, failures: 0, blocks: 0 }, qualityDrop: false, minSample: 1 });
 * // { halt: true, figures: { stage: 'canary', measured: { optOutRate: 0.03, … }, thresholds: { optOutRate: 0.01 }, exceeded: ['optOutRate'], sent: 100, counts: { optOuts: 3, failures: 0, blocks: 0 } } }
 */
export function verdictOf(input: VerdictInput): { halt: boolean; figures: HaltFigures } {
  const { haltIf, counts } = input;
  const measured = measuredRatesOf(counts, input.qualityDrop);
  const enough = counts.sent > 0 && counts.sent >= input.minSample;
  const exceeded: HaltMeasure[] = [];
  for (const rate of ['optOutRate', 'failureRate', 'blockRate'] as const) {
    const threshold = haltIf[rate];
    if (threshold !== undefined && enough && measured[rate] > threshold) exceeded.push(rate);
  }
  if (haltIf.qualityDrop === true && input.qualityDrop) exceeded.push('qualityDrop');
  const figures: HaltFigures = {
    stage: input.stage,
    measured,
    thresholds: haltIf,
    exceeded,
    sent: counts.sent,
    counts: { optOuts: counts.optOuts, failures: counts.failures, blocks: counts.blocks },
  };
  return { halt: exceeded.length > 0, figures };
}

/**
 * The canary's slice: `count` people, or `percent` of the audience's members at the launch (both:
 * the smaller; neither: 5 %), at least one.
 *
 * @example
 * canarySliceSize({ count: 100, observeMinutes: 30, haltIf }, 200); // 100
 * canarySliceSize({ percent: 5, count: 500, observeMinutes: 30, haltIf }, 4000); // 200
 */
export function canarySliceSize(canary: Pick<Canary, 'percent' | 'count'>, audienceMembers: number): number {
  const percent = canary.percent ?? (canary.count === undefined ? DEFAULT_CANARY_PERCENT : undefined);
  const byPercent = percent === undefined ? Infinity : Math.ceil((Math.max(0, audienceMembers) * percent) / 100);
  return Math.max(1, Math.min(byPercent, canary.count ?? Infinity));
}
