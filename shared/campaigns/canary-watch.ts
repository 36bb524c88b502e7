/**
 * The campaign expander's watcher (docs/CAMPAIGNS.md "Canary and halt thresholds"). With a canary
 * the expander appends only the slice (`withinCanary` caps its pages), then stops appending and
 * looks again every CANARY_RECHECK_SECONDS (a re-queued expansion message, on the injected clock):
 * once the slice's chunks are all done, it observes for `observeMinutes` from that look
 * (`observeUntil`), then judges the slice against `canary.haltIf` (canary-verdict.ts) and either
 * goes on (`passed`) or halts (canary-halt.ts). The campaign's own `haltIf` is looked at every HALT_CHECK_SECONDS while the campaign runs, over every
 * recipient sent so far (from MIN_HALT_SAMPLE sends on), also after every member was appended until
 * the job finishes. A halt a person resumed is not judged again: the thresholds then measure only
 * what came after it, and the quality drop compares with the rating at the resume.
 */
import { TERMINAL_STATUSES, summarizeJob } from '../broadcast/broadcast-job';
import type { JobControlStore } from '../broadcast/ports';
import type { Canary, HaltIf } from '../send-rules/send-rules.schema';
import { DEFAULT_UNCONFIRMED_AFTER_MS } from '../delivery/recipient-status';
import type { ExpansionProgress } from './campaign';
import { afterHalt, haltCampaign, qualityNow, type WatchPorts, type WatchStep } from './canary-halt';
import { MIN_HALT_SAMPLE, countsSince, haltCountsOf, qualityDropped, verdictOf } from './canary-verdict';
import { advance, type LaunchedCampaign } from './expansion-checkpoint';
import { PAUSED_RECHECK_SECONDS, expansionDelaySeconds } from './expansion-timing';

export type { WatchPorts, WatchStep } from './canary-halt';

/** Defaults of the watcher's looks (settings CANARY_RECHECK_SECONDS and HALT_CHECK_SECONDS). */
export const CANARY_RECHECK_SECONDS = 60;
export const HALT_CHECK_SECONDS = 300;

const recheckSecondsOf = (ports: WatchPorts): number => ports.watchTiming?.recheckSeconds ?? CANARY_RECHECK_SECONDS;
/** Seconds between looks of the running thresholds. */
export const haltCheckSecondsOf = (ports: Pick<WatchPorts, 'watchTiming'>): number => ports.watchTiming?.haltCheckSeconds ?? HALT_CHECK_SECONDS;

/**
 * A page size kept within the canary's slice while it is sent (the people still to queue, at least one).
 *
 * @example
 * withinCanary(1000, { ...expansion, canary: { state: 'sending', slice: 100 }, counts: { ...counts, sendable: 40 } }); // 60
 */
export function withinCanary(pageSize: number, expansion: Pick<ExpansionProgress, 'canary' | 'counts'>): number {
  const canary = expansion.canary;
  if (canary?.state !== 'sending') return pageSize;
  return Math.max(1, Math.min(pageSize, canary.slice - expansion.counts.sendable));
}

/**
 * The checkpoint after a page: the canary turns `observing` once its slice is queued (or the
 * audience ended first); undefined when it goes on as before.
 *
 * @example
 * sliceQueued({ ...moved, canary: { state: 'sending', slice: 100 }, counts: { ...counts, sendable: 100 } }, 1); // { ...moved, canary: { state: 'observing', slice: 100 } }
 */
export function sliceQueued<T extends Pick<ExpansionProgress, 'canary' | 'counts' | 'audienceIndex'>>(moved: T, audiences: number): T | undefined {
  const canary = moved.canary;
  if (canary?.state !== 'sending' || (moved.counts.sendable < canary.slice && moved.audienceIndex < audiences)) return undefined;
  return { ...moved, canary: { ...canary, state: 'observing' } };
}

/**
 * One look before the next page (the job is neither cancelled nor paused): a halt resumed or to set
 * again, the canary's observation, the running thresholds. Undefined: the expansion goes on.
 *
 * @example
 * const step = await watchStep(ports, campaign); // undefined | { stop: 'watching', delaySeconds: 60 } | { stop: 'paused', … }
 */
export async function watchStep(ports: WatchPorts, campaign: LaunchedCampaign): Promise<WatchStep> {
  const rules = campaign.sendRules;
  if (rules?.canary === undefined && rules?.haltIf === undefined) return undefined;
  const watch = campaign.expansion.watch;
  if (watch?.haltedAt !== undefined) {
    const step = await afterHalt(ports, campaign, watch);
    if (step) return step;
  }
  const canary = campaign.expansion.canary;
  if (canary?.state === 'observing' && rules.canary) return observeCanary(ports, campaign, rules.canary);
  if (canary?.state === 'sending' || rules.haltIf === undefined) return undefined;
  return watchRunning(ports, campaign, rules.haltIf);
}

