import { summarizeJob, type JobStatus, type JobSummary } from './broadcast-job';
import { JobNotFoundError, JobOfAnotherOrganizationError } from './errors';
import type { BroadcastRepository } from './ports';

export interface JobStatusView {
  jobId: string;
  status: JobStatus;
  totalRecipients: number;
  totalChunks: number;
  summary: JobSummary;
}

export async function getJobStatus(
  broadcasts: BroadcastRepository,
  organizationId: string,
  jobId: string,
): Promise<JobStatusView> {
  const job = await broadcasts.getJob(jobId);
  if (!job) throw new JobNotFoundError(jobId);
  if (job.organizationId !== organizationId) throw new JobOfAnotherOrganizationError();
  const { status, summary } = summarizeJob(job, await broadcasts.getChunkProgress(jobId));
  return { jobId, status, totalRecipients: job.totalRecipients, totalChunks: job.totalChunks, summary };
}
