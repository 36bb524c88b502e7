/**
 * What every JobStore does, as observed through the port (the in-memory fake in
 * test/unit/contracts, the DynamoDB adapter on dynalite in test/integration/contracts; where they
 * disagree, the adapter is the truth): idempotent job creation with its chunks, discarding, the
 * mark of a failed accept, an organization's jobs newest first over pages. The suite is given the stores it sets its jobs up
 * with too.
 */
import type { ChunkProgressStore, JobStore } from '../../../shared/broadcast/ports';
import { chunkProgressOf } from '../chunk-progress';
import { freshJobId, job, now } from './broadcast-contract-fixtures';

/** The port under test and the stores its tests set jobs up with. */
type Stores = JobStore & ChunkProgressStore;

export function describeJobStoreContract(name: string, makeRepository: () => Stores | Promise<Stores>): void {
  describe(`JobStore contract: ${name}`, () => {
    let repository: Stores;
    beforeAll(async () => {
      repository = await makeRepository();
    });

    it('creates a job with its chunks once; a second create keeps the first', async () => {
      const jobId = freshJobId();
      expect(await repository.createJob(job(jobId, 3, 2), [2, 1])).toEqual({ created: true });
      expect(await repository.createJob({ ...job(jobId, 3, 2), broadcastName: 'again' }, [2, 1])).toEqual({ created: false });
      expect(await repository.getJob(jobId)).toEqual(job(jobId, 3, 2));
      expect(await repository.getJob(freshJobId())).toBeUndefined();
      expect(await chunkProgressOf(repository, jobId)).toEqual([
        { chunkIndex: 0, recipientCount: 2, sent: 0, failed: 0, unknown: 0, failuresByReason: {}, started: false, done: false },
        { chunkIndex: 1, recipientCount: 1, sent: 0, failed: 0, unknown: 0, failuresByReason: {}, started: false, done: false },
      ]);
      await repository.markChunkStarted(jobId, 1, now);
      expect((await chunkProgressOf(repository, jobId)).map((chunk) => chunk.started)).toEqual([false, true]);
    });

    it('a discarded job is gone with its chunks; starting one of its chunks answers false and recreates nothing', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 3, 2), [2, 1]);
      expect(await repository.markChunkStarted(jobId, 0, now)).toBe(true);
      await repository.discardJob(jobId);
      expect(await repository.getJob(jobId)).toBeUndefined();
      expect(await repository.markChunkStarted(jobId, 1, now)).toBe(false);
      expect(await repository.markChunkStarted(freshJobId(), 0, now)).toBe(false);
    });

    it('marks a failed accept on the job and clears it; neither creates a job that does not exist', async () => {
      const jobId = freshJobId();
      await repository.createJob({ ...job(jobId, 2, 1), requestHash: 'hash-of-the-body' }, [1, 1]);
      await repository.markAcceptFailed(jobId, now);
      expect(await repository.getJob(jobId)).toEqual({ ...job(jobId, 2, 1), requestHash: 'hash-of-the-body', acceptFailedAt: now.toISOString() });
      await repository.clearAcceptFailed(jobId);
      expect(await repository.getJob(jobId)).toEqual({ ...job(jobId, 2, 1), requestHash: 'hash-of-the-body' });
      // Its chunks are untouched.
      expect((await chunkProgressOf(repository, jobId)).map((chunk) => chunk.recipientCount)).toEqual([1, 1]);

      const absent = freshJobId();
      await repository.markAcceptFailed(absent, now);
      await repository.clearAcceptFailed(absent);
      expect(await repository.getJob(absent)).toBeUndefined();
    });

    it("lists an organization's jobs newest first within from/to, every job exactly once over the pages", async () => {
      const organizationId = `org_${freshJobId()}`;
      const minute = (m: number) => new Date(now.getTime() + m * 60_000).toISOString();
      // Two jobs share a time: paging must still give each once (their mutual order is the index's).
      const created = [0, 1, 2, 2, 3, 4].map((m, position) => ({ ...job(`${freshJobId()}p${position}`, 1, 1), organizationId, createdAt: minute(m) }));
      for (const item of created) await repository.createJob(item, [1]);
      await repository.createJob({ ...job(freshJobId(), 1, 1), organizationId: `${organizationId}_other`, createdAt: minute(3) }, [1]);

      const seen: Array<{ jobId: string; createdAt: string }> = [];
      let page = await repository.listJobsOfOrganization(organizationId, { limit: 4 });
      seen.push(...page.jobs);
      while (page.next) {
        page = await repository.listJobsOfOrganization(organizationId, { limit: 4, after: page.next });
        seen.push(...page.jobs);
      }
      expect(seen.map((item) => item.jobId).sort()).toEqual(created.map((item) => item.jobId).sort());
      expect(seen.map((item) => item.createdAt)).toEqual(created.map((item) => item.createdAt).reverse());

      const ranged = await repository.listJobsOfOrganization(organizationId, { from: minute(1), to: minute(3), limit: 10 });
      expect(ranged.jobs.map((item) => item.createdAt)).toEqual([minute(3), minute(2), minute(2), minute(1)]);
      expect(ranged.next).toBeUndefined();
      expect((await repository.listJobsOfOrganization(organizationId, { from: minute(4), limit: 10 })).jobs.map((item) => item.jobId)).toEqual([
        created[5]!.jobId,
      ]);
      expect((await repository.listJobsOfOrganization(organizationId, { to: minute(0), limit: 10 })).jobs.map((item) => item.jobId)).toEqual([
        created[0]!.jobId,
      ]);
    });

    it('appends chunks to an open-ended job once each, raising its totals, and closes it with exact totals', async () => {
      const jobId = freshJobId();
      const open = { ...job(jobId, 0, 4), campaignId: 'cmp_contract', expansion: 'open' as const };
      await repository.createJob(open, []);
      const listed = (first: number, count: number) =>
        Array.from({ length: count }, (_, offset) => ({ index: first + offset, countryCode: '91', toPhoneNumber: `98000000${first + offset}` }));
      await repository.appendChunks(jobId, 0, [3], listed(0, 3));
      await repository.appendChunks(jobId, 1, [2], listed(4, 2));
      // A redelivered page: nothing is created or counted twice, progress is kept, totalChunks never lowers.
      await repository.markChunkStarted(jobId, 0, now);
      await repository.appendChunks(jobId, 0, [3], listed(0, 3));
      expect(await repository.getJob(jobId)).toEqual({ ...open, totalRecipients: 5, totalChunks: 2 });
      expect((await chunkProgressOf(repository, jobId)).map((chunk) => [chunk.chunkIndex, chunk.recipientCount, chunk.started])).toEqual([
        [0, 3, true],
        [1, 2, false],
      ]);
      await repository.closeExpansion(jobId, { totalRecipients: 5, totalChunks: 2 });
      expect(await repository.getJob(jobId)).toEqual({ ...open, totalRecipients: 5, totalChunks: 2, expansion: 'done' });

      const absent = freshJobId();
      await repository.appendChunks(absent, 0, [1], listed(0, 1));
      await repository.closeExpansion(absent, { totalRecipients: 1, totalChunks: 1 });
      expect(await repository.getJob(absent)).toBeUndefined();
    });
  });
}
