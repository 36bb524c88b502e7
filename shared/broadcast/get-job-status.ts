import { campaignCostOf } from '../pricing/campaign-cost';
import type { RateCardSource } from '../pricing/rate-card';
import { summarizeJob, type BroadcastJob, type ChunkProgress, type JobStatus, type JobSummary } from './broadcast-job';
import { JobNotFoundError, JobOfAnotherOrganizationError } from './errors';
import { isJobInScope, requireOperationInScope, type ScopedCaller } from './key-scope';
import type { ChunkProgressStore, JobStore } from './ports';
import { DEFAULT_UNCONFIRMED_AFTER_MS } from '../delivery/recipient-status';
import { IDEMPOTENCY_WINDOW_HOURS } from './ports';
import type { SentVia } from './marketing-messages-route';
import { pauseView, type JobPauseView } from './account-hold';
import { emptyOutcomeCounts, type OutcomeCounts } from '../outcomes/outcome-facts';
import { withCostPerOutcome } from './outcome-summary';
import { liftOf } from '../outcomes/lift';

/**
 * The route a job was given at accept: only template broadcasts of a MARKETING template can have
 * the Marketing Messages API; every other job, and every job before it, went through Cloud API.
 *
 * @example
 * routeOf({ ...job, kind: 'template', template: { ...template, api: 'marketing_messages' } }); // 'marketing_messages'
 * routeOf(freeformJob); // 'cloud_api'
 */
export const routeOf = (job: BroadcastJob): SentVia =>
  job.kind !== 'freeform' && job.template.api === 'marketing_messages' ? 'marketing_messages' : 'cloud_api';

type ChunkProgressTally = Awaited<ReturnType<ChunkProgressStore['getJobProgress']>>['tally'];

export interface JobStatusView {
  jobId: string;
  status: JobStatus;
  totalRecipients: number;
  totalChunks: number;
  summary: JobSummary;
  /**
   * The API the job's messages go through, decided at accept (docs/BROADCAST.md "Marketing Messages
   * API"): `marketing_messages` (recipients it refused for the template went through Cloud API:
   * the recipients list's `sentVia` says which) or `cloud_api`.
   */
  route: SentVia;
  /** Only while the job reads PAUSED (docs/BROADCAST.md "When Meta pauses a template"). */
  pause?: JobPauseView;
  /** Only when a cancel was requested and the job does not read CANCELLED: still settling, or the cancel withheld nobody (docs/BROADCAST.md "Cancelling"). */
  cancelRequestedAt?: string;
  /** Only on a job whose queueing failed part-way (docs/BROADCAST.md "Accepting a job"). */
  acceptFailure?: AcceptFailureView;
  /** Only on a follow-up: its parent job (docs/BROADCAST.md "Follow-ups"). */
  followUpOf?: string;
}

/**
 * The `followUpOf` field of a follow-up; nothing otherwise, so no other answer changes.
 *
 * @example
 * followUpViewOf({ ...job, followUpOf: 'pub_1' }); // { followUpOf: 'pub_1' }
 */
export const followUpViewOf = (job: BroadcastJob): { followUpOf: string } | Record<string, never> =>
  job.kind === 'template' && job.followUpOf !== undefined ? { followUpOf: job.followUpOf } : {};

/**
 * A job whose queueing failed after it had started: some of its recipients may never have been
 * queued and stay pending until a retry with the same Idempotency-Key queues them, or the job is
 * cancelled (its pending recipients then count as cancelled).
 */
export interface AcceptFailureView {
  failedAt: string;
  /** The end of the key's window; null when no retry can resume the job (accepted without a key, or cancelled). */
  retryUntil: string | null;
}

/**
 * The `acceptFailure` field of a job whose accept failed; nothing otherwise, so no other answer changes.
 *
 * @example
 * acceptFailureViewOf({ ...job, acceptFailedAt: '2026-03-01T09:00:02.000Z', requestHash: 'h' });
 * // { acceptFailure: { failedAt: '2026-03-01T09:00:02.000Z', retryUntil: '2026-03-03T09:00:00.000Z' } } for a job created at 09:00
 */
export function acceptFailureViewOf(job: BroadcastJob): { acceptFailure: AcceptFailureView } | Record<string, never> {
  if (job.acceptFailedAt === undefined) return {};
  const resumable = job.requestHash !== undefined && job.cancelledAt === undefined;
  const retryUntil = resumable ? new Date(Date.parse(job.createdAt) + IDEMPOTENCY_WINDOW_HOURS * 3_600_000).toISOString() : null;
  return { acceptFailure: { failedAt: job.acceptFailedAt, retryUntil } };
}

export type { JobPauseView } from './account-hold';

/**
 * The `pause` field of a job that reads PAUSED; nothing otherwise, so no other answer changes.
 * `failsAt` null: held until resumed (docs/BROADCAST.md "When Meta refuses the account").
 */
