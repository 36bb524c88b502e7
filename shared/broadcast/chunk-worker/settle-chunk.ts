/**
 * Step 4 of the chunk worker, settling: the rest (out of time) continue in a fresh message, or the
 * chunk is reconciled from its ledger. Recipients this worker will never send (the job cancelled,
 * a template pause past its deadline, a message given up after its last delivery or found in the
 * dead-letter queue) are settled by one routine, `settleRest`.
 */
import { announceJobCompletion } from '../announce-job-completion';
import type { ChunkRecipient, OutboundMessage } from '../chunk-message';
import { countFailure, emptyDelta, emptyReport, type ChunkReport } from '../chunk-outcomes';
import type { ClaimState, LedgerEntry } from '../ports';
import { WORKER_ERROR } from '../../sending/failure-reasons';
import type { ProcessChunkDependencies } from './chunk-worker-dependencies';

/** What settling a chunk uses: the broadcast stores, the clock and the customer events (job.completed). */
export type SettleDependencies = Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'events'>;
type ChunkKey = Pick<OutboundMessage, 'jobId' | 'chunkIndex'>;

/** The final state recipients are settled in: CANCELLED, or FAILED with a reason. */
export type SettledAs = Exclude<ClaimState, 'SENDING'>;

/** Recipients claimed in one group call when settling (a few ledger pages: one write each), and the groups written at once. */
const SETTLE_GROUP_SIZE = 64;
const SETTLE_GROUP_CONCURRENCY = 4;

/**
 * A claim someone else holds: still SENDING means a crashed attempt, whose outcome is unknown →
 * UNKNOWN (never resent). True when this call marked it.
 */
export async function resolveStaleClaim(
  dependencies: Pick<SettleDependencies, 'broadcasts' | 'clock'>,
  chunk: ChunkKey,
  index: number,
  existing: LedgerEntry,
): Promise<boolean> {
  return existing.status === 'SENDING' && dependencies.broadcasts.markStaleAsUnknown(chunk.jobId, chunk.chunkIndex, index, dependencies.clock.now());
}

/**
 * Every recipient of `rest` nobody claimed yet is claimed directly in its final state (CANCELLED, or
 * FAILED with a reason: never sent, never charged; written final at once, so a settling retried
 * after a store fault finds finished entries, never claims it would take for a crashed send's), a
 * crashed claim becomes UNKNOWN, a claim someone holds stays theirs, and the chunk is reconciled.
 * Failures and unknowns count in the chunk's live counters; cancellations are counted by the tally.
 *
 * @example
 * await settleRest(dependencies, message, rest, report, 'CANCELLED'); // a cancelled job's rest
 * await settleRest(dependencies, message, rest, report, { status: 'FAILED', failureReasonCode: 'TEMPLATE_PAUSED' });
 */
export async function settleRest(
  dependencies: SettleDependencies,
  chunk: ChunkKey,
  rest: readonly ChunkRecipient[],
  report: ChunkReport,
  as: SettledAs,
): Promise<ChunkReport> {
  const { broadcasts, clock } = dependencies;
  const settled: LedgerEntry[] = [];
  const delta = emptyDelta();
  const groups: ChunkRecipient[][] = [];
  for (let start = 0; start < rest.length; start += SETTLE_GROUP_SIZE) groups.push(rest.slice(start, start + SETTLE_GROUP_SIZE));
  const claimNext = async (): Promise<void> => {
    for (let group = groups.shift(); group; group = groups.shift()) {
      const results = await broadcasts.claimRecipients(
        chunk.jobId,
        chunk.chunkIndex,
        group.map(({ index, to }) => ({ index, to, as })),
        clock.now(),
      );
      for (const [position, { index, to }] of group.entries()) {
        const claim = results[position]!;
        if (claim.claimed) settled.push(settledEntry(index, to, clock.now(), as));
        else if (await resolveStaleClaim(dependencies, chunk, index, claim.existing)) delta.unknown += 1;
        else report.skipped += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(SETTLE_GROUP_CONCURRENCY, groups.length) }, claimNext));
  if (settled.length > 0)
    await broadcasts.recordSettled(
      chunk.jobId,
      settled.sort((a, b) => a.index - b.index),
    );
  report.unknown += delta.unknown;
  if (as === 'CANCELLED') report.cancelled = (report.cancelled ?? 0) + settled.length;
  else {
    for (const entry of settled) countFailure(delta, entry.failureReasonCode);
    report.failed += settled.length;
  }
  if (delta.failed + delta.unknown > 0) await broadcasts.addChunkProgress(chunk.jobId, chunk.chunkIndex, delta);
  return reconcile(dependencies, chunk, report);
}

