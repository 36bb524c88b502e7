/** ChunkProgressStore in memory, as DynamoDbChunkProgressStore: live counters, and reconcile that sets exact counts only once every recipient is accounted for. */
import type { ChunkProgressStore, JobProgress, LedgerEntry, ProgressDelta } from '../../../shared/broadcast/ports';
import type { TallyCode } from '../../../shared/delivery/recipient-status';
import { InMemoryBroadcastState } from './in-memory-broadcast-state';
import { countOutcomes } from '../../../shared/outcomes/count-outcomes';

export class InMemoryChunkProgressStore implements ChunkProgressStore {
  constructor(private readonly state: InMemoryBroadcastState) {}

  async markChunkStarted(jobId: string, chunkIndex: number, now: Date): Promise<boolean> {
    this.state.touch('markChunkStarted');
    const chunk = this.state.chunks.get(InMemoryBroadcastState.chunkId(jobId, chunkIndex));
    if (!chunk) return false;
    chunk.startedAt ??= now.toISOString();
    return true;
  }

  async addChunkProgress(jobId: string, chunkIndex: number, delta: ProgressDelta): Promise<void> {
    this.state.touch('addChunkProgress');
    const chunk = this.state.chunkRecord(jobId, chunkIndex);
    chunk.sent += delta.sent;
    chunk.failed += delta.failed;
    chunk.unknown += delta.unknown;
    for (const [reason, count] of Object.entries(delta.failuresByReason)) {
      chunk.failuresByReason[reason] = (chunk.failuresByReason[reason] ?? 0) + count;
    }
  }

  async reconcileChunk(jobId: string, chunkIndex: number, now: Date): Promise<{ done: boolean }> {
    this.state.touch('reconcileChunk');
    const chunk = this.state.chunkRecord(jobId, chunkIndex);
    const entries = this.state.entriesOf(jobId, chunkIndex);
    const count = (status: LedgerEntry['status']) => entries.filter((entry) => entry.status === status).length;
    const sent = count('SENT');
    const failed = count('FAILED');
    const unknown = count('UNKNOWN');
    if (sent + failed + unknown + count('CANCELLED') + count('HELD_OUT') < chunk.recipientCount) return { done: false };
    const failuresByReason: Record<string, number> = {};
    for (const reason of Object.keys(chunk.failuresByReason)) failuresByReason[reason] = 0;
    for (const entry of entries) {
      if (entry.status !== 'FAILED') continue;
      const reason = entry.failureReasonCode ?? 'TEMPLATE_SEND_FAILED';
      failuresByReason[reason] = (failuresByReason[reason] ?? 0) + 1;
    }
    Object.assign(chunk, { sent, failed, unknown, failuresByReason });
    chunk.doneAt ??= now.toISOString();
    return { done: true };
  }

  /**
   * Waiting codes of recipients nothing else is known of (no tally code, no ledger entry), as the
   * adapter's decodeTally reads them. This fake keeps no outcome codes, so a chunk with a waiting
   * recipient is counted from codes alone: tests of summaries with waiting recipients read the adapter.
   */
  private waitingOf(jobId: string, coded: ReadonlySet<number>): Array<[number, TallyCode]> {
    const prefix = `${jobId}#W#`;
    const claimed = new Set([...this.state.ledger].filter(([id]) => id.startsWith(`${jobId}#`)).map(([, entry]) => entry.index));
    return [...this.state.waitingCodes]
      .filter(([id]) => id.startsWith(prefix))
      .map(([id, code]): [number, TallyCode] => [Number(id.slice(prefix.length)), code])
      .filter(([index]) => !coded.has(index) && !claimed.has(index));
  }

  async getJobProgress(jobId: string): Promise<JobProgress> {
    this.state.touch('getJobProgress');
    const prefix = `${jobId}#T#`;
    const tally = [...this.state.tallyCodes.entries()]
      .filter(([id]) => id.startsWith(prefix))
      .map(([id, code]): [number, TallyCode] => [Number(id.slice(prefix.length)), code]);
    tally.push(...this.waitingOf(jobId, new Set(tally.map(([index]) => index))));
    return { chunks: await this.state.getChunkProgress(jobId), tally, outcomes: countOutcomes(tally, this.state.outcomeFacts.outcomesOfJob(jobId)) };
  }
}
