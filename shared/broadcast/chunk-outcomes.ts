/**
 * The chunk worker's "record outcome" step: ledger entries are written in batches (by count or
 * age), in order, each batch followed by the chunk's live progress. The first failure is kept
 * and stops the worker's lanes; what was already sent is still written.
 */
import type { OutboundMessage } from './chunk-message';
import { tallyCodes, type TallyCode } from '../delivery/recipient-status';
import { DEFAULT_FAILURE_REASON } from '../sending/failure-reasons';
import type { ChunkProgressStore, Clock, LedgerEntry, ProgressDelta, RecipientLedger } from './ports';

export interface ChunkReport {
  sent: number;
  failed: number;
  unknown: number;
  skipped: number;
  continued: number;
  /** Never sent: the job was cancelled before their claim. */
  cancelled?: number;
  /** Not sent yet: the job's template is paused; re-queued for after the resume. */
  held?: number;
  /** Not sent yet: other workers kept the business account's schedule booked; the message was re-queued with a delay. */
  deferred?: number;
  /** Not sent yet: outside their send window or deferred by the frequency cap; re-queued for then (chunk-worker/waiting-rest.ts). */
  waiting?: number;
  /** Rate-limit answers (130429 and Meta's other throttling codes) that held the account's pacer; absent: none. */
  rateLimitHolds?: number;
  /** Recipients the Marketing Messages API refused for the template (131055, 134100, 134101, 134102), sent through Cloud API instead; absent: none. */
  marketingFallbacks?: number;
  chunkDone: boolean;
}

/** A report of nothing done yet. */
export const emptyReport = (): ChunkReport => ({ sent: 0, failed: 0, unknown: 0, skipped: 0, continued: 0, chunkDone: false });

export const emptyDelta = (): ProgressDelta => ({ sent: 0, failed: 0, unknown: 0, failuresByReason: {} });

/**
 * The tally code of a recorded outcome (shared/delivery/recipient-status.ts): what the job summary
 * counts for the recipient until Meta's events say more. None while still SENDING.
 */
export function tallyCodeOfOutcome(entry: Pick<LedgerEntry, 'status' | 'failureReasonCode' | 'updatedAt' | 'held'>): TallyCode | undefined {
  switch (entry.status) {
    case 'SENT':
      return entry.held ? tallyCodes.held : tallyCodes.sent;
    case 'FAILED':
      return tallyCodes.failedOnSend(entry.failureReasonCode ?? DEFAULT_FAILURE_REASON);
    case 'UNKNOWN':
      return tallyCodes.unknown(new Date(entry.updatedAt));
    case 'CANCELLED':
      return tallyCodes.cancelled;
    case 'HELD_OUT':
      return tallyCodes.heldOut;
    case 'SENDING':
      return undefined;
  }
}

export function countFailure(delta: ProgressDelta, reason: string | undefined): void {
  delta.failed += 1;
  const key = reason ?? DEFAULT_FAILURE_REASON;
  delta.failuresByReason[key] = (delta.failuresByReason[key] ?? 0) + 1;
}

export class ChunkOutcomes {
  readonly report: ChunkReport = emptyReport();
  /** The first failure of a store write or a lane. */
  failure: unknown;
  private buffered: LedgerEntry[] = [];
  private delta = emptyDelta();
  private lastFlush: number;
  private flushing: Promise<void> = Promise.resolve();
  /** Outcome groups the last due flush held back in part: the next one writes whatever it holds of them. */
  private heldGroups = new Set<number>();
  /** Outcomes recorded since the last flush (held ones are not counted again: a flush comes every `outcomeBatchSize` new ones). */
  private recordedSinceFlush = 0;

  constructor(
    private readonly broadcasts: RecipientLedger & ChunkProgressStore,
    private readonly message: Pick<OutboundMessage, 'jobId' | 'chunkIndex'>,
    private readonly batching: { outcomeBatchSize: number; flushIntervalMs: number; ledgerPageSize?: number },
    private readonly clock: Clock,
  ) {
    this.lastFlush = clock.now().getTime();
  }

  fail(error: unknown): void {
    this.failure ??= error;
  }

