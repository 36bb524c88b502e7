/**
 * What GET /campaigns and GET /campaigns/{campaignId} show of a campaign (docs/CAMPAIGNS.md "States
 * and totals"): its state and totals, derived from the campaign item (its expansion's checkpoint)
 * and its job's state and summary as every job read gives them (`readJobState`,
 * shared/broadcast/get-job-status.ts): one truth with the job's status, recipients and follow-ups.
 *
 * While the expansion is not done the job holds only the members appended so far, so its own state
 * is partial: the campaign never reads finished before its expansion is done.
 */
import { TERMINAL_STATUSES, type BroadcastJob, type JobStatus, type JobSummary } from '../broadcast/broadcast-job';
import { pauseViewOf, readJobState, type JobPauseView, type StatusReading } from '../broadcast/get-job-status';
import type { ChunkProgressStore, JobStore } from '../broadcast/ports';
import { campaignCostOf, type CampaignCost } from '../pricing/campaign-cost';
import type { RateCardSource } from '../pricing/rate-card';
import { INVALID_PARAMETER, MISSING_ATTRIBUTE, OPTED_OUT } from '../sending/failure-reasons';
import type { AudienceSpec } from './audience-filter';
import { outcomeTotalsOf, withCostPerOutcome, type OutcomeSummary } from '../broadcast/outcome-summary';
import { waitingTotalsOf, type WaitingSummary } from '../delivery/waiting-codes';
import { emptyExpansionCounts, type Campaign, type CampaignState } from './campaign';
import { liftOf, type Lift } from '../outcomes/lift';
import type { OutcomeCounts } from '../outcomes/outcome-facts';
import { DEFAULT_ATTRIBUTION_WINDOW_HOURS } from '../outcomes/outcome-facts';
import type { SendRules } from '../send-rules/send-rules.schema';
import { canaryViewOf, type CanaryView } from './canary-progress';

/** Job failure reasons the campaign counts apart from its failures (docs/CAMPAIGNS.md "States and totals"); codes of the reason table. */
const SKIP_REASONS = [MISSING_ATTRIBUTE, INVALID_PARAMETER] as const;

/** The campaign's outcome totals (replied, clicked, buttons, repliedByStop, heldOut): as its job's summary shows them (outcome-summary.ts). */
export interface CampaignTotals extends OutcomeSummary, WaitingSummary {
  /** Members read from the audiences (a person in two audiences counted twice). */
  audience: number;
  /** Members queued to send (after duplicates, exclusions, the filter, opt-outs and missing values). */
  sendable: number;
  /** Queued and not yet sent (held by Meta's template pacing included). */
  queued: number;
  sent: number;
  delivered: number;
  read: number;
  /** Failed on send or by Meta's webhook (the failures by code); opt-outs and skipped members are apart. */
  failed: number;
  /** Outcome unknown (timeouts), confirmed or not. */
  unknown: number;
  /** On the opt-out list at expansion or at send time: never sent. */
  optedOut: number;
  /** Duplicates, excluded, filtered out, missing an attribute or with a value Meta would refuse (skippedByReason). */
  skipped: number;
  /** Never sent because the campaign was cancelled. */
  cancelled: number;
}

export interface SkippedByReason {
  DUPLICATE: number;
  EXCLUDED: number;
  FILTERED_OUT: number;
  MISSING_ATTRIBUTE: number;
  INVALID_PARAMETER: number;
}

export interface CampaignView {
  campaignId: string;
  name: string;
  state: CampaignState;
  fromPhoneNumber: string;
  template: Campaign['template'];
  audience: AudienceSpec;
  totals: CampaignTotals;
  skippedByReason: SkippedByReason;
  failuresByCode: Record<string, number>;
  cost: CampaignCost | null;
  jobId: string | null;
  createdAt: string;
  launchedAt: string | null;
  /** When the campaign began expanding its audiences (a scheduled one: when it fired). */
  startedAt: string | null;
  /** When it reached its final state. */
  finishedAt: string | null;
  scheduledAt?: string;
  /** Only while WAITING_FOR_LIMIT: when Meta's messaging limit frees enough to go on. */
  waitingUntil?: string;
  /** Only while PAUSED, as a job's status shows it. */
  pause?: JobPauseView;
  /** Hours an inbound message without context counts for the campaign (docs/OUTCOMES.md). */
  attributionWindowHours: number;
  /** Only on a campaign with a holdout: the share held out. */
  holdout?: Campaign['holdout'];
  /** Only on a launched campaign with a holdout: its lift over the held-out group (shared/outcomes/lift.ts). */
  lift?: Lift;
  /** Only on a campaign given any: its send window, deferCapped, canary and halt thresholds, as given. */
  sendRules?: SendRules;
  /** Only on a launched campaign with a canary: its state, slice, end of observation and verdict (docs/CAMPAIGNS.md "Canary and halt thresholds"). */
  canary?: CanaryView;
}

/** The job's reading of a launched campaign; absent before the job exists. */
export interface CampaignJobReading {
  job: BroadcastJob;
  status: JobStatus;
  summary: JobSummary;
  /** The latest chunk's doneAt, when any chunk is done. */
  lastDoneAt?: string;
  /** The job's outcomes (replies, the holdout's inbound), for the lift. */
  outcomes?: OutcomeCounts;
}