function settledEntry(index: number, to: string, now: Date, as: SettledAs): LedgerEntry {
  const base = { index, to, attempts: 0, updatedAt: now.toISOString() };
  return as === 'CANCELLED' ? { ...base, status: 'CANCELLED' } : { ...base, status: 'FAILED', failureReasonCode: as.failureReasonCode };
}

/** The rest (out of time) go on in a fresh message; a chunk with nobody left is reconciled from its ledger. */
export async function settleChunk(
  dependencies: SettleDependencies & Pick<ProcessChunkDependencies, 'queue'>,
  message: OutboundMessage,
  pending: ChunkRecipient[],
  report: ChunkReport,
): Promise<ChunkReport> {
  if (pending.length === 0) return reconcile(dependencies, message, report);
  report.continued = pending.length;
  await dependencies.queue.enqueue([{ ...message, recipients: pending }]);
  return report;
}

async function reconcile(dependencies: SettleDependencies, chunk: ChunkKey, report: ChunkReport): Promise<ChunkReport> {
  report.chunkDone = (await dependencies.broadcasts.reconcileChunk(chunk.jobId, chunk.chunkIndex, dependencies.clock.now())).done;
  if (report.chunkDone && dependencies.events) {
    await announceJobCompletion({ broadcasts: dependencies.broadcasts, clock: dependencies.clock, events: dependencies.events }, chunk.jobId);
  }
  return report;
}

/**
 * A message given up: the last delivery of one that keeps failing (the worker, handle-chunk-record.ts)
 * or one that reached the dead-letter queue anyway (a crash or timeout on its last delivery, a store
 * outage while abandoning it: the chunk-dead-letters consumer). Everyone not yet claimed is settled
 * as a WORKER_ERROR failure (never sent), or CANCELLED when the job was cancelled meanwhile; crashed
 * claims become UNKNOWN (never resent); the chunk reconciles, and job.completed goes out when it was
 * the job's last. Safe to repeat (a dead letter may be received twice): finished entries are skipped.
 * A chunk whose job was discarded at accept time (its queueing failed) has nothing to settle.
 *
 * @example
 * const report = await abandonOutboundChunk(dependencies, message); // { failed: 997, unknown: 3, chunkDone: true, … }
 */
export async function abandonOutboundChunk(dependencies: SettleDependencies, message: OutboundMessage): Promise<ChunkReport> {
  return abandonChunk(dependencies, message, message.recipients);
}

/**
 * `abandonOutboundChunk` for the recipients of a chunk given apart from its message (the ledger
 * repair, shared/broadcast/ledger-repair.ts, rebuilds them from the chunk's recipients list).
 *
 * @example
 * const report = await abandonChunk(dependencies, { jobId, chunkIndex: 0 }, unsettled);
 */
export async function abandonChunk(dependencies: SettleDependencies, chunk: ChunkKey, recipients: readonly ChunkRecipient[]): Promise<ChunkReport> {
  const { broadcasts, clock } = dependencies;
  if (!(await broadcasts.markChunkStarted(chunk.jobId, chunk.chunkIndex, clock.now()))) {
    return { ...emptyReport(), skipped: recipients.length, chunkDone: true };
  }
  const control = await broadcasts.readJobControl(chunk.jobId);
  const as: SettledAs = control?.cancelled ? 'CANCELLED' : { status: 'FAILED', failureReasonCode: WORKER_ERROR };
  return settleRest(dependencies, chunk, recipients, emptyReport(), as);
}