export function pauseViewOf(job: BroadcastJob, status: JobStatus): { pause: JobPauseView } | Record<string, never> {
  if (status !== 'PAUSED' || job.pausedAt === undefined) return {};
  return {
    pause: pauseView({
      pausedAt: job.pausedAt,
      reason: job.pauseReason ?? 'TEMPLATE_PAUSED',
      ...(job.pauseFailsAt !== undefined ? { failsAt: job.pauseFailsAt } : {}),
      ...(job.pausedBy !== undefined ? { pausedBy: job.pausedBy } : {}),
      ...(job.pauseCode !== undefined ? { code: job.pauseCode } : {}),
      ...(job.pauseText !== undefined ? { text: job.pauseText } : {}),
      ...(job.pausedByCredentialId !== undefined ? { by: job.pausedByCredentialId } : {}),
      ...(job.pauseHalt !== undefined ? { halt: job.pauseHalt } : {}),
    }),
  };
}

/**
 * `cancelRequestedAt` of a cancelled job that does not read CANCELLED: while its workers stop, and
 * for good when the cancel came too late to withhold anyone (the job reads the state its sends
 * earned). Nothing otherwise, so no other answer changes.
 *
 * @example
 * cancelViewOf({ ...job, cancelledAt: '2026-03-01T09:00:05.000Z' }, 'COMPLETED'); // { cancelRequestedAt: '2026-03-01T09:00:05.000Z' }
 * cancelViewOf({ ...job, cancelledAt: '2026-03-01T09:00:05.000Z' }, 'CANCELLED'); // {}
 */
export function cancelViewOf(job: BroadcastJob, status: JobStatus): { cancelRequestedAt: string } | Record<string, never> {
  return job.cancelledAt === undefined || status === 'CANCELLED' ? {} : { cancelRequestedAt: job.cancelledAt };
}

/** When a status is read, and after how long an unknown outcome no event resolved reads UNCONFIRMED. */
export interface StatusReading {
  now: Date;
  unconfirmedAfterMs: number;
}

const readingNow = (): StatusReading => ({ now: new Date(), unconfirmedAfterMs: DEFAULT_UNCONFIRMED_AFTER_MS });

/**
 * The job a caller may read, or the answer that says why not. A job of another organization is
 * the contract's 401; a job of the caller's organization outside the key's scope (another sender
 * of a bound key, or not created by a key minted by generate-key) is answered as if it did not
 * exist (404), so a narrowed key learns nothing about the others. Every read of a job (status,
 * recipients) goes through here.
 */
export async function readableJob(broadcasts: JobStore, caller: ScopedCaller, jobId: string): Promise<BroadcastJob> {
  requireOperationInScope(caller, 'read-job-status');
  const job = await broadcasts.getJob(jobId);
  if (!job) throw new JobNotFoundError(jobId);
  if (job.organizationId !== caller.organizationId) throw new JobOfAnotherOrganizationError();
  if (!isJobInScope(caller, job)) throw new JobNotFoundError(jobId);
  return job;
}

export async function getJobStatus(
  broadcasts: JobStore & ChunkProgressStore,
  caller: ScopedCaller,
  jobId: string,
  reading: StatusReading = readingNow(),
  rateCards?: RateCardSource,
): Promise<JobStatusView> {
  const job = await readableJob(broadcasts, caller, jobId);
  const { status, summary, tally, outcomes } = await readJobState(broadcasts, job, reading);
  const card = await rateCards?.rateCardOf(job.organizationId);
  const cost = card && campaignCostOf(card, tally);
  if (cost) summary.cost = withCostPerOutcome(cost, outcomes);
  // A campaign's holdout (docs/OUTCOMES.md "Holdout and lift"): its held-out recipients make the lift.
  if (outcomes.holdout.heldOut > 0) summary.lift = liftOf(outcomes, summary.sent, summary.cost);
  return {
    jobId,
    status,
    totalRecipients: job.totalRecipients,
    totalChunks: job.totalChunks,
    summary,
    route: routeOf(job),
    ...pauseViewOf(job, status),
    ...cancelViewOf(job, status),
    ...acceptFailureViewOf(job),
    ...followUpViewOf(job),
  };
}

/** A job's state and summary as every read shows them (status, the broadcasts list), with the chunks they came from. */
export async function readJobState(
  broadcasts: ChunkProgressStore,
  job: BroadcastJob,
  reading: StatusReading,
): Promise<{ status: JobStatus; summary: JobSummary; chunks: ChunkProgress[]; tally: ChunkProgressTally; outcomes: OutcomeCounts }> {
  const progress = await broadcasts.getJobProgress(job.jobId);
  // A store that counts no outcomes (a stand-in of a test) reads as none.
  const outcomes = progress.outcomes ?? emptyOutcomeCounts();
  return { ...summarizeJob(job, progress.chunks, { codes: progress.tally, outcomes, ...reading }), chunks: progress.chunks, tally: progress.tally, outcomes };
}
