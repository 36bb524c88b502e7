/** JobControlStore in memory, as DynamoDbJobControlStore: the first cancellation and the first pause stay; a resume removes only its own pause. */
import type { JobControl, JobControlStore, JobPause } from '../../../shared/broadcast/ports';
import type { InMemoryBroadcastState } from './in-memory-broadcast-state';

export class InMemoryJobControlStore implements JobControlStore {
  constructor(private readonly state: InMemoryBroadcastState) {}

  async cancelJob(jobId: string, now: Date, reason?: string): Promise<string | undefined> {
    this.state.touch('cancelJob');
    const job = this.state.jobs.get(jobId);
    if (!job) return undefined;
    job.cancelledAt ??= now.toISOString();
    if (reason !== undefined) job.cancelReason ??= reason;
    return job.cancelledAt;
  }

  async readJobControl(jobId: string): Promise<JobControl | undefined> {
    this.state.touch('readJobControl');
    const job = this.state.jobs.get(jobId);
    if (!job) return undefined;
    const pause = job.pausedAt !== undefined ? { pausedAt: job.pausedAt, reason: job.pauseReason ?? '', failsAt: job.pauseFailsAt ?? '' } : undefined;
    return { cancelled: job.cancelledAt !== undefined, createdAt: job.createdAt, ...(pause ? { pause } : {}) };
  }

  async pauseJob(jobId: string, pause: JobPause): Promise<JobPause | undefined> {
    this.state.touch('pauseJob');
    const job = this.state.jobs.get(jobId);
    if (!job) return undefined;
    job.pausedAt ??= pause.pausedAt;
    job.pauseReason ??= pause.reason;
    job.pauseFailsAt ??= pause.failsAt;
    return { pausedAt: job.pausedAt, reason: job.pauseReason, failsAt: job.pauseFailsAt };
  }

  async resumeJob(jobId: string, pausedAt: string): Promise<boolean> {
    this.state.touch('resumeJob');
    const job = this.state.jobs.get(jobId);
    if (job?.pausedAt !== pausedAt) return false;
    delete job.pausedAt;
    delete job.pauseReason;
    delete job.pauseFailsAt;
    return true;
  }
}
