/**
 * A broadcast job and how its state is derived from its chunks.
 *
 * States (documented in docs/BROADCAST.md):
 *   QUEUED_FOR_PROCESSING → PROCESSING → COMPLETED | COMPLETED_WITH_FAILURES | FAILED
 * The 202 answer says PROCESSING (the contract's word for an accepted job); a status read
 * before any worker has started says QUEUED_FOR_PROCESSING.
 */

export type JobStatus = 'QUEUED_FOR_PROCESSING' | 'PROCESSING' | 'COMPLETED' | 'COMPLETED_WITH_FAILURES' | 'FAILED';

export const TERMINAL_STATUSES: ReadonlySet<JobStatus> = new Set(['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED']);

export const CHUNK_SIZE = 1000;
/** Above this many recipients a broadcast is a pollable job; at or below it, a queued bulk send. */
export const SYNCHRONOUS_THRESHOLD = 1000;

export interface BroadcastJob {
  jobId: string;
  organizationId: string;
  broadcastName: string;
  /** Jobs of more than 1,000 recipients are returned to the client; smaller ones are kept for reporting. */
  exposed: boolean;
  wabaId: string;
  phoneNumberId: string;
  fromPhoneNumber: string;
  /** The credential that accepted the job (absent on jobs recorded before it was kept): scopes status reads of minted keys. */
  createdByCredentialId?: string;
  template: { name: string; language: string; category: string; id: string };
  totalRecipients: number;
  totalChunks: number;
  chunkSize: number;
  createdAt: string;
}

export interface ChunkProgress {
  chunkIndex: number;
  recipientCount: number;
  sent: number;
  failed: number;
  unknown: number;
  failuresByReason: Record<string, number>;
  started: boolean;
  done: boolean;
}

export interface JobSummary {
  sent: number;
  failed: number;
  /** Sends whose outcome is unknown (timeout, 502): not retried, to be reconciled with delivery events. */
  unknown: number;
  pending: number;
  chunksDone: number;
  chunksTotal: number;
  failuresByReason: Record<string, number>;
}

export function summarizeJob(job: BroadcastJob, chunks: readonly ChunkProgress[]): { status: JobStatus; summary: JobSummary } {
  const summary: JobSummary = {
    sent: 0,
    failed: 0,
    unknown: 0,
    pending: 0,
    chunksDone: 0,
    chunksTotal: job.totalChunks,
    failuresByReason: {},
  };
  let anyStarted = false;
  for (const chunk of chunks) {
    summary.sent += chunk.sent;
    summary.failed += chunk.failed;
    summary.unknown += chunk.unknown;
    if (chunk.done) summary.chunksDone += 1;
    anyStarted ||= chunk.started;
    for (const [reason, count] of Object.entries(chunk.failuresByReason)) {
      summary.failuresByReason[reason] = (summary.failuresByReason[reason] ?? 0) + count;
    }
  }
  summary.pending = Math.max(0, job.totalRecipients - summary.sent - summary.failed - summary.unknown);

  let status: JobStatus;
  if (summary.chunksDone >= job.totalChunks) {
    status = summary.sent === job.totalRecipients ? 'COMPLETED' : summary.sent === 0 ? 'FAILED' : 'COMPLETED_WITH_FAILURES';
  } else {
    status = anyStarted ? 'PROCESSING' : 'QUEUED_FOR_PROCESSING';
  }
  return { status, summary };
}