/** The slice settles, is observed, then judged once. */
async function observeCanary(ports: WatchPorts, campaign: LaunchedCampaign, canary: Canary): Promise<WatchStep> {
  const now = ports.clock.now();
  const progress = await ports.broadcasts.getJobProgress(campaign.jobId);
  // While observing, the job holds only the slice's chunks.
  if (progress.chunks.some((chunk) => !chunk.done)) return { stop: 'watching', delaySeconds: recheckSecondsOf(ports) };
  const state = campaign.expansion.canary!;
  let observeUntil = state.observeUntil;
  if (observeUntil === undefined) {
    // From the look that found the slice settled (within CANARY_RECHECK_SECONDS of it), on the expander's clock.
    observeUntil = new Date(now.getTime() + canary.observeMinutes * 60_000).toISOString();
    if (!(await advance(ports, campaign, { ...campaign.expansion, canary: { ...state, observeUntil } }))) return { stop: 'superseded' };
  }
  if (Date.parse(observeUntil) > now.getTime())
    return { stop: 'watching', delaySeconds: Math.max(1, Math.min(recheckSecondsOf(ports), expansionDelaySeconds(observeUntil, now))) };
  const counts = haltCountsOf(progress.tally, progress.outcomes?.optedOut ?? 0);
  const qualityDrop = qualityDropped(campaign.expansion.watch?.quality, await qualityNow(ports, campaign));
  // The slice is the sample the business chose: judged whatever its size.
  const { halt, figures } = verdictOf({ stage: 'canary', haltIf: canary.haltIf, counts, qualityDrop, minSample: 1 });
  if (halt) return haltCampaign(ports, campaign, figures, counts);
  const passed = { ...campaign.expansion.canary!, state: 'passed' as const, verdict: { ...figures, at: now.toISOString() } };
  return (await advance(ports, campaign, { ...campaign.expansion, canary: passed })) ? undefined : { stop: 'superseded' };
}

/** The campaign's own thresholds, every HALT_CHECK_SECONDS, over every recipient sent since the last resumed halt. */
async function watchRunning(ports: WatchPorts, campaign: LaunchedCampaign, haltIf: HaltIf): Promise<WatchStep> {
  const now = ports.clock.now();
  const watch = campaign.expansion.watch ?? {};
  if (watch.checkedAt !== undefined && now.getTime() - Date.parse(watch.checkedAt) < haltCheckSecondsOf(ports) * 1000) return undefined;
  const progress = await ports.broadcasts.getJobProgress(campaign.jobId);
  const counts = haltCountsOf(progress.tally, progress.outcomes?.optedOut ?? 0);
  const qualityDrop = qualityDropped(watch.quality, await qualityNow(ports, campaign));
  const { halt, figures } = verdictOf({ stage: 'running', haltIf, counts: countsSince(counts, watch.baseline), qualityDrop, minSample: MIN_HALT_SAMPLE });
  if (halt) return haltCampaign(ports, campaign, figures, counts);
  return (await advance(ports, campaign, { ...campaign.expansion, watch: { ...watch, checkedAt: now.toISOString() } })) ? undefined : { stop: 'superseded' };
}

/**
 * After every member was appended: the running thresholds keep watching until the job finished
 * (undefined then: the expander closes as before). Paused: looked at again later.
 *
 * @example
 * await watchAfterClose(ports, campaign); // { stop: 'watching', delaySeconds: 300 } | undefined
 */
export async function watchAfterClose(
  ports: WatchPorts & { broadcasts: Pick<JobControlStore, 'readJobControl'> },
  campaign: LaunchedCampaign,
): Promise<WatchStep> {
  if (campaign.sendRules?.haltIf === undefined) return undefined;
  const job = await ports.broadcasts.getJob(campaign.jobId);
  if (!job) return undefined;
  const progress = await ports.broadcasts.getJobProgress(campaign.jobId);
  const { status } = summarizeJob(job, progress.chunks, { codes: progress.tally, now: ports.clock.now(), unconfirmedAfterMs: DEFAULT_UNCONFIRMED_AFTER_MS });
  if (TERMINAL_STATUSES.has(status)) return undefined;
  const control = await ports.broadcasts.readJobControl(campaign.jobId);
  if (!control || control.cancelled) return undefined;
  if (control.pause) return { stop: 'paused', delaySeconds: PAUSED_RECHECK_SECONDS };
  return (await watchStep(ports, campaign)) ?? { stop: 'watching', delaySeconds: haltCheckSecondsOf(ports) };
}
