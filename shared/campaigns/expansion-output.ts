/**
 * A page's chunk onto the campaign's job (docs/CAMPAIGNS.md "How a campaign runs"): the chunk and
 * its listed people appended to the job (idempotent), the skipped recorded FAILED with their reason
 * as an accept records its refused recipients (job-fan-out.ts), and the sendable queued as the
 * chunk worker's 1,000-recipient chunk messages (chunk-message.ts). A chunk nobody is sent to is
 * complete at once (reconciled), as an accept's all-refused chunk is.
 */
import type { BroadcastJob } from '../broadcast/broadcast-job';
import { chunkMessages } from '../broadcast/chunk-message';
import { recordRefused, sendTemplateOf } from '../broadcast/job-fan-out';
import type { ChunkProgressStore, Clock, JobStore, OutboundQueue, RecipientLedger } from '../broadcast/ports';
import type { PageChunk } from './expansion-page';

export interface OutputPorts {
  broadcasts: Pick<JobStore, 'appendChunks'> & Pick<RecipientLedger, 'recordOutcomes'> & Pick<ChunkProgressStore, 'addChunkProgress' | 'reconcileChunk'>;
  queue: Pick<OutboundQueue, 'enqueue'>;
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
  if (chunk.recipients.length === 0) {
    await ports.broadcasts.reconcileChunk(job.jobId, chunkIndex, ports.clock.now());
    return;
  }
  const envelope = { version: 1 as const, jobId: job.jobId, organizationId: job.organizationId, wabaId: job.wabaId, phoneNumberId: job.phoneNumberId };
  await ports.queue.enqueue(chunkMessages({ ...envelope, kind: 'template-chunk', chunkIndex, template: sendTemplateOf(job.template) }, chunk.recipients));
}
