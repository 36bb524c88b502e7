/**
 * Firing a scheduled job (docs/BROADCAST.md "Scheduling"): at its time the one-time trigger
 * (EventBridge Scheduler on AWS, a timer locally) calls `fireScheduledJob`; every minute (every
 * second locally) `sweepDueJobs` fires any job still in the due index past its time, so a lost or
 * late trigger never leaves a job SCHEDULED.
 *
 * At least once, never twice sent: the trigger and the sweep may both fire a job, and a firing may
 * die between queueing and leaving the due index, so the held messages can be queued twice. That is
 * safe for the same reason a redelivered SQS message is: the chunk worker claims each recipient in
 * the ledger before its send, so a second copy of a chunk finds everyone claimed and sends nothing.
 * The job leaves the due index only after its messages were queued, so a firing that failed
 * part-way is always tried again by the sweep.
 */
import { ORGANIZATION_SUSPENDED_REASON } from './cancel-job';
import type { Clock, JobControlStore, JobStore, OrganizationStanding, OutboundQueue, ScheduledJobStore } from './ports';

export interface FireScheduledJobDependencies {
  scheduledJobs: ScheduledJobStore;
  queue: OutboundQueue;
  clock: Clock;
  /** The job's organization, and its cancellation when that organization is suspended. */
  jobs: JobStore & JobControlStore;
  standing: OrganizationStanding;
}

export type FiringOutcome =
  /** Its held messages were queued now. */
  | 'FIRED'
  /** Cancelled before it fired: nothing queued, taken out of the due index. */
  | 'CANCELLED'
  /** An earlier firing already queued it and left the due index. */
  | 'ALREADY_FIRED'
  | 'NOT_FOUND';

export async function fireScheduledJob(dependencies: FireScheduledJobDependencies, jobId: string): Promise<FiringOutcome> {
  const { scheduledJobs, queue, clock } = dependencies;
  // Suspending an organization cancels its scheduled jobs; one that escaped (recorded in the instant
  // of the suspension, missing from its listing) is cancelled here, so it never fires.
  if (await cancelIfSuspended(dependencies, jobId)) {
    await scheduledJobs.removeFromDueIndex(jobId);
    return 'CANCELLED';
  }
  // Conditional: a job cancelled before any firing is never marked fired, so nothing of it is queued.
  // A job cancelled after a firing began is queued all the same: its workers see the cancellation
  // before their first send and account every recipient as CANCELLED.
  const marked = await scheduledJobs.markFired(jobId, clock.now());
  if (!marked.fired) {
    if (marked.reason === 'CANCELLED') await scheduledJobs.removeFromDueIndex(jobId);
    return marked.reason;
  }
  if (!marked.stillDue) return 'ALREADY_FIRED';
  const messages = await scheduledJobs.heldMessages(jobId);
  if (messages.length > 0) await queue.enqueue(messages);
  await scheduledJobs.removeFromDueIndex(jobId);
  return 'FIRED';
}

/**
 * True when the job's organization is suspended; the job is then cancelled with that reason (a part
 * an earlier firing queued is settled as CANCELLED by its workers, as for any cancelled job).
 */
async function cancelIfSuspended(dependencies: FireScheduledJobDependencies, jobId: string): Promise<boolean> {
  const job = await dependencies.jobs.getJob(jobId);
  if (!job || !(await dependencies.standing.isSuspended(job.organizationId))) return false;
  await dependencies.jobs.cancelJob(jobId, dependencies.clock.now(), ORGANIZATION_SUSPENDED_REASON);
  return true;
}

export interface SweepSettings {
  /** A job is swept once its time is this far past: its own trigger normally fires it first. */
  graceMs: number;
  /** Jobs fired per sweep at most; the next sweep continues. */
  batchSize: number;
}

/** Fires every job still due past its time plus the grace. One job's failure does not stop the others. */
export async function sweepDueJobs(
  dependencies: FireScheduledJobDependencies,
  settings: SweepSettings,
): Promise<{ fired: string[]; failed: Array<{ jobId: string; error: unknown }> }> {
  const until = new Date(dependencies.clock.now().getTime() - settings.graceMs);
  const due = await dependencies.scheduledJobs.dueJobs(until, settings.batchSize);
  const fired: string[] = [];
  const failed: Array<{ jobId: string; error: unknown }> = [];
  for (const jobId of due) {
    try {
      if ((await fireScheduledJob(dependencies, jobId)) === 'FIRED') fired.push(jobId);
    } catch (error) {
      failed.push({ jobId, error });
    }
  }
  return { fired, failed };
}
