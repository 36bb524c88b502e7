/**
 * What every ChunkProgressStore does, as observed through the port (the in-memory fake in
 * test/unit/contracts, the DynamoDB adapter on dynalite in test/integration/contracts; where they
 * disagree, the adapter is the truth): live counters, and reconcile that finishes a chunk only once
 * every recipient is accounted for. The suite is given the stores it sets its jobs up with too.
 */
import type { ChunkProgressStore, JobStore, RecipientLedger } from '../../../shared/broadcast/ports';
import { emptyOutcomeCounts } from '../../../shared/outcomes/outcome-facts';
import type { OutcomeStore } from '../../../shared/outcomes/ports';
import { chunkProgressOf } from '../chunk-progress';
import { freshJobId, job, later, now, outcome } from './broadcast-contract-fixtures';

/** The port under test and the stores its tests set jobs up with. */
type Stores = JobStore & RecipientLedger & ChunkProgressStore;

/** `outcomesOf`: the OutcomeStore writing the same storage (the fake's `outcomeFacts`, DynamoDbOutcomeStore on the same table). */
export function describeChunkProgressStoreContract(
  name: string,
  makeRepository: () => Stores | Promise<Stores>,
  outcomesOf: (repository: Stores) => OutcomeStore,
): void {
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
        {
          chunkIndex: 0,
          recipientCount: 3,
          sent: 1,
          failed: 1,
          unknown: 1,
          failuresByReason: { '131026': 1 },
          started: false,
          done: true,
          doneAt: later.toISOString(),
        },
      ]);
    });

    it('counts a held-out recipient (a campaign holdout, recorded unclaimed) settled: neither sent nor failed', async () => {
      const jobId = freshJobId();
      await repository.createJob(job(jobId, 2, 2), [2]);
      await repository.recordOutcomes(jobId, 0, [outcome(1, 'HELD_OUT')]);
      expect(await repository.reconcileChunk(jobId, 0, later)).toEqual({ done: false });
      await repository.claimRecipient(jobId, 0, 0, '919800000000', now);
      await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT', { messageId: `wamid.${jobId}.0` })]);
      expect(await repository.reconcileChunk(jobId, 0, later)).toEqual({ done: true });
      expect(await chunkProgressOf(repository, jobId)).toEqual([expect.objectContaining({ sent: 1, failed: 0, unknown: 0, done: true })]);
    });

    it('counts the outcome facts of the same tally items with the progress, and lists them by recipient with the chunk', async () => {
      const jobId = freshJobId();
      // 60 recipients in one chunk: two tally items (50 recipients each).
      const listed = Array.from({ length: 60 }, (_, index) => ({ index, countryCode: '91', toPhoneNumber: `98000${String(index).padStart(5, '0')}` }));
      await repository.createJob(job(jobId, 60, 60), [60], listed);
      expect((await repository.getJobProgress(jobId)).outcomes).toEqual(emptyOutcomeCounts());
      const at = (minute: number) => new Date(later.getTime() + minute * 60_000);
      const where = (index: number) => ({ jobId, chunkIndex: 0, index });
      await outcomesOf(repository).recordOutcomes(jobId, [
        { location: where(3), event: { kind: 'reply', at: at(1), via: 'context' } },
        { location: where(3), event: { kind: 'button', at: at(1), index: 0, payload: 'YES' } },
        { location: where(55), event: { kind: 'reply', at: at(2), via: 'last-touch' } },
        { location: where(55), event: { kind: 'button', at: at(2), index: 0, payload: 'YES' } },
        { location: where(55), event: { kind: 'button', at: at(3), index: 1, payload: 'STOP' } },
        { location: where(55), event: { kind: 'opt-out', at: at(3) } },
        { location: where(7), event: { kind: 'click', at: at(4) } },
        { location: where(7), event: { kind: 'click', at: at(5) } },
      ]);
      expect((await repository.getJobProgress(jobId)).outcomes).toEqual({
        replied: 2,
        clicked: 1,
        clicks: 2,
        optedOut: 1,
        buttons: [
          { index: 0, payload: 'YES', taps: 2 },
          { index: 1, payload: 'STOP', taps: 1 },
        ],
        holdout: { heldOut: 0, inbound: 0 },
      });
      const { outcomes } = await repository.readChunkRecipients(jobId, 0);
      expect(outcomes && Object.fromEntries(outcomes)).toEqual({
        3: { repliedAt: at(1).toISOString(), buttonTaps: [{ index: 0, payload: 'YES', at: at(1).toISOString() }] },
        7: { firstClickAt: at(4).toISOString(), clicks: 2 },
        55: {
          repliedAt: at(2).toISOString(),
          buttonTaps: [
            { index: 0, payload: 'YES', at: at(2).toISOString() },
            { index: 1, payload: 'STOP', at: at(3).toISOString() },
          ],
          optedOutAt: at(3).toISOString(),
        },
      });
    });
  });
}
