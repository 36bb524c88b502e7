/**
 * Cancel a broadcast job (docs/BROADCAST.md "Cancelling"). Marks the job with `cancelledAt` once
 * (a repeat changes nothing and answers the same); the chunk workers see the mark before their
 * next send and account every recipient not yet claimed as CANCELLED (chunk-worker/process-outbound-chunk.ts).
 * The caller may cancel exactly the jobs whose status it may read, with the same answers otherwise.
 *
 * The answer acknowledges the cancel (200, `CANCELLED`, the account at that moment); the job's final
 * state says what it did: `CANCELLED` when it withheld at least one recipient, else (it came after
 * the last recipient was claimed, or raced the last chunk's settling) the state the sends earned,
 * with `cancelRequestedAt` (broadcast-job.ts, docs/BROADCAST.md "Cancelling").
 */
import { TERMINAL_STATUSES, isAwaitingFiring, summarizeJob, type JobSummary } from './broadcast-job';
import { JobAlreadyFinishedError, JobNotFoundError } from './errors';
import { readableJob, type StatusReading } from './get-job-status';
import type { ScopedCaller } from './key-scope';
import type { ChunkProgressStore, JobControlStore, JobFiringScheduler, JobListPosition, JobStore } from './ports';

export interface CancelledJobView {
  jobId: string;
  status: 'CANCELLED';
  summary: JobSummary;
}

/**
 * `scheduling.firings`: a scheduled job's trigger is removed too, best effort: if that fails (or
 * races the trigger), the firing finds the job cancelled and queues nothing (fire-scheduled-job.ts).
 * Read only for a job awaiting its firing, so cancelling other jobs never builds the scheduler.
 */
export async function cancelJob(
  broadcasts: JobStore & JobControlStore & ChunkProgressStore,
  caller: ScopedCaller,
  jobId: string,
  reading: StatusReading,
  scheduling?: { readonly firings: JobFiringScheduler },
  reason?: string,
): Promise<CancelledJobView> {
  let job = await readableJob(broadcasts, caller, jobId);
  const progress = await broadcasts.getJobProgress(jobId);
  const tally = { codes: progress.tally, ...reading };
  const { status } = summarizeJob(job, progress.chunks, tally);
  // Finished: nothing left to stop. A repeat on a job an earlier, late cancel left COMPLETED (it
  // withheld nobody) says so too, rather than contradict its final state.
  if (TERMINAL_STATUSES.has(status) && status !== 'CANCELLED') throw new JobAlreadyFinishedError(jobId, status);
  if (job.cancelledAt === undefined) {
    const cancelledAt = await broadcasts.cancelJob(jobId, reading.now, reason);
    if (cancelledAt === undefined) throw new JobNotFoundError(jobId);
    job = { ...job, cancelledAt };
  }
  if (scheduling && isAwaitingFiring(job))
    await Promise.resolve()
      .then(() => scheduling.firings.cancelFiring(jobId))
      .catch(() => undefined);
  return { jobId, status: 'CANCELLED', summary: summarizeJob(job, progress.chunks, tally).summary };
}

/** Why a job was cancelled when its organization was suspended (the job's `cancelReason`). */
export const ORGANIZATION_SUSPENDED_REASON = 'ORGANIZATION_SUSPENDED';

export interface OrganizationJobsCancellation {
  /** Jobs this call cancelled, with the account at that moment (the rest settles within seconds). */
  cancelled: CancelledJobView[];
  /** Jobs already cancelled before (by the business or an earlier pass): left as they are. */
  alreadyCancelled: number;
  /** Jobs whose chunks were all done: nothing to stop. */
  finished: number;
  /** Jobs accepted after `acceptedBy`: not this call's to cancel, left as they are. */
  acceptedLater: number;
}

const organizationJobsPage = 100;

/**
 * Cancels every job of the organization that is not finished (queued, running, paused, scheduled)
 * through `cancelJob`, recording `reason`: the workers stop at their next job-control read and
 * account every recipient not yet sent as CANCELLED, a scheduled job never fires. Reads the
 * organization's job index (eventually consistent on AWS: a job recorded in the last moment may be
 * missing, so the operator's command passes again after a while). With `acceptedBy`, a job accepted
 * (`createdAt`) after that instant is left alone and counted in `acceptedLater`: a suspension's pass
 * never cancels a job its organization accepted after a resume (organization-suspension.ts).
 *
 * @example
 * const { cancelled } = await cancelJobsOfOrganization(broadcasts, 'org_1', { now: new Date(), unconfirmedAfterMs }, 'ORGANIZATION_SUSPENDED');
 */
export async function cancelJobsOfOrganization(
  broadcasts: JobStore & JobControlStore & ChunkProgressStore,
  organizationId: string,
  reading: StatusReading,
  reason: string,
  scheduling?: { readonly firings: JobFiringScheduler },
  acceptedBy?: Date,
): Promise<OrganizationJobsCancellation> {
  const result: OrganizationJobsCancellation = { cancelled: [], alreadyCancelled: 0, finished: 0, acceptedLater: 0 };
  const operator: ScopedCaller = { organizationId };
  let after: JobListPosition | undefined;
  do {
    const page = await broadcasts.listJobsOfOrganization(organizationId, { limit: organizationJobsPage, ...(after ? { after } : {}) });
    for (const job of page.jobs) {
      if (acceptedBy && Date.parse(job.createdAt) > acceptedBy.getTime()) {
        result.acceptedLater += 1;
        continue;
      }
      if (job.cancelledAt !== undefined) {
        result.alreadyCancelled += 1;
        continue;
      }
      try {
        result.cancelled.push(await cancelJob(broadcasts, operator, job.jobId, reading, scheduling, reason));
      } catch (error) {
        if (!(error instanceof JobAlreadyFinishedError)) throw error;
        result.finished += 1;
      }
    }
    after = page.next;
  } while (after);
  return result;
}