  record(entry: LedgerEntry): void {
    this.buffered.push(entry);
    if (entry.status === 'SENT') this.report.sent += 1;
    else if (entry.status === 'FAILED') this.report.failed += 1;
    else if (entry.status === 'CANCELLED') this.report.cancelled = (this.report.cancelled ?? 0) + 1;
    else this.report.unknown += 1;
    this.recordedSinceFlush += 1;
    const due = this.recordedSinceFlush >= this.batching.outcomeBatchSize || this.clock.now().getTime() - this.lastFlush >= this.batching.flushIntervalMs;
    if (due) void this.flush({ holdOpenGroups: true });
  }

  /** A recipient someone else claimed: no send, no entry of ours. */
  skipped(): void {
    this.report.skipped += 1;
  }

  /** A crashed attempt's claim just turned UNKNOWN (the repository wrote the entry, so only the progress is ours to write). */
  staleClaimResolved(): void {
    this.delta.unknown += 1;
    this.report.unknown += 1;
  }

  /**
   * Writes what is buffered (and the progress so far). `holdOpenGroups` (a flush due by count or
   * age): the entries of each outcome group it holds in part (its other recipients still in the
   * lanes) stay for the next flush, which mostly completes them, so the ledger writes those groups
   * whole; a group's entries wait one flush at most (its other recipients may never come: someone
   * else's claim, refused at accept, deferred). The final flush writes everything. The progress
   * written counts only the entries written before it (held entries count with their own flush), so
   * the live counters never run ahead of the ledger a redelivery reads.
   */
  flush(options: { holdOpenGroups?: boolean } = {}): Promise<void> {
    const split = options.holdOpenGroups ? splitOpenGroups(this.buffered, this.batching.ledgerPageSize, this.heldGroups) : undefined;
    const [entries, held] = split ? [split.written, split.held] : [this.buffered, []];
    this.heldGroups = split?.heldGroups ?? new Set();
    this.recordedSinceFlush = 0;
    const progress = progressOf(entries, this.delta);
    this.buffered = held;
    this.delta = emptyDelta();
    this.lastFlush = this.clock.now().getTime();
    if (entries.length === 0 && progress.sent + progress.failed + progress.unknown === 0) return this.flushing;
    const { jobId, chunkIndex } = this.message;
    // Chained so ledger batches land in order and a failure surfaces to the invocation.
    this.flushing = this.flushing
      .then(async () => {
        if (entries.length > 0) await this.broadcasts.recordOutcomes(jobId, chunkIndex, entries);
        await this.broadcasts.addChunkProgress(jobId, chunkIndex, progress);
      })
      .catch((error: unknown) => this.fail(error));
    return this.flushing;
  }
}

/**
 * The live counters' change for `entries` on top of `base` (stale claims resolved since the last
 * flush). A cancelled recipient is counted by the tally, not by the live counters.
 */
function progressOf(entries: readonly LedgerEntry[], base: ProgressDelta): ProgressDelta {
  for (const entry of entries) {
    if (entry.status === 'SENT') base.sent += 1;
    else if (entry.status === 'FAILED') countFailure(base, entry.failureReasonCode);
    else if (entry.status !== 'CANCELLED') base.unknown += 1;
  }
  return base;
}

/**
 * `entries` split by outcome group (`groupSize` consecutive indexes): a group they hold in part is
 * held back (`held`, `heldGroups`) unless the last flush held it already (`heldBefore`); complete
 * groups and those held before are `written`. Everything is written without a group size.
 */
function splitOpenGroups(
  entries: LedgerEntry[],
  groupSize: number | undefined,
  heldBefore: ReadonlySet<number>,
): { written: LedgerEntry[]; held: LedgerEntry[]; heldGroups: Set<number> } {
  const heldGroups = new Set<number>();
  if (groupSize === undefined || groupSize <= 1) return { written: entries, held: [], heldGroups };
  const counts = new Map<number, number>();
  for (const entry of entries) {
    const group = Math.floor(entry.index / groupSize);
    counts.set(group, (counts.get(group) ?? 0) + 1);
  }
  for (const [group, count] of counts) if (count < groupSize && !heldBefore.has(group)) heldGroups.add(group);
  if (heldGroups.size === 0) return { written: entries, held: [], heldGroups };
  const written: LedgerEntry[] = [];
  const held: LedgerEntry[] = [];
  for (const entry of entries) (heldGroups.has(Math.floor(entry.index / groupSize)) ? held : written).push(entry);
  return { written, held, heldGroups };
}
