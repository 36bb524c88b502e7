import { ChunkOutcomes } from '../../../shared/broadcast/chunk-outcomes';
import type { LedgerEntry, ProgressDelta } from '../../../shared/broadcast/ports';

const START = new Date('2026-12-04T09:00:00.000Z');

/** A ledger that keeps each write's indexes and each progress write's count of sent outcomes. */
function recordingLedger() {
  const batches: number[][] = [];
  const progressSent: number[] = [];
  const ledger = {
    recordOutcomes: async (_jobId: string, _chunkIndex: number, entries: readonly LedgerEntry[]) => {
      batches.push(entries.map((entry) => entry.index));
    },
    addChunkProgress: async (_jobId: string, _chunkIndex: number, delta: ProgressDelta) => {
      progressSent.push(delta.sent);
    },
  };
  return { batches, progressSent, ledger: ledger as never };
}

const sent = (index: number): LedgerEntry => ({
  index,
  to: `4477009${String(index).padStart(5, '0')}`,
  status: 'SENT',
  attempts: 1,
  updatedAt: START.toISOString(),
});

describe('ChunkOutcomes: outcome groups written whole', () => {
  it('holds back every group a due flush holds in part for one flush, then writes what it has of it', async () => {
    const { batches, progressSent, ledger } = recordingLedger();
    const outcomes = new ChunkOutcomes(
      ledger,
      { jobId: 'pub_1', chunkIndex: 0 },
      { outcomeBatchSize: 10, flushIntervalMs: 60_000, ledgerPageSize: 8 },
      { now: () => START },
    );
    // Lanes finish out of order: 5 is still in flight when the first flush is due.
    for (const index of [0, 1, 2, 3, 4, 6, 7, 8, 9, 10]) outcomes.record(sent(index));
    for (const index of [5, 11, 12, 13, 14, 15, 16, 17, 18, 19]) outcomes.record(sent(index));
    for (const index of [20, 21, 22, 23, 25, 26, 27, 28, 29, 30]) outcomes.record(sent(index));
    // 24 and 31 never come (another writer's): their group goes out in part at the flush after it was held.
    for (let index = 32; index < 42; index += 1) outcomes.record(sent(index));
    await outcomes.flush();
    expect(batches).toEqual([
      [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 5, 11, 12, 13, 14, 15],
      [16, 17, 18, 19, 20, 21, 22, 23],
      [25, 26, 27, 28, 29, 30, 32, 33, 34, 35, 36, 37, 38, 39],
      [40, 41],
    ]);
    // The live counters count only what was written before them.
    expect(progressSent).toEqual(batches.map((batch) => batch.length));
    expect(outcomes.report.sent).toBe(40);
  });

  it('writes every outcome as it comes without a group size', async () => {
    const { batches, ledger } = recordingLedger();
    const outcomes = new ChunkOutcomes(ledger, { jobId: 'pub_1', chunkIndex: 0 }, { outcomeBatchSize: 3, flushIntervalMs: 60_000 }, { now: () => START });
    for (const index of [2, 0, 1, 5]) outcomes.record(sent(index));
    await outcomes.flush();
    expect(batches).toEqual([[2, 0, 1], [5]]);
  });
});
