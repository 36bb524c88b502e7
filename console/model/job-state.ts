import type { JobStatus, JobSummary } from './api-types';

const FINISHED: ReadonlySet<JobStatus> = new Set(['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED', 'CANCELLED']);

/**
 * Whether the job will change no more by itself: the console stops refreshing it. A finished job's
 * delivery facts still arrive (delivered, read, failed by webhook), so its page offers a refresh button.
 *
 * @example
 * isFinished('PROCESSING'); // false
 */
export const isFinished = (status: JobStatus): boolean => FINISHED.has(status);

/** Recipients settled so far, of the total: what the progress bar shows. */
export function progressOf(summary: JobSummary, totalRecipients: number): { settled: number; percent: number } {
  const settled = Math.max(0, totalRecipients - summary.pending - (summary.held ?? 0));
  return { settled, percent: totalRecipients === 0 ? 100 : Math.round((settled / totalRecipients) * 100) };
}

/** The words of a job state, the API's value beside them (docs/BROADCAST.md "Status"). */
export const statusLabels: Record<JobStatus, string> = {
  SCHEDULED: 'Scheduled',
  QUEUED_FOR_PROCESSING: 'Queued',
  PROCESSING: 'Sending',
  PAUSED: 'Paused',
  COMPLETED: 'Completed',
  COMPLETED_WITH_FAILURES: 'Completed with failures',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

/**
 * The note beside a job whose state does not say all: failures Meta reported after the send (the
 * job's state is what the sends earned, docs/BROADCAST.md "Status"), shown as the API gives them.
 *
 * @example
 * stateNoteOf('COMPLETED', { failed: 2 } as JobSummary); // '2 failed after sending (reported by Meta)'
 */
export function stateNoteOf(status: JobStatus, summary: JobSummary): string | undefined {
  if (status === 'COMPLETED' && summary.failed > 0) return `${summary.failed} failed after sending (reported by Meta)`;
  return undefined;
}
