/**
 * Exactly-once, judged from two records that do not share code: what Meta took (the Meta model,
 * by callback data) and what the ledger says (the in-memory ledger the real worker wrote).
 * - duplicate: Meta took one ledger entry's message more than once;
 * - lost: the ledger says SENT and Meta never took it, or Meta took it and the ledger's final
 *   entry is neither SENT nor UNKNOWN (or, after a full drain, there is no final entry), or a chunk message went to the dead-letter queue, or (after a full drain)
 *   a recipient has no final ledger entry;
 * - unknown: UNKNOWN entries, each allowed only where a fault was injected (Meta's answer lost).
 */
import type { LedgerEntry } from '../../../shared/broadcast/ports';
import type { LoadRecord } from './scale-load';
import type { MetaModel } from './meta-model';

export interface ExactlyOnceCounts {
  recipients: number;
  settled: number;
  /** Recipients with no final entry yet (still queued or sending when the run ended). */
  pending: number;
  duplicates: number;
  lost: number;
  unknown: number;
  unknownWithoutFault: number;
  /** The ledger's reasons of the unknowns without an injected fault (what to look into when there are some). */
  unknownWithoutFaultReasons: Record<string, number>;
  faultsInjected: number;
  deadLettered: number;
}

const FINAL = new Set(['SENT', 'FAILED', 'UNKNOWN', 'CANCELLED']);

/**
 * Counts the figures above. `drained`: the run went on until nothing was left, so a recipient
 * without a final entry is lost rather than pending.
 *
 * @example
 * const counts = exactlyOnce(store.ledger, meta, load.record, 0, true);
 */
export function exactlyOnce(
  ledger: ReadonlyMap<string, LedgerEntry>,
  meta: MetaModel,
  load: LoadRecord,
  deadLettered: number,
  drained: boolean,
): ExactlyOnceCounts {
  const counts: ExactlyOnceCounts = {
    recipients: 0,
    settled: 0,
    pending: 0,
    duplicates: 0,
    lost: deadLettered,
    unknown: 0,
    unknownWithoutFault: 0,
    unknownWithoutFaultReasons: {},
    faultsInjected: meta.faulted.size,
    deadLettered,
  };
  for (const job of load.jobs.values()) counts.recipients += job.recipients;
  for (const [id, entry] of ledger) {
    const callbackData = `b1:${id.split('#').join(':')}`;
    const taken = meta.taken.get(callbackData) ?? 0;
    if (FINAL.has(entry.status)) counts.settled += 1;
    if (entry.status === 'SENT' && taken === 0) counts.lost += 1;
    if (entry.status === 'UNKNOWN') {
      counts.unknown += 1;
      if (!meta.faulted.has(callbackData)) {
        counts.unknownWithoutFault += 1;
        const reason = entry.failureReasonCode ?? 'none';
        counts.unknownWithoutFaultReasons[reason] = (counts.unknownWithoutFaultReasons[reason] ?? 0) + 1;
      }
    }
  }
  for (const [callbackData, taken] of meta.taken) {
    if (taken > 1) counts.duplicates += taken - 1;
    const entry = ledger.get(callbackData.slice(3).split(':').join('#'));
    // Taken by Meta while its outcome is not written yet (the run stopped mid-flush): pending, unless the run drained.
    const inFlight = !entry || !FINAL.has(entry.status);
    if (inFlight ? drained : entry.status !== 'SENT' && entry.status !== 'UNKNOWN') counts.lost += 1;
  }
  const unsettled = counts.recipients - counts.settled;
  if (drained) counts.lost += unsettled;
  else counts.pending = unsettled;
  return counts;
}
