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
import type { ChunkProgressStore, JobControlStore, JobFiringScheduler, JobStore } from './ports';

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
): Promise<CancelledJobView> {
  let job = await readableJob(broadcasts, caller, jobId);
  const progress = await broadcasts.getJobProgress(jobId);
  const tally = { codes: progress.tally, ...reading };
  const { status } = summarizeJob(job, progress.chunks, tally);
  // Finished: nothing left to stop. A repeat on a job an earlier, late cancel left COMPLETED (it
  // withheld nobody) says so too, rather than contradict its final state.
  if (TERMINAL_STATUSES.has(status) && status !== 'CANCELLED') throw new JobAlreadyFinishedError(jobId, status);
  if (job.cancelledAt === undefined) {
    const cancelledAt = await broadcasts.cancelJob(jobId, reading.now);
    if (cancelledAt === undefined) throw new JobNotFoundError(jobId);
    job = { ...job, cancelledAt };
  }
  if (scheduling && isAwaitingFiring(job)) await Promise.resolve().then(() => scheduling.firings.cancelFiring(jobId)).catch(() => undefined);
  return { jobId, status: 'CANCELLED', summary: summarizeJob(job, progress.chunks, tally).summary };
}
