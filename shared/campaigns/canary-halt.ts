/**
 * A halt by the canary or the halt thresholds (docs/CAMPAIGNS.md "Canary and halt thresholds"): the
 * checkpoint records it first (`watch.haltedAt`, the figures; the canary `halted` with its verdict),
 * then the campaign's job is paused with the one pause a person's pause uses (`pausedBy: 'canary'`,
 * reason CANARY_HALTED, the figures as `halt`) and `job.paused` + `campaign.paused` are announced.
 * A look that finds the halt recorded but the job not paused either finds a person's resume after
 * it (the job's `resumedAt`: the thresholds then measure only what comes after the halt) or a
 * pause a crash never set (it is set now, with the same time, so the events are the same).
 */
import { announcePause, type PauseEventPorts } from '../broadcast/pause-events';
import type { ChunkProgressStore, Clock, JobControlStore, JobPause, JobStore } from '../broadcast/ports';
import { TemplateNotApprovedError } from '../broadcast/errors';
import type { HaltFigures } from '../send-rules/halt-figures';
import { campaignTemplateOf, type CampaignTemplatePorts } from './campaign-template';
import type { CanaryProgress, HaltWatch } from './canary-progress';
import type { HaltCounts } from './canary-verdict';
import { advance, type CheckpointPorts, type LaunchedCampaign } from './expansion-checkpoint';
import { PAUSED_RECHECK_SECONDS } from './expansion-timing';

/** The pause reason of a halt by the canary or the halt thresholds. */
export const CANARY_HALT_REASON = 'CANARY_HALTED';

export interface WatchPorts extends CampaignTemplatePorts, CheckpointPorts, PauseEventPorts {
  broadcasts: Pick<JobStore, 'getJob'> & Pick<JobControlStore, 'pauseJob'> & Pick<ChunkProgressStore, 'getJobProgress'>;
  clock: Clock;
  /** The watcher's looks (seconds): `recheckSeconds` while a canary's slice settles and is observed (CANARY_RECHECK_SECONDS, default 60), `haltCheckSeconds` between looks of the running thresholds (HALT_CHECK_SECONDS, default 300). */
  watchTiming?: { recheckSeconds?: number; haltCheckSeconds?: number };
}

/** What a look of the watcher decides: go on (undefined) or stop this invocation (re-queued after `delaySeconds`, unless superseded). */
export type WatchStep = { stop: 'watching' | 'paused' | 'superseded'; delaySeconds?: number } | undefined;

/**
 * The template's quality rating now (the catalog overlays Meta's quality events); undefined when Meta
 * gives none, or the template is not sendable (Meta's own pause holds the job then).
 *
 * @example
 * await qualityNow(ports, campaign); // 'GREEN'
 */
export async function qualityNow(ports: CampaignTemplatePorts, campaign: LaunchedCampaign): Promise<string | undefined> {
  try {
    return (await campaignTemplateOf(ports, campaign)).template.quality_score?.score;
  } catch (error) {
    if (error instanceof TemplateNotApprovedError) return undefined;
    throw error;
  }
}

/**
 * Records the halt in the checkpoint, then pauses the job and announces it.
 *
 * @example
 * await haltCampaign(ports, campaign, figures, counts); // { stop: 'paused', delaySeconds: 300 }
 */
export async function haltCampaign(ports: WatchPorts, campaign: LaunchedCampaign, figures: HaltFigures, counts: HaltCounts): Promise<WatchStep> {
  const at = ports.clock.now().toISOString();
  const { expansion } = campaign;
  const canary: CanaryProgress | undefined =
    figures.stage === 'canary' && expansion.canary ? { ...expansion.canary, state: 'halted', verdict: { ...figures, at } } : expansion.canary;
  const watch: HaltWatch = { ...expansion.watch, haltedAt: at, halt: figures, haltCounts: counts, checkedAt: at };
  const saved = await advance(ports, campaign, { ...expansion, ...(canary && { canary }), watch });
  if (!saved) return { stop: 'superseded' };
  return pauseForHalt(ports, campaign, watch);
}

/** Sets the halt's pause (its time is the halt's: a repeat is the same pause and the same events) and announces it when this call set it. */
async function pauseForHalt(ports: WatchPorts, campaign: LaunchedCampaign, watch: HaltWatch): Promise<WatchStep> {
  const pause: JobPause = { pausedAt: watch.haltedAt!, reason: CANARY_HALT_REASON, pausedBy: 'canary', ...(watch.halt && { halt: watch.halt }) };
  const stored = await ports.broadcasts.pauseJob(campaign.jobId, pause);
  if (stored && stored.pausedAt === pause.pausedAt && stored.reason === pause.reason) {
    const job = await ports.broadcasts.getJob(campaign.jobId);
    if (job) await announcePause(ports, job, stored, ports.clock.now());
  }
  return { stop: 'paused', delaySeconds: PAUSED_RECHECK_SECONDS };
}

/**
 * A halt recorded whose job is not paused now: resumed by a person after it (the watch then measures
 * from the halt's counts and compares the quality with today's), else paused again.
 *
 * @example
 * await afterHalt(ports, campaign, campaign.expansion.watch!); // undefined (resumed: go on) | { stop: 'paused', … }
 */
export async function afterHalt(ports: WatchPorts, campaign: LaunchedCampaign, watch: HaltWatch): Promise<WatchStep> {
  const job = await ports.broadcasts.getJob(campaign.jobId);
  if (job?.resumedAt === undefined || job.resumedAt < watch.haltedAt!) return pauseForHalt(ports, campaign, watch);
  const quality = await qualityNow(ports, campaign);
  const { haltedAt: _haltedAt, halt: _halt, haltCounts, ...rest } = watch;
  const next: HaltWatch = {
    ...rest,
    ...(quality !== undefined && { quality }),
    ...(haltCounts !== undefined && { baseline: haltCounts }),
    resumedAt: job.resumedAt,
    checkedAt: ports.clock.now().toISOString(),
  };
  return (await advance(ports, campaign, { ...campaign.expansion, watch: next })) ? undefined : { stop: 'superseded' };
}
