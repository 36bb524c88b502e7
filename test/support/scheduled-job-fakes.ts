/** In-memory stand-ins for scheduled broadcasts: the held messages and due index (over the in-memory jobs) and a recording trigger. */
import type { OutboundMessage } from '../../shared/broadcast/chunk-message';
import type { JobFiringScheduler, ScheduledJobStore } from '../../shared/broadcast/ports';
import type { InMemoryBroadcastRepository } from './broadcast-fakes';

/** The ScheduledJobStore contract over the in-memory repository's jobs, so cancellation and firing share one job record. */
export class InMemoryScheduledJobStore implements ScheduledJobStore {
  readonly held = new Map<string, OutboundMessage[]>();
  /** Jobs in the due index: job id → scheduledAt. */
  readonly due = new Map<string, string>();
  /** Set to make the next enqueue-side reads fail (a firing dying part-way). */
  failHeldReads = false;

  constructor(private readonly broadcasts: InMemoryBroadcastRepository) {}

  /** What createJob does on the table: a job recorded with scheduledAt enters the due index. */
  indexJob(jobId: string): void {
    const job = this.broadcasts.jobs.get(jobId);
    if (job?.scheduledAt && !job.firedAt) this.due.set(jobId, job.scheduledAt);
  }

  async holdMessages(jobId: string, messages: readonly OutboundMessage[]): Promise<void> {
    this.held.set(jobId, structuredClone([...messages]));
    this.indexJob(jobId);
  }

  async heldMessages(jobId: string): Promise<OutboundMessage[]> {
    if (this.failHeldReads) throw new Error('store unavailable');
    return structuredClone(this.held.get(jobId) ?? []);
  }

  async markFired(jobId: string, now: Date): ReturnType<ScheduledJobStore['markFired']> {
    const job = this.broadcasts.jobs.get(jobId);
    if (!job?.scheduledAt) return { fired: false, reason: 'NOT_FOUND' };
    if (job.cancelledAt !== undefined && job.firedAt === undefined) return { fired: false, reason: 'CANCELLED' };
    job.firedAt ??= now.toISOString();
    return { fired: true, stillDue: this.due.has(jobId) };
  }

  async removeFromDueIndex(jobId: string): Promise<void> {
    this.due.delete(jobId);
  }

  async dueJobs(until: Date, limit: number): Promise<string[]> {
    return [...this.due]
      .filter(([, at]) => Date.parse(at) <= until.getTime())
      .sort(([, a], [, b]) => a.localeCompare(b))
      .slice(0, limit)
      .map(([jobId]) => jobId);
  }
}

export class RecordingFiringScheduler implements JobFiringScheduler {
  readonly scheduled = new Map<string, Date>();
  readonly cancelled: string[] = [];
  failure?: Error;

  async scheduleFiring(jobId: string, at: Date): Promise<void> {
    if (this.failure) throw this.failure;
    this.scheduled.set(jobId, at);
  }

  async cancelFiring(jobId: string): Promise<void> {
    this.cancelled.push(jobId);
    if (this.failure) throw this.failure;
  }
}
