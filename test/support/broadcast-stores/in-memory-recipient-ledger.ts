/**
 * RecipientLedger in memory, as DynamoDbRecipientLedger: conditional claims, unconditional outcome
 * overwrites, SENDING → UNKNOWN only from SENDING. Tally codes of outcomes are not kept (the
 * delivery facts and codes tests need are set with `recordDelivery`).
 */
import type { OutcomeFacts } from '../../../shared/outcomes/outcome-facts';
import type {
  ChunkRecipientRecords,
  ClaimResult,
  ClaimState,
  LedgerEntry,
  LedgerEntryLocation,
  RecipientClaim,
  RecipientLedger,
} from '../../../shared/broadcast/ports';
import type { TallyCode } from '../../../shared/delivery/recipient-status';
import { InMemoryBroadcastState, copy } from './in-memory-broadcast-state';

export class InMemoryRecipientLedger implements RecipientLedger {
  constructor(private readonly state: InMemoryBroadcastState) {}

  async claimRecipient(jobId: string, chunkIndex: number, index: number, to: string, now: Date, as: ClaimState = 'SENDING'): Promise<ClaimResult> {
    this.state.touch('claimRecipient');
    return this.claimOne(jobId, chunkIndex, index, to, now, as);
  }

  private claimOne(jobId: string, chunkIndex: number, index: number, to: string, now: Date, as: ClaimState = 'SENDING'): ClaimResult {
    const id = InMemoryBroadcastState.ledgerId(jobId, chunkIndex, index);
    const existing = this.state.ledger.get(id);
    if (existing) return { claimed: false, existing: copy(existing) };
    const claimed = typeof as === 'string' ? { status: as } : { status: as.status, failureReasonCode: as.failureReasonCode };
    this.state.ledger.set(id, { index, to, ...claimed, attempts: 0, updatedAt: now.toISOString() });
    return { claimed: true };
  }

  /**
   * Each recipient as its own claim, in order. Each recipient also counts as a `claimRecipient` call
   * (before anything is claimed, so an injected failure claims none of the group, as the adapter's
   * one write per page): failures injected per recipient apply to group claims too.
   */
  async claimRecipients(jobId: string, chunkIndex: number, claims: readonly RecipientClaim[], now: Date): Promise<ClaimResult[]> {
    this.state.touch('claimRecipients');
    for (let claimed = 0; claimed < claims.length; claimed += 1) this.state.touch('claimRecipient');
    const results: ClaimResult[] = [];
    for (const { index, to, as } of claims) results.push(this.claimOne(jobId, chunkIndex, index, to, now, as));
    return results;
  }

  async releaseClaim(jobId: string, chunkIndex: number, index: number): Promise<boolean> {
    this.state.touch('releaseClaim');
    const id = InMemoryBroadcastState.ledgerId(jobId, chunkIndex, index);
    if (this.state.ledger.get(id)?.status !== 'SENDING') return false;
    this.state.ledger.delete(id);
    return true;
  }

  async recordOutcomes(jobId: string, chunkIndex: number, entries: readonly LedgerEntry[]): Promise<void> {
    this.state.touch('recordOutcomes');
    for (const entry of entries) this.state.ledger.set(InMemoryBroadcastState.ledgerId(jobId, chunkIndex, entry.index), copy(entry));
  }

  async recordSettled(): Promise<void> {
    // The claim already holds the entry as it is; tally codes are not kept by this fake.
    this.state.touch('recordSettled');
  }

  async recordWaiting(jobId: string, entries: ReadonlyArray<{ index: number; code: TallyCode }>): Promise<void> {
    this.state.touch('recordWaiting');
    for (const { index, code } of entries) this.state.waitingCodes.set(`${jobId}#W#${index}`, code);
  }

  async markStaleAsUnknown(jobId: string, chunkIndex: number, index: number, now: Date): Promise<boolean> {
    this.state.touch('markStaleAsUnknown');
    const entry = this.state.ledger.get(InMemoryBroadcastState.ledgerId(jobId, chunkIndex, index));
    if (entry?.status !== 'SENDING') return false;
    entry.status = 'UNKNOWN';
    entry.failureReasonCode = 'UNKNOWN_OUTCOME: interrupted attempt';
    entry.updatedAt = now.toISOString();
    return true;
  }

  async findByMessageId(messageId: string): Promise<LedgerEntryLocation | undefined> {
    this.state.touch('findByMessageId');
    for (const [id, entry] of this.state.ledger) {
      if (entry.messageId !== messageId) continue;
      const [jobId, chunkIndex] = id.split('#');
      return { jobId: jobId!, chunkIndex: Number(chunkIndex), entry: copy(entry) };
    }
    return undefined;
  }

  async readChunkRecipients(jobId: string, chunkIndex: number): Promise<ChunkRecipientRecords> {
    const { state } = this;
    state.touch('readChunkRecipients');
    const listed = state.listedRecipients.get(InMemoryBroadcastState.chunkId(jobId, chunkIndex));
    return {
      ...(listed ? { listed: copy(listed) } : {}),
      ledger: state.entriesOf(jobId, chunkIndex).map((entry) => ({
        entry,
        facts: copy(state.deliveryFacts.get(InMemoryBroadcastState.ledgerId(jobId, chunkIndex, entry.index)) ?? {}),
      })),
      ...outcomesOfChunk(state, jobId, chunkIndex),
      ...waitingOfChunk(state, jobId, chunkIndex, listed?.map(({ index }) => index) ?? []),
    };
  }
}

/** The waiting codes of the chunk's listed recipients without a ledger entry, as the DynamoDB ledger reads them. */
function waitingOfChunk(
  state: InMemoryBroadcastState,
  jobId: string,
  chunkIndex: number,
  indexes: readonly number[],
): { waiting?: ReadonlyMap<number, TallyCode> } {
  const claimed = new Set(state.entriesOf(jobId, chunkIndex).map((entry) => entry.index));
  const found = indexes.flatMap((index): Array<[number, TallyCode]> => {
    const code = state.waitingCodes.get(`${jobId}#W#${index}`);
    return code === undefined || claimed.has(index) ? [] : [[index, code]];
  });
  return found.length === 0 ? {} : { waiting: new Map(found) };
}

/** The chunk's outcome facts (every index of the chunk's range, held-out recipients included), as the DynamoDB ledger reads them. */
function outcomesOfChunk(state: InMemoryBroadcastState, jobId: string, chunkIndex: number): { outcomes?: ReadonlyMap<number, OutcomeFacts> } {
  const chunkSize = state.jobs.get(jobId)?.chunkSize;
  if (chunkSize === undefined) return {};
  const found = [...state.outcomeFacts.outcomesOfJob(jobId)].filter(([index]) => Math.floor(index / chunkSize) === chunkIndex);
  return found.length === 0 ? {} : { outcomes: new Map(found) };
}
