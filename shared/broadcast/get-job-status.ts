import { summarizeJob, type JobStatus, type JobSummary } from './broadcast-job';
import { JobNotFoundError, JobOfAnotherOrganizationError } from './errors';
import { isJobInScope, requireOperationInScope, type ScopedCaller } from './key-scope';
import type { BroadcastRepository } from './ports';

export interface JobStatusView {
  jobId: string;
  status: JobStatus;
  totalRecipients: number;
  totalChunks: number;
  summary: JobSummary;
}

/**
 * A job of another organization is the contract's 401; a job of the caller's organization outside
 * the key's scope (another sender of a bound key, or not created by a key minted by generate-key)
 * is answered as if it did not exist (404), so a narrowed key learns nothing about the others.
 */
export async function getJobStatus(broadcasts: BroadcastRepository, caller: ScopedCaller, jobId: string): Promise<JobStatusView> {
  requireOperationInScope(caller, 'read-job-status');
  const job = await broadcasts.getJob(jobId);
  if (!job) throw new JobNotFoundError(jobId);
  if (job.organizationId !== caller.organizationId) throw new JobOfAnotherOrganizationError();
  if (!isJobInScope(caller, job)) throw new JobNotFoundError(jobId);
  const { status, summary } = summarizeJob(job, await broadcasts.getChunkProgress(jobId));
  return { jobId, status, totalRecipients: job.totalRecipients, totalChunks: job.totalChunks, summary };
}
