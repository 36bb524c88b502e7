/**
 * A person's pause of a broadcast job (docs/BROADCAST.md "Pausing a job"): the same pause Meta's
 * refusal of the account sets (account-hold.ts), `pausedBy: 'user'` with the credential that paused
 * it and no deadline, so only a resume (resume-job.ts) or a cancel ends it. The chunk workers read it
 * at their job-control reads (chunk-worker/job-control.ts): sends under way finish, the rest is held
 * unsent and, after the resume, each remaining recipient is claimed and sent exactly once. A campaign's
 * pause is its job's (shared/campaigns/campaign-controls.ts); the campaign expander stops while its job
 * is held the same way.
 */
import type { CustomerEvent } from '../customer-events/ports';
import { isHeldUntilResumed } from './account-hold';
import { TERMINAL_STATUSES, summarizeJob, type BroadcastJob, type JobSummary } from './broadcast-job';
import { announcePause, pauseView, type JobPauseView } from './pause-events';
import { JobAlreadyFinishedError } from './errors';
import { readableJob, type StatusReading } from './get-job-status';
import type { ScopedCaller } from './key-scope';
import type { ChunkProgressStore, JobControlStore, JobPause, JobStore } from './ports';

/** The pause reason of a person's pause. */
export const USER_PAUSE_REASON = 'PAUSED_BY_USER';

export interface PausedJobView {
  jobId: string;
  status: 'PAUSED';
  pause: JobPauseView;
  summary: JobSummary;
}

export interface PauseJobPorts {
  broadcasts: JobStore & JobControlStore & ChunkProgressStore;
  /** `job.paused` (and `campaign.paused` for a campaign's job); absent: none. */
  events?: { publish(organizationId: string, event: CustomerEvent): Promise<void> };
}

/**
 * Holds the job until resumed. A job already held until resumed (by a person or by Meta's refusal
 * of the account) keeps its pause and answers it (a repeat changes nothing); a person's pause
 * replaces a template pause (it then needs a resume). A scheduled job is held from its firing on.
 * A finished or cancelled job: JobAlreadyFinishedError (409 JOB_ALREADY_FINISHED).
 *
 * @example
 * await pauseJob({ broadcasts, events }, caller, 'pub_1', { now: new Date(), unconfirmedAfterMs });
 * // { jobId: 'pub_1', status: 'PAUSED', pause: { reason: 'PAUSED_BY_USER', since, failsAt: null, pausedBy: 'user', by: 'cred_1' }, summary }
 */
export async function pauseJob(ports: PauseJobPorts, caller: ScopedCaller, jobId: string, reading: StatusReading): Promise<PausedJobView> {
  const job = await readableJob(ports.broadcasts, caller, jobId);
  const progress = await ports.broadcasts.getJobProgress(jobId);
  const tally = { codes: progress.tally, ...reading };
  const { status } = summarizeJob(job, progress.chunks, tally);
  // A cancelled job is settling its rest as CANCELLED: finished as far as a pause goes.
  if (job.cancelledAt !== undefined || TERMINAL_STATUSES.has(status))
    throw new JobAlreadyFinishedError(jobId, job.cancelledAt !== undefined ? 'CANCELLED' : status, 'paused');
  const proposed: JobPause = {
    pausedAt: reading.now.toISOString(),
    reason: USER_PAUSE_REASON,
    pausedBy: 'user',
    ...(caller.credentialId !== undefined ? { by: caller.credentialId } : {}),
  };
  // Held until resumed already (a repeat, or Meta's hold): nothing is written or announced again.
  const heldBefore = job.pausedAt !== undefined && job.pauseFailsAt === undefined;
  const stored = heldBefore ? undefined : await ports.broadcasts.pauseJob(jobId, proposed);
  if (stored && stored.pausedAt === proposed.pausedAt && stored.reason === proposed.reason && isHeldUntilResumed(stored))
    await announcePause(ports, job, stored, reading.now);
  const shown = stored ?? (await ports.broadcasts.readJobControl(jobId))?.pause ?? proposed;
  const paused = { ...job, ...jobPauseAttributes(shown) } as BroadcastJob;
  return { jobId, status: 'PAUSED', pause: pauseView(shown), summary: summarizeJob(paused, progress.chunks, tally).summary };
}

/** The job item's pause attributes of a stored pause (what the status read shows). */
function jobPauseAttributes(
  pause: JobPause,
): Pick<BroadcastJob, 'pausedAt' | 'pauseReason' | 'pauseFailsAt' | 'pausedBy' | 'pausedByCredentialId' | 'pauseHalt'> {
  return {
    pausedAt: pause.pausedAt,
    pauseReason: pause.reason,
    ...(pause.failsAt !== undefined ? { pauseFailsAt: pause.failsAt } : {}),
    ...(pause.pausedBy !== undefined ? { pausedBy: pause.pausedBy } : {}),
    ...(pause.by !== undefined ? { pausedByCredentialId: pause.by } : {}),
    ...(pause.halt !== undefined ? { pauseHalt: pause.halt } : {}),
  };
}
