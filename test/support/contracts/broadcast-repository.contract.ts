/**
 * What every BroadcastRepository does, as observed through the port (fake InMemoryBroadcastRepository,
 * adapter DynamoDbBroadcastRepository): idempotent job creation, first-claim-wins ledger entries,
 * stale SENDING → UNKNOWN only from SENDING, lookup by message id, and reconcile that finishes a
 * chunk only once every recipient is accounted for. Kept to the port; the job fixture is built
 * in one place (`job`) so a change of the job's shape touches one function.
 */
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import type { BroadcastRepository, LedgerEntry } from '../../../shared/broadcast/ports';

let sequence = 0;
const freshJobId = () => `pub_contract${process.pid}x${Date.now().toString(36)}x${(sequence += 1)}`;
const now = new Date('2026-05-04T08:00:00.000Z');
const later = new Date('2026-05-04T08:05:00.000Z');

const job = (jobId: string, totalRecipients: number, chunkSize: number): Extract<BroadcastJob, { kind: 'template' }> => ({
  kind: 'template',
  jobId,
  organizationId: 'org_contract',
  broadcastName: 'contract',
  exposed: true,
  wabaId: 'waba_1',
  phoneNumberId: 'pn_1',
  fromPhoneNumber: '15550001111',
  template: { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' },
  totalRecipients,
  totalChunks: Math.ceil(totalRecipients / chunkSize),
  chunkSize,
  createdAt: now.toISOString(),
});

const outcome = (index: number, status: LedgerEntry['status'], extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  index,
  to: `9198000000${index}`,
  status,
  attempts: 1,
  updatedAt: later.toISOString(),
  ...extra,
});

export function describeBroadcastRepositoryContract(name: string, makeRepository: () => BroadcastRepository | Promise<BroadcastRepository>): void {
  describe(`BroadcastRepository contract: ${name}`, () => {
    let repository: BroadcastRepository;
    beforeAll(async () => {
      repository = await makeRepository();
    });

    it('creates a job with its chunks once; a second create keeps the first', async () => {
      const jobId = freshJobId();
      expect(await repository.createJob(job(jobId, 3, 2), [2, 1])).toEqual({ created: true });
      expect(await repository.createJob({ ...job(jobId, 3, 2), broadcastName: 'again' }, [2, 1])).toEqual({ created: false });
      expect(await repository.getJob(jobId)).toEqual(job(jobId, 3, 2));
      expect(await repository.getJob(freshJobId())).toBeUndefined();
      expect(await repository.getChunkProgress(jobId)).toEqual([
        { chunkIndex: 0, recipientCount: 2, sent: 0, failed: 0, unknown: 0, failuresByReason: {}, started: false, done: false },
        { chunkIndex: 1, recipientCount: 1, sent: 0, failed: 0, unknown: 0, failuresByReason: {}, started: false, done: false },
      ]);
      await repository.markChunkStarted(jobId, 1, now);
      expect((await repository.getChunkProgress(jobId)).map((chunk) => chunk.started)).toEqual([false, true]);
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

    it('the first claim of a recipient wins; later claims see the entry; outcomes are found by message id', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 2, 2), [2]);
      expect(await repository.claimRecipient(jobId, 0, 0, '919800000000', now)).toEqual({ claimed: true });
      expect(await repository.claimRecipient(jobId, 0, 0, '919800000000', later)).toEqual({
        claimed: false,
        existing: expect.objectContaining({ index: 0, to: '919800000000', status: 'SENDING' }),
      });
      const messageId = `wamid.${jobId}`;
      await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT', { messageId })]);
      expect(await repository.claimRecipient(jobId, 0, 0, '919800000000', later)).toEqual({ claimed: false, existing: outcome(0, 'SENT', { messageId }) });
      expect(await repository.findByMessageId(messageId)).toEqual({ jobId, chunkIndex: 0, entry: outcome(0, 'SENT', { messageId }) });
      expect(await repository.findByMessageId(`wamid.none.${jobId}`)).toBeUndefined();
    });

    it('marks an entry UNKNOWN only while it is still SENDING', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 2, 2), [2]);
      await repository.claimRecipient(jobId, 0, 0, '919800000000', now);
      await repository.claimRecipient(jobId, 0, 1, '919800000001', now);
      await repository.recordOutcomes(jobId, 0, [outcome(1, 'SENT', { messageId: `wamid.${jobId}.1` })]);
      expect(await repository.markStaleAsUnknown(jobId, 0, 0, later)).toBe(true);
      expect(await repository.markStaleAsUnknown(jobId, 0, 0, later)).toBe(false);
      expect(await repository.markStaleAsUnknown(jobId, 0, 1, later)).toBe(false);
      expect(await repository.markStaleAsUnknown(jobId, 0, 7, later)).toBe(false);
      const stale = await repository.claimRecipient(jobId, 0, 0, '919800000000', later);
      expect(stale).toEqual({ claimed: false, existing: expect.objectContaining({ index: 0, status: 'UNKNOWN' }) });
    });

    it('reconcile finishes a chunk only when every recipient is accounted for, with counts from the ledger', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 3, 3), [3]);
      for (const index of [0, 1, 2]) await repository.claimRecipient(jobId, 0, index, `9198000000${index}`, now);
      await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT', { messageId: `wamid.${jobId}.0` }), outcome(1, 'FAILED', { failureReasonCode: '131026' })]);
      // Live progress is approximate (here: over-counted on purpose) until reconcile sets exact counts.
      await repository.addChunkProgress(jobId, 0, { sent: 2, failed: 1, unknown: 0, failuresByReason: { '131026': 1 } });
      expect(await repository.reconcileChunk(jobId, 0, later)).toEqual({ done: false });
      expect(await repository.getChunkProgress(jobId)).toEqual([expect.objectContaining({ sent: 2, failed: 1, done: false })]);
      await repository.recordOutcomes(jobId, 0, [outcome(2, 'UNKNOWN', { failureReasonCode: 'UNKNOWN_OUTCOME: timeout' })]);
      expect(await repository.reconcileChunk(jobId, 0, later)).toEqual({ done: true });
      expect(await repository.getChunkProgress(jobId)).toEqual([
        { chunkIndex: 0, recipientCount: 3, sent: 1, failed: 1, unknown: 1, failuresByReason: { '131026': 1 }, started: false, done: true, doneAt: later.toISOString() },
      ]);
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
      expect((await repository.listJobsOfOrganization(organizationId, { from: minute(4), limit: 10 })).jobs.map((item) => item.jobId)).toEqual([created[5]!.jobId]);
      expect((await repository.listJobsOfOrganization(organizationId, { to: minute(0), limit: 10 })).jobs.map((item) => item.jobId)).toEqual([created[0]!.jobId]);
    });
  });
}
