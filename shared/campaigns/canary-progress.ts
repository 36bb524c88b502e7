/**
 * Where a campaign's canary and halt thresholds stand (docs/CAMPAIGNS.md "Canary and halt
 * thresholds"), kept in the expander's checkpoint (`expansion.canary`, `expansion.watch`) so every
 * look of the expander, a redelivery or a crash carries on from the same state, and the campaign
 * view shows it. The schema is the stored form (campaign-items.ts decodes the checkpoint with it).
 */
import * as v from 'valibot';
import { haltFiguresSchema, type HaltFigures } from '../send-rules/halt-figures';
import type { SendRules } from '../send-rules/send-rules.schema';
import { canarySliceSize } from './canary-verdict';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const haltCountsSchema = v.object({ sent: count, optOuts: count, failures: count, blocks: count });

/** A verdict as kept: its figures and when it was reached. */
export const canaryVerdictSchema = v.object({ ...haltFiguresSchema.entries, at: v.string() });
export type CanaryVerdict = HaltFigures & { at: string };

/**
 * The canary: `sending` its slice (the expander appends no more than `slice` sendable people),
 * `observing` (nothing more appended: the slice settles, then `observeUntil` is awaited), then
 * `passed` (the rest goes) or `halted` (the job paused; a person's resume lets the rest go).
 */
export const canaryProgressSchema = v.object({
  state: v.picklist(['sending', 'observing', 'passed', 'halted']),
  slice: count,
  /** Once the slice settled (its chunks all done): then plus `observeMinutes`. */
  observeUntil: v.optional(v.string()),
  verdict: v.optional(canaryVerdictSchema),
});
export type CanaryProgress = v.InferOutput<typeof canaryProgressSchema>;

/** The watch over both stages: the template's quality to compare with, the thresholds' last look, a halt not yet resumed. */
export const haltWatchSchema = v.object({
  /** The template's quality rating when watching began (at the launch), or when a person resumed the last halt. */
  quality: v.optional(v.string()),
  /** The running thresholds' last look (they are looked at every HALT_CHECK_SECONDS). */
  checkedAt: v.optional(v.string()),
  /** A halt whose pause is set (or being set): its time, figures and the full counts then. Removed once a person resumed it. */
  haltedAt: v.optional(v.string()),
  halt: v.optional(haltFiguresSchema),
  haltCounts: v.optional(haltCountsSchema),
  /** The counts at the last halt a person resumed: the thresholds measure what came after it. */
  baseline: v.optional(haltCountsSchema),
  /** When a person resumed the last halt. */
  resumedAt: v.optional(v.string()),
});
export type HaltWatch = v.InferOutput<typeof haltWatchSchema>;

/**
 * The canary and watch of a campaign's first checkpoint: nothing without a canary or `haltIf`; the
 * slice from `audienceMembers` (the members of its audiences at the launch, before duplicates,
 * exclusions, the filter and opt-outs), the quality to compare with from the template at the launch.
 *
 * @example
 * firstWatchOf({ canary: { count: 100, observeMinutes: 30, haltIf: { optOutRate: 0.01 } } }, 200, 'GREEN');
 * // { canary: { state: 'sending', slice: 100 }, watch: { quality: 'GREEN' } }
 */
export function firstWatchOf(
  rules: SendRules | undefined,
  audienceMembers: number,
  quality: string | undefined,
): { canary?: CanaryProgress; watch?: HaltWatch } {
  if (rules?.canary === undefined && rules?.haltIf === undefined) return {};
  const watch: HaltWatch = quality === undefined ? {} : { quality };
  if (rules.canary === undefined) return { watch };
  return { canary: { state: 'sending', slice: canarySliceSize(rules.canary, audienceMembers) }, watch };
}

/** The campaign view's `canary`: the state, the slice, and when known the end of the observation and the verdict. */
export interface CanaryView {
  state: CanaryProgress['state'];
  slice: number;
  observeUntil?: string;
  verdict?: CanaryVerdict;
}

/**
 * The view of a checkpoint's canary; undefined without one.
 *
 * @example
 * canaryViewOf({ state: 'observing', slice: 100, observeUntil: '2026-12-02T10:30:00.000Z' }); // the same fields
 */
export function canaryViewOf(canary: CanaryProgress | undefined): CanaryView | undefined {
  if (!canary) return undefined;
  return {
    state: canary.state,
    slice: canary.slice,
    ...(canary.observeUntil !== undefined && { observeUntil: canary.observeUntil }),
    ...(canary.verdict !== undefined && { verdict: canary.verdict }),
  };
}
