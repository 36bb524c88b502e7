/**
 * What a halt by the canary or the halt thresholds shows (docs/CAMPAIGNS.md "Canary and halt
 * thresholds"): the rates measured beside the thresholds they were held to, and over how many sends.
 * Kept on the job's pause (`pauseHalt` on the job item, `halt` on the pause view, `job.paused` and
 * `campaign.paused`) and in the campaign's canary verdict; one schema for every layer.
 */
import * as v from 'valibot';
import { haltIfSchema } from './send-rules.schema';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));
const share = v.pipe(v.number(), v.minValue(0), v.maxValue(1));

/** The measured rates (shares of `sent`, 0..1) and whether the template's quality dropped. */
export const measuredRatesSchema = v.object({
  optOutRate: share,
  failureRate: share,
  blockRate: share,
  qualityDrop: v.boolean(),
});
export type MeasuredRates = v.InferOutput<typeof measuredRatesSchema>;

/** The threshold names a verdict can exceed, in the order they are reported. */
export const HALT_MEASURES = ['optOutRate', 'failureRate', 'blockRate', 'qualityDrop'] as const;
export type HaltMeasure = (typeof HALT_MEASURES)[number];

/**
 * One verdict's figures. `stage`: `canary` (the first slice, judged once against `canary.haltIf`)
 * or `running` (the campaign's own `haltIf`, watched while it runs). `counts` are the numerators.
 */
export const haltFiguresSchema = v.object({
  stage: v.picklist(['canary', 'running']),
  measured: measuredRatesSchema,
  thresholds: haltIfSchema,
  /** The thresholds the figures went over (empty: within them). */
  exceeded: v.array(v.picklist(HALT_MEASURES)),
  /** Recipients the figures are measured over: sent to Meta (accepted, refused by Meta or with an unknown outcome). */
  sent: count,
  counts: v.object({ optOuts: count, failures: count, blocks: count }),
});
export type HaltFigures = v.InferOutput<typeof haltFiguresSchema>;
