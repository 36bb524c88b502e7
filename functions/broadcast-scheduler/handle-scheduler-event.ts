/**
 * The two invocations of broadcast-scheduler: a one-time schedule's `{ "jobId": … }` fires that
 * job; the sweep rule's scheduled event (EventBridge `Scheduled Event`) fires every job a trigger
 * missed. A firing that throws fails the invocation, so EventBridge Scheduler retries it.
 */
import * as v from 'valibot';
import { fireScheduledJob, sweepDueJobs, type FiringOutcome } from '../../shared/broadcast/fire-scheduled-job';
import { isJobIdShape } from '../../shared/broadcast/job-fan-out';
import type { BroadcastSchedulerDependencies } from './broadcast-scheduler.composition';

const firingEventSchema = v.object({ jobId: v.pipe(v.string(), v.check(isJobIdShape, 'jobId must be a job id')) });

export type SchedulerResult = { jobId: string; outcome: FiringOutcome } | { swept: string[]; failed: string[] };

export async function handleSchedulerEvent(dependencies: BroadcastSchedulerDependencies, event: unknown): Promise<SchedulerResult> {
  const firing = v.safeParse(firingEventSchema, event);
  if (firing.success) return { jobId: firing.output.jobId, outcome: await fireScheduledJob(dependencies, firing.output.jobId) };
  // A schedule's input that is not a job id is a fault to see (the invocation fails), not a sweep.
  if (typeof event === 'object' && event !== null && 'jobId' in event) throw new TypeError(v.summarize(firing.issues));
  const { fired, failed } = await sweepDueJobs(dependencies, dependencies.sweep);
  // The failed ones stay in the due index: the next sweep tries them again.
  return { swept: fired, failed: failed.map((failure) => failure.jobId) };
}