/** Nothing of the audiences read yet (a launch's first checkpoint, or one waiting for its scheduled time). */
const nothingRead = (campaign: Campaign): boolean => {
  const expansion = campaign.expansion;
  return (
    expansion === undefined ||
    (expansion.status !== 'done' && expansion.counts.members === 0 && expansion.audienceIndex === 0 && expansion.cursor === undefined)
  );
};

/** A scheduled campaign's first checkpoint waits until its time (launch-campaign.ts): that is no wait for the limit. */
const waitsForSchedule = (campaign: Campaign): boolean =>
  campaign.scheduledAt !== undefined &&
  campaign.expansion?.status === 'waiting' &&
  campaign.expansion.waitingUntil !== undefined &&
  Date.parse(campaign.expansion.waitingUntil) === Date.parse(campaign.scheduledAt) &&
  nothingRead(campaign);

/**
 * The state a campaign reads (docs/CAMPAIGNS.md "States and totals").
 *
 * @example
 * campaignStateOf(draft, undefined, now); // 'DRAFT'
 * campaignStateOf({ ...launched, expansion: { ...expansion, status: 'waiting' } }, reading, now); // 'WAITING_FOR_LIMIT'
 */
export function campaignStateOf(campaign: Campaign, reading: CampaignJobReading | undefined, now: Date): CampaignState {
  // A cancel before the launch (campaign-controls.ts): it never sends.
  if (campaign.launchedAt === undefined) return campaign.cancelledAt === undefined ? 'DRAFT' : 'CANCELLED';
  const status = reading?.status;
  const ahead = campaign.scheduledAt !== undefined && Date.parse(campaign.scheduledAt) > now.getTime();
  if (status !== 'CANCELLED' && (status === 'SCHEDULED' || (ahead && nothingRead(campaign)))) return 'SCHEDULED';
  const done = campaign.expansion?.status === 'done';
  if (done && status !== undefined && TERMINAL_STATUSES.has(status)) return status as CampaignState;
  if (status === 'PAUSED') return 'PAUSED';
  if (campaign.expansion?.status === 'waiting' && !waitsForSchedule(campaign)) return 'WAITING_FOR_LIMIT';
  if (nothingRead(campaign) || status === undefined || status === 'QUEUED_FOR_PROCESSING') return 'LAUNCHING';
  return 'SENDING';
}

const reasonCount = (summary: JobSummary | undefined, reason: string): number => summary?.failuresByReason[reason] ?? 0;

/** Totals, skipped members by reason and the failures by code, from the expansion's counts and the job's summary. */
export function campaignTotalsOf(campaign: Campaign, summary: JobSummary | undefined): Pick<CampaignView, 'totals' | 'skippedByReason' | 'failuresByCode'> {
  const counts = campaign.expansion?.counts ?? emptyExpansionCounts();
  const skippedByReason: SkippedByReason = {
    DUPLICATE: counts.duplicates,
    EXCLUDED: counts.excluded,
    FILTERED_OUT: counts.filteredOut,
    MISSING_ATTRIBUTE: reasonCount(summary, MISSING_ATTRIBUTE),
    INVALID_PARAMETER: reasonCount(summary, INVALID_PARAMETER),
  };
  const apart = new Set<string>([OPTED_OUT, ...SKIP_REASONS]);
  const failuresByCode = Object.fromEntries(Object.entries(summary?.failuresByReason ?? {}).filter(([reason, count]) => !apart.has(reason) && count > 0));
  const optedOut = reasonCount(summary, OPTED_OUT);
  const skippedListed = skippedByReason.MISSING_ATTRIBUTE + skippedByReason.INVALID_PARAMETER;
  const totals: CampaignTotals = {
    audience: counts.members,
    sendable: counts.sendable,
    queued: (summary?.pending ?? 0) + (summary?.held ?? 0),
    sent: summary?.sent ?? 0,
    delivered: summary?.delivered ?? 0,
    read: summary?.read ?? 0,
    failed: Math.max(0, (summary?.failed ?? 0) - optedOut - skippedListed),
    unknown: (summary?.unknown ?? 0) + (summary?.unconfirmed ?? 0),
    optedOut,
    skipped: skippedByReason.DUPLICATE + skippedByReason.EXCLUDED + skippedByReason.FILTERED_OUT + skippedListed,
    cancelled: summary?.cancelled ?? 0,
    ...outcomeTotalsOf(summary),
    // Of `queued`, waiting for their send window or a frequency cap (docs/CAMPAIGNS.md "Send windows"): present while any is.
    ...waitingTotalsOf(summary),
  };
  return { totals, skippedByReason, failuresByCode };
}

/** A scheduled campaign starts at its time, any other when launched (its first checkpoint's startedAt). */
function startedAtOf(campaign: Campaign): string | null {
  const started = campaign.expansion?.startedAt ?? campaign.launchedAt ?? null;
  if (campaign.scheduledAt === undefined || started === null) return started;
  const scheduled = new Date(Date.parse(campaign.scheduledAt)).toISOString();
  return scheduled > started ? scheduled : started;
}

