/**
 * What every ChunkProgressStore does, as observed through the port (the in-memory fake in
 * test/unit/contracts, the DynamoDB adapter on dynalite in test/integration/contracts; where they
 * disagree, the adapter is the truth): live counters, and reconcile that finishes a chunk only once
 * every recipient is accounted for. The suite is given the stores it sets its jobs up with too.
 */
import type { ChunkProgressStore, JobStore, RecipientLedger } from '../../../shared/broadcast/ports';
import { chunkProgressOf } from '../chunk-progress';
import { freshJobId, job, later, now, outcome } from './broadcast-contract-fixtures';

/** The port under test and the stores its tests set jobs up with. */
type Stores = JobStore & RecipientLedger & ChunkProgressStore;

export function describeChunkProgressStoreContract(name: string, makeRepository: () => Stores | Promise<Stores>): void {
  describe(`ChunkProgressStore contract: ${name}`, () => {
    let repository: Stores;
    beforeAll(async () => {
      repository = await makeRepository();
    });

    it('reconcile finishes a chunk only when every recipient is accounted for, with counts from the ledger', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 3, 3), [3]);
      for (const index of [0, 1, 2]) await repository.claimRecipient(jobId, 0, index, `9198000000${index}`, now);
      await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT', { messageId: `wamid.${jobId}.0` }), outcome(1, 'FAILED', { failureReasonCode: '131026' })]);
      // Live progress is approximate (here: over-counted on purpose) until reconcile sets exact counts.
      await repository.addChunkProgress(jobId, 0, { sent: 2, failed: 1, unknown: 0, failuresByReason: { '131026': 1 } });
      expect(await repository.reconcileChunk(jobId, 0, later)).toEqual({ done: false });
      expect(await chunkProgressOf(repository, jobId)).toEqual([expect.objectContaining({ sent: 2, failed: 1, done: false })]);
      await repository.recordOutcomes(jobId, 0, [outcome(2, 'UNKNOWN', { failureReasonCode: 'UNKNOWN_OUTCOME: timeout' })]);
      expect(await repository.reconcileChunk(jobId, 0, later)).toEqual({ done: true });
      expect(await chunkProgressOf(repository, jobId)).toEqual([
        { chunkIndex: 0, recipientCount: 3, sent: 1, failed: 1, unknown: 1, failuresByReason: { '131026': 1 }, started: false, done: true, doneAt: later.toISOString() },
      ]);
    });
  });
}
