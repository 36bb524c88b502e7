/**
 * What every RecipientLedger does, as observed through the port (the in-memory fake in
 * test/unit/contracts, the DynamoDB adapter on dynalite in test/integration/contracts; where they
 * disagree, the adapter is the truth): first-claim-wins entries, stale SENDING → UNKNOWN only from
 * SENDING, lookup by message id. The suite is given the stores it sets its jobs up with too.
 */
import type { ChunkProgressStore, JobStore, RecipientLedger } from '../../../shared/broadcast/ports';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { freshJobId, job, later, now, outcome } from './broadcast-contract-fixtures';

/** The port under test and the stores its tests set jobs up with. */
type Stores = JobStore & RecipientLedger & Pick<ChunkProgressStore, 'getJobProgress'>;

export function describeRecipientLedgerContract(name: string, makeRepository: () => Stores | Promise<Stores>): void {
  describe(`RecipientLedger contract: ${name}`, () => {
    let repository: Stores;
    beforeAll(async () => {
      repository = await makeRepository();
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

    it('keeps which API carried a sent message (sentVia) with the entry, and nothing for one sent through Cloud API', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 2, 2), [2]);
      await repository.claimRecipient(jobId, 0, 0, '919800000000', now);
      await repository.claimRecipient(jobId, 0, 1, '919800000001', now);
      const marketing = outcome(0, 'SENT', { messageId: `wamid.${jobId}.0`, sentVia: 'marketing_messages' });
      const cloud = outcome(1, 'SENT', { messageId: `wamid.${jobId}.1` });
      await repository.recordOutcomes(jobId, 0, [marketing, cloud]);
      const entries = (await repository.readChunkRecipients(jobId, 0)).ledger.map((record) => record.entry).sort((a, b) => a.index - b.index);
      expect(entries).toEqual([marketing, cloud]);
      expect(entries[1]).not.toHaveProperty('sentVia');
    });

    it('a flush of many recipients’ outcomes reads back whole and leaves another claimer’s entry among them as it was', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 60, 60), [60]);
      const to = (index: number) => `9198000000${index}`;
      expect(await repository.claimRecipient(jobId, 0, 20, to(20), now)).toEqual({ claimed: true });
      const ours = Array.from({ length: 51 }, (_, index) => index).filter((index) => index !== 20);
      const claimed = await repository.claimRecipients(
        jobId,
        0,
        ours.map((index) => ({ index, to: to(index) })),
        now,
      );
      expect(claimed.every((result) => result.claimed)).toBe(true);
      const outcomes = ours.map((index) =>
        index % 7 === 3 ? outcome(index, 'FAILED', { failureReasonCode: '131026' }) : outcome(index, 'SENT', { messageId: `wamid.${jobId}.${index}` }),
      );
      await repository.recordOutcomes(jobId, 0, outcomes);
      const entries = (await repository.readChunkRecipients(jobId, 0)).ledger.map((record) => record.entry).sort((a, b) => a.index - b.index);
      expect(entries.filter((entry) => entry.index !== 20)).toEqual(outcomes);
      expect(entries.find((entry) => entry.index === 20)).toMatchObject({ status: 'SENDING', to: to(20) });
      expect(await repository.findByMessageId(`wamid.${jobId}.48`)).toEqual({ jobId, chunkIndex: 0, entry: outcomes.find((entry) => entry.index === 48) });
    });

    it('reads a waiting recipient as its latest hold until an outcome is recorded', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 3, 3), [3]);
      const codeOf = async (index: number) => (await repository.getJobProgress(jobId)).tally.find(([at]) => at === index)?.[1];
      await repository.recordWaiting(jobId, [
        { index: 0, code: tallyCodes.waitingForWindow(later) },
        { index: 2, code: tallyCodes.waitingForCap(later) },
      ]);
      expect(await codeOf(0)).toBe(tallyCodes.waitingForWindow(later));
      expect(await codeOf(2)).toBe(tallyCodes.waitingForCap(later));
      const next = new Date(later.getTime() + 86_400_000);
      await repository.recordWaiting(jobId, [{ index: 0, code: tallyCodes.waitingForWindow(next) }]);
      expect(await codeOf(0)).toBe(tallyCodes.waitingForWindow(next));
      await repository.claimRecipient(jobId, 0, 0, '919800000000', later);
      await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT', { messageId: `wamid.${jobId}.0` })]);
      expect(String(await codeOf(0))).not.toMatch(/^0A/);
      expect(await codeOf(1)).toBeUndefined();
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
  });
}