const FINAL_STATES: ReadonlySet<CampaignState> = new Set(['COMPLETED', 'COMPLETED_WITH_FAILURES', 'CANCELLED', 'FAILED']);
const latest = (times: ReadonlyArray<string | undefined>): string | null =>
  times.reduce<string | null>((max, time) => (time !== undefined && (max === null || time > max) ? time : max), null);

/**
 * The whole view of a campaign from its item and its job's reading (`cost` computed by the caller).
 *
 * @example
 * campaignViewOf(draft, undefined, null, now).state; // 'DRAFT'
 */
export function campaignViewOf(campaign: Campaign, reading: CampaignJobReading | undefined, cost: CampaignCost | null, now: Date): CampaignView {
  const state = campaignStateOf(campaign, reading, now);
  const running = state !== 'DRAFT' && state !== 'SCHEDULED';
  return {
    campaignId: campaign.campaignId,
    name: campaign.name,
    state,
    fromPhoneNumber: campaign.fromPhoneNumber,
    template: campaign.template,
    audience: campaign.audience,
    ...campaignTotalsOf(campaign, reading?.summary),
    cost,
    jobId: campaign.jobId ?? null,
    createdAt: campaign.createdAt,
    launchedAt: campaign.launchedAt ?? null,
    startedAt: running ? startedAtOf(campaign) : null,
    finishedAt: FINAL_STATES.has(state)
      ? latest([reading?.lastDoneAt, campaign.expansion?.finishedAt, campaign.launchedAt === undefined ? campaign.cancelledAt : undefined])
      : null,
    ...(campaign.scheduledAt === undefined ? {} : { scheduledAt: campaign.scheduledAt }),
    ...(state === 'WAITING_FOR_LIMIT' && campaign.expansion?.waitingUntil !== undefined ? { waitingUntil: campaign.expansion.waitingUntil } : {}),
    ...(reading && state === 'PAUSED' ? pauseViewOf(reading.job, 'PAUSED') : {}),
    ...holdoutViewOf(campaign, reading, cost),
    ...(campaign.sendRules !== undefined && { sendRules: campaign.sendRules }),
    ...canaryFieldOf(campaign),
  };
}

/** The view's `canary` field of a launched campaign with one; nothing otherwise. */
function canaryFieldOf(campaign: Campaign): { canary?: CanaryView } {
  const canary = canaryViewOf(campaign.expansion?.canary);
  return canary === undefined ? {} : { canary };
}

/**
 * The attribution window, and on a campaign with a holdout its share and, once launched, its lift
 * (docs/OUTCOMES.md "Holdout and lift").
 *
 * @example
 * holdoutViewOf({ ...campaign, holdout: { percent: 10 } }, reading, cost); // { attributionWindowHours: 72, holdout: { percent: 10 }, lift: { … } }
 */
export function holdoutViewOf(
  campaign: Campaign,
  reading: CampaignJobReading | undefined,
  cost: CampaignCost | null,
): Pick<CampaignView, 'attributionWindowHours' | 'holdout' | 'lift'> {
  const attributionWindowHours = campaign.attributionWindowHours ?? DEFAULT_ATTRIBUTION_WINDOW_HOURS;
  if (campaign.holdout === undefined) return { attributionWindowHours };
  if (reading?.outcomes === undefined) return { attributionWindowHours, holdout: campaign.holdout };
  return { attributionWindowHours, holdout: campaign.holdout, lift: liftOf(reading.outcomes, reading.summary.sent, cost ?? undefined) };
}

/** What reading a campaign's view takes: the job's store and progress, the rate card for its cost. */
export interface CampaignViewPorts {
  broadcasts: Pick<JobStore, 'getJob'> & ChunkProgressStore;
  rateCards?: RateCardSource;
}

/**
 * Reads a campaign's job (when launched) and derives its view.
 *
 * @example
 * const view = await readCampaignView(ports, campaign, { now: new Date(), unconfirmedAfterMs });
 */
export async function readCampaignView(ports: CampaignViewPorts, campaign: Campaign, statusReading: StatusReading): Promise<CampaignView> {
  const job = campaign.jobId === undefined ? undefined : await ports.broadcasts.getJob(campaign.jobId);
  // A job of another organization never answers for a campaign (ids are never shared; belt and braces).
  if (!job || job.organizationId !== campaign.organizationId) return campaignViewOf(campaign, undefined, null, statusReading.now);
  const { status, summary, chunks, tally, outcomes } = await readJobState(ports.broadcasts, job, statusReading);
  const card = await ports.rateCards?.rateCardOf(campaign.organizationId);
  const priced = (card && campaignCostOf(card, tally)) ?? summary.cost;
  const cost = priced ? withCostPerOutcome(priced, outcomes) : null;
  const lastDoneAt = latest(chunks.map((chunk) => chunk.doneAt)) ?? undefined;
  return campaignViewOf(campaign, { job, status, summary, outcomes, ...(lastDoneAt === null ? {} : { lastDoneAt }) }, cost, statusReading.now);
}
