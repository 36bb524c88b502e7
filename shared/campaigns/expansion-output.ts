/**
 * A page's chunk onto the campaign's job (docs/CAMPAIGNS.md "How a campaign runs"): the chunk and
 * its listed people appended to the job (idempotent), the skipped recorded FAILED with their reason
 * as an accept records its refused recipients (job-fan-out.ts), and the sendable queued as the
 * chunk worker's 1,000-recipient chunk messages (chunk-message.ts). A chunk nobody is sent to is
 * complete at once (reconciled), as an accept's all-refused chunk is. The held out (the campaign's
 * holdout) are recorded HELD_OUT, counted by no live counter, and each gets a touch (TouchStore) at
 * the expansion time, so their inbound messages within the window count as the holdout's.
 */
import type { BroadcastJob } from '../broadcast/broadcast-job';
import { chunkMessages } from '../broadcast/chunk-message';
import { recordRefused, templateChunkOf } from '../broadcast/job-fan-out';
import type { ChunkProgressStore, Clock, JobStore, OutboundQueue, RecipientLedger } from '../broadcast/ports';
import { DEFAULT_ATTRIBUTION_WINDOW_HOURS } from '../outcomes/outcome-facts';
import type { TouchStore } from '../outcomes/ports';
import type { PageChunk } from './expansion-page';

export interface OutputPorts {
  broadcasts: Pick<JobStore, 'appendChunks'> & Pick<RecipientLedger, 'recordOutcomes'> & Pick<ChunkProgressStore, 'addChunkProgress' | 'reconcileChunk'>;
  queue: Pick<OutboundQueue, 'enqueue'>;
  /** The held-out people's touches (docs/OUTCOMES.md "Holdout and lift"). */
  touches: Pick<TouchStore, 'recordTouches'>;
  clock: Clock;
}

/**
 * Appends the chunk `chunkIndex` (its people from `chunkIndex × chunk size` on) and queues its sends.
 * Run again for the same page (a redelivery), it creates nothing twice and queues the same messages,
 * which the ledger sends once.
 *
 * @example
 * await writeChunk(ports, job, 3, chunk);
 */
export async function writeChunk(ports: OutputPorts, job: Extract<BroadcastJob, { kind: 'template' }>, chunkIndex: number, chunk: PageChunk): Promise<void> {
  if (chunk.listed.length === 0) return;
  await ports.broadcasts.appendChunks(job.jobId, chunkIndex, [chunk.listed.length], chunk.listed);
  if (chunk.skipped.length > 0) await recordRefused(ports.broadcasts, job, chunk.skipped);
  if (chunk.heldOut.length > 0) await recordHeldOut(ports, job, chunkIndex, chunk.heldOut);
  if (chunk.recipients.length === 0) {
    await ports.broadcasts.reconcileChunk(job.jobId, chunkIndex, ports.clock.now());
    return;
  }
  await ports.queue.enqueue(chunkMessages(templateChunkOf(job, chunkIndex), chunk.recipients));
}

/**
 * The held out's touches, then their HELD_OUT entries (tally code 9H). No live counter: they are
 * neither sent nor failed, and the chunk's reconcile counts them settled. Both writes are idempotent,
 * so a page run again writes the same.
 */
async function recordHeldOut(
  ports: OutputPorts,
  job: Extract<BroadcastJob, { kind: 'template' }>,
  chunkIndex: number,
  heldOut: PageChunk['heldOut'],
): Promise<void> {
  const windowHours = job.attributionWindowHours ?? DEFAULT_ATTRIBUTION_WINDOW_HOURS;
  const touches = heldOut.map(({ entry, personKeys }) => ({
    personKeys,
    touch: {
      jobId: job.jobId,
      ...(job.campaignId !== undefined && { campaignId: job.campaignId }),
      chunkIndex,
      index: entry.index,
      at: entry.updatedAt,
      windowHours,
      heldOut: true as const,
    },
  }));
  await ports.touches.recordTouches(job.organizationId, touches);
  await ports.broadcasts.recordOutcomes(
    job.jobId,
    chunkIndex,
    heldOut.map(({ entry }) => entry),
  );
}
