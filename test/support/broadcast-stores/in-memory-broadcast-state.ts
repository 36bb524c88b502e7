/**
 * The records the in-memory broadcast stores share (one job's item, chunks and ledger are read and
 * written by several stores, as on the messaging table), with what tests inspect and inject:
 * call counts, failures, ledger entries, chunk records.
 */
import type { BroadcastJob, ChunkProgress } from '../../../shared/broadcast/broadcast-job';
import type { ChunkProgressStore, JobControlStore, JobRecipient, JobStore, LedgerEntry, RecipientLedger } from '../../../shared/broadcast/ports';
import type { DeliveryFacts, TallyCode } from '../../../shared/delivery/recipient-status';
import { InMemoryOutcomeStore } from '../in-memory-outcome-store';

export const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export interface ChunkRecord {
  recipientCount: number;
  sent: number;
  failed: number;
  unknown: number;
  failuresByReason: Record<string, number>;
  startedAt?: string;
  doneAt?: string;
}

/** A method of any broadcast store. */
export type StoreMethod = keyof (JobStore & JobControlStore & RecipientLedger & ChunkProgressStore);

export class InMemoryBroadcastState {
  readonly jobs = new Map<string, BroadcastJob>();
  readonly chunks = new Map<string, ChunkRecord>();
  readonly ledger = new Map<string, LedgerEntry>();
  /** Read side: recipients as accepted (`<jobId>#<chunk>`), tally codes (`<jobId>#T#<index>`) and Meta's facts (ledger ids). */
  readonly listedRecipients = new Map<string, JobRecipient[]>();
  readonly tallyCodes = new Map<string, TallyCode>();
  /** Recipients held unclaimed (`<jobId>#W#<index>` -> `0A:`/`0B:` code), as recordWaiting writes them. */
  readonly waitingCodes = new Map<string, TallyCode>();
  readonly deliveryFacts = new Map<string, DeliveryFacts>();
  /**
   * The outcome facts on the job's tally items, as DynamoDbOutcomeStore writes them beside the codes:
   * hand it to a use case as its OutcomeStore, and getJobProgress and readChunkRecipients read them.
   */
  readonly outcomeFacts = new InMemoryOutcomeStore();
  readonly calls = new Map<StoreMethod, number>();
  /** Decides, per call, whether the call fails (return the error to throw). */
  failWhen?: (method: StoreMethod, callNumber: number) => Error | undefined;

  /** Counts a store call and throws the failure `failWhen` chooses for it. */
  touch(method: StoreMethod): void {
    const callNumber = (this.calls.get(method) ?? 0) + 1;
    this.calls.set(method, callNumber);
    const error = this.failWhen?.(method, callNumber);
    if (error) throw error;
  }

  static chunkId = (jobId: string, chunkIndex: number) => `${jobId}#${chunkIndex}`;
  static ledgerId = (jobId: string, chunkIndex: number, index: number) => `${jobId}#${chunkIndex}#${index}`;

  callsOf(method: StoreMethod): number {
    return this.calls.get(method) ?? 0;
  }

  entry(jobId: string, chunkIndex: number, index: number): LedgerEntry | undefined {
    const entry = this.ledger.get(InMemoryBroadcastState.ledgerId(jobId, chunkIndex, index));
    return entry && copy(entry);
  }

  entriesOf(jobId: string, chunkIndex: number): LedgerEntry[] {
    const prefix = `${InMemoryBroadcastState.chunkId(jobId, chunkIndex)}#`;
    return [...this.ledger.entries()]
      .filter(([id]) => id.startsWith(prefix))
      .map(([, entry]) => copy(entry))
      .sort((a, b) => a.index - b.index);
  }

  chunk(jobId: string, chunkIndex: number): ChunkRecord | undefined {
    const chunk = this.chunks.get(InMemoryBroadcastState.chunkId(jobId, chunkIndex));
    return chunk && copy(chunk);
  }

  /** The chunk's record; created without a recipient count when missing, as DynamoDB's UpdateItem creates the item. */
  chunkRecord(jobId: string, chunkIndex: number): ChunkRecord {
    const id = InMemoryBroadcastState.chunkId(jobId, chunkIndex);
    let chunk = this.chunks.get(id);
    if (!chunk) {
      chunk = { recipientCount: 0, sent: 0, failed: 0, unknown: 0, failuresByReason: {} };
      this.chunks.set(id, chunk);
    }
    return chunk;
  }

  /** Test helper (no store method): the job's chunks as `getJobProgress` reads them, in chunk order. */
  async getChunkProgress(jobId: string): Promise<ChunkProgress[]> {
    return [...this.chunks.entries()]
      .filter(([id]) => id.startsWith(`${jobId}#`))
      .map(([id, chunk]) => ({
        chunkIndex: Number(id.slice(jobId.length + 1)),
        recipientCount: chunk.recipientCount,
        sent: chunk.sent,
        failed: chunk.failed,
        unknown: chunk.unknown,
        failuresByReason: Object.fromEntries(Object.entries(chunk.failuresByReason).filter(([, count]) => count > 0)),
        started: chunk.startedAt !== undefined,
        done: chunk.doneAt !== undefined,
        ...(chunk.doneAt !== undefined ? { doneAt: chunk.doneAt } : {}),
      }))
      .sort((a, b) => a.chunkIndex - b.chunkIndex);
  }

  /** Test helper: what the delivery event processor would write for one recipient (facts and tally code). */
  recordDelivery(jobId: string, chunkIndex: number, index: number, facts: DeliveryFacts, tallyCode?: TallyCode): void {
    const id = InMemoryBroadcastState.ledgerId(jobId, chunkIndex, index);
    this.deliveryFacts.set(id, { ...(this.deliveryFacts.get(id) ?? {}), ...facts });
    if (tallyCode !== undefined) this.tallyCodes.set(`${jobId}#T#${index}`, tallyCode);
  }
}
