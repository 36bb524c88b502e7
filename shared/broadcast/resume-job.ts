/**
 * Resume a broadcast job Meta's refusal of the business account held (docs/BROADCAST.md "When Meta
 * refuses the account"): removes the pause, so the job's held messages send their recipients at
 * their next look (within PAUSE_RECHECK_SECONDS). Every recipient is still sent at most once: the
 * ledger claim decides, and the held recipients were released unsent. The caller may resume
 * exactly the jobs whose status it may read, with the same answers otherwise. A job each refusal
 * held is resumed on its own; when Meta refuses again, the job is held again after its in-flight sends.
 */
import { isHeldUntilResumed } from './account-hold';
import { summarizeJob, type JobSummary } from './broadcast-job';
import { JobNotResumableError } from './errors';
import { readableJob, type StatusReading } from './get-job-status';
import type { ScopedCaller } from './key-scope';
import type { ChunkProgressStore, JobControlStore, JobStore } from './ports';

export interface ResumedJobView {
  jobId: string;
  status: 'PROCESSING';
  summary: JobSummary;
}

/**
 * Removes the hold of a job that reads PAUSED until resumed; JobNotResumableError otherwise (not
 * paused, or paused for its template). A repeat after the job went on answers JobNotResumableError.
 *
 * @example
 * await resumeJob(broadcasts, caller, 'pub_1', { now: new Date(), unconfirmedAfterMs }); // { jobId: 'pub_1', status: 'PROCESSING', summary }
 */
export async function resumeJob(
  broadcasts: JobStore & JobControlStore & ChunkProgressStore,
  caller: ScopedCaller,
  jobId: string,
  reading: StatusReading,
): Promise<ResumedJobView> {
  const job = await readableJob(broadcasts, caller, jobId);
  const progress = await broadcasts.getJobProgress(jobId);
  const { status } = summarizeJob(job, progress.chunks, { codes: progress.tally, ...reading });
  const control = await broadcasts.readJobControl(jobId);
  const pause = control?.pause;
  if (status !== 'PAUSED' || !pause || !isHeldUntilResumed(pause)) throw new JobNotResumableError(jobId, status, status === 'PAUSED');
  await broadcasts.resumeJob(jobId, pause.pausedAt, reading.now);
  const resumed = { ...job };
  for (const key of ['pausedAt', 'pauseReason', 'pauseFailsAt', 'pausedBy', 'pauseCode', 'pauseText', 'pausedByCredentialId', 'pauseHalt'] as const)
    delete resumed[key];
  return { jobId, status: 'PROCESSING', summary: summarizeJob(resumed, progress.chunks, { codes: progress.tally, ...reading }).summary };
}
