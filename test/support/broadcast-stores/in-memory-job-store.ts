/** JobStore in memory, as DynamoDbJobStore: put-if-absent job and chunks; discarding removes every record of the job. */
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import type { JobListPage, JobListPosition, JobListQuery, JobRecipient, JobStore } from '../../../shared/broadcast/ports';
import { InMemoryBroadcastState, copy } from './in-memory-broadcast-state';

export class InMemoryJobStore implements JobStore {
  constructor(private readonly state: InMemoryBroadcastState) {}

  async createJob(job: BroadcastJob, chunkSizes: readonly number[], recipients: readonly JobRecipient[] = []): Promise<{ created: boolean }> {
    const { state } = this;
    state.touch('createJob');
    const created = !state.jobs.has(job.jobId);
    if (created) state.jobs.set(job.jobId, copy(job));
    for (const recipient of recipients) {
      const id = InMemoryBroadcastState.chunkId(job.jobId, Math.floor(recipient.index / job.chunkSize));
      if (created || !state.listedRecipients.has(id)) state.listedRecipients.set(id, [...(state.listedRecipients.get(id) ?? []), copy(recipient)]);
    }
    chunkSizes.forEach((recipientCount, chunkIndex) => {
      const id = InMemoryBroadcastState.chunkId(job.jobId, chunkIndex);
      if (!state.chunks.has(id)) state.chunks.set(id, { recipientCount, sent: 0, failed: 0, unknown: 0, failuresByReason: {} });
    });
    return { created };
  }

  async appendChunks(jobId: string, firstChunkIndex: number, chunkSizes: readonly number[], listedRecipients: readonly JobRecipient[]): Promise<void> {
    const { state } = this;
    state.touch('appendChunks');
    const job = state.jobs.get(jobId);
    if (!job) return;
    for (const recipient of listedRecipients) {
      const id = InMemoryBroadcastState.chunkId(jobId, Math.floor(recipient.index / job.chunkSize));
      if (!state.chunks.has(id) && !state.listedRecipients.has(id)) state.listedRecipients.set(id, []);
    }
    for (const recipient of listedRecipients) {
      const id = InMemoryBroadcastState.chunkId(jobId, Math.floor(recipient.index / job.chunkSize));
      if (!state.chunks.has(id)) state.listedRecipients.get(id)!.push(copy(recipient));
    }
    chunkSizes.forEach((recipientCount, offset) => {
      const id = InMemoryBroadcastState.chunkId(jobId, firstChunkIndex + offset);
      if (state.chunks.has(id)) return;
      state.chunks.set(id, { recipientCount, sent: 0, failed: 0, unknown: 0, failuresByReason: {} });
      job.totalRecipients += recipientCount;
    });
    job.totalChunks = Math.max(job.totalChunks, firstChunkIndex + chunkSizes.length);
  }

  async closeExpansion(jobId: string, totals: { totalRecipients: number; totalChunks: number; stopped?: boolean }): Promise<void> {
    this.state.touch('closeExpansion');
    const job = this.state.jobs.get(jobId);
    if (!job || job.kind !== 'template') return;
    Object.assign(job, { totalRecipients: totals.totalRecipients, totalChunks: totals.totalChunks, expansion: totals.stopped ? 'stopped' : 'done' });
  }

  async discardJob(jobId: string): Promise<void> {
    const { state } = this;
    state.touch('discardJob');
    for (const store of [state.chunks, state.ledger, state.listedRecipients, state.tallyCodes, state.waitingCodes, state.deliveryFacts]) {
      for (const id of [...store.keys()]) if (id.startsWith(`${jobId}#`)) store.delete(id);
    }
    state.jobs.delete(jobId);
  }

  async markAcceptFailed(jobId: string, at: Date): Promise<void> {
    this.state.touch('markAcceptFailed');
    const job = this.state.jobs.get(jobId);
    if (job) job.acceptFailedAt = at.toISOString();
  }

  async clearAcceptFailed(jobId: string): Promise<void> {
    this.state.touch('clearAcceptFailed');
    delete this.state.jobs.get(jobId)?.acceptFailedAt;
  }

  async getJob(jobId: string): Promise<BroadcastJob | undefined> {
    this.state.touch('getJob');
    const job = this.state.jobs.get(jobId);
    return job && copy(job);
  }

  async listJobsOfOrganization(organizationId: string, query: JobListQuery): Promise<JobListPage> {
    this.state.touch('listJobsOfOrganization');
    const newestFirst = (a: JobListPosition, b: JobListPosition) =>
      a.createdAt === b.createdAt ? (a.jobId < b.jobId ? 1 : a.jobId > b.jobId ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1;
    const matching = [...this.state.jobs.values()]
      .filter((job) => job.organizationId === organizationId)
      .filter((job) => (query.from === undefined || job.createdAt >= query.from) && (query.to === undefined || job.createdAt <= query.to))
      .filter((job) => query.after === undefined || newestFirst(query.after, job) < 0)
      .sort(newestFirst);
    const jobs = matching.slice(0, query.limit).map((job) => copy(job));
    const last = jobs.at(-1);
    return matching.length > query.limit && last ? { jobs, next: { createdAt: last.createdAt, jobId: last.jobId } } : { jobs };
  }
}
