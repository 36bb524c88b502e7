/**
 * Follows accepted jobs until each reaches a terminal state: polls the status endpoint one job at
 * a time, `pollIntervalMs` apart (the status class allows 30 a minute per key; the client waits out
 * any 429 for its Retry-After), and reports progress as recipients accounted for.
 */
import { TERMINAL_STATUSES, type JobStatus as JobState } from '../../shared/broadcast/broadcast-job';
import type { BroadcastClient, JobStatus } from '../../client/broadcast-client';

export interface FollowOptions {
  pollIntervalMs: number;
  sleep?: (ms: number) => Promise<void>;
  /** Accounted-for recipients over all jobs, after every poll. */
  onProgress?: (accounted: number, total: number, states: string[]) => void;
}

export const isTerminal = (status: string): boolean => TERMINAL_STATUSES.has(status as JobState);

/** Recipients no longer pending (sent, failed, unknown, unconfirmed or cancelled). */
export const accountedFor = (job: JobStatus): number => job.totalRecipients - Number(job.summary?.pending ?? job.totalRecipients);

export async function followJobs(client: Pick<BroadcastClient, 'jobStatus'>, jobIds: readonly string[], options: FollowOptions): Promise<JobStatus[]> {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const latest = new Map<string, JobStatus>();
  const report = () => {
    const jobs = [...latest.values()];
    options.onProgress?.(
      jobs.reduce((sum, job) => sum + accountedFor(job), 0),
      jobs.reduce((sum, job) => sum + job.totalRecipients, 0),
      jobs.map((job) => job.status),
    );
  };
  for (const jobId of jobIds) latest.set(jobId, await client.jobStatus(jobId));
  report();
  for (;;) {
    const open = jobIds.filter((jobId) => !isTerminal(latest.get(jobId)!.status));
    if (open.length === 0) return jobIds.map((jobId) => latest.get(jobId)!);
    for (const jobId of open) {
      await sleep(options.pollIntervalMs);
      latest.set(jobId, await client.jobStatus(jobId));
      report();
    }
  }
}

/** Summary counters shown per job and overall, in this order; absent ones count 0. */
export const summaryFields = ['sent', 'delivered', 'read', 'failed', 'unknown', 'unconfirmed', 'cancelled', 'pending'] as const;

export function formatSummary(jobs: readonly JobStatus[]): string[] {
  const count = (job: JobStatus, field: string) => Number((job.summary as Record<string, unknown> | undefined)?.[field] ?? 0);
  const describe = (summary: (field: string) => number) => summaryFields.map((field) => `${field} ${summary(field)}`).join(', ');
  const lines = jobs.map((job) => {
    const reasons = Object.entries((job.summary as { failuresByReason?: Record<string, number> } | undefined)?.failuresByReason ?? {});
    const reasonText = reasons.length > 0 ? `; failures by reason: ${reasons.map(([reason, n]) => `${reason} ${n}`).join(', ')}` : '';
    return `${job.jobId}  ${job.status}  ${job.totalRecipients} recipients: ${describe((field) => count(job, field))}${reasonText}`;
  });
  const total = jobs.reduce((sum, job) => sum + job.totalRecipients, 0);
  lines.push(
    `overall  ${jobs.length} job${jobs.length === 1 ? '' : 's'}  ${total} recipients: ${describe((field) => jobs.reduce((sum, job) => sum + count(job, field), 0))}`,
  );
  return lines;
}
