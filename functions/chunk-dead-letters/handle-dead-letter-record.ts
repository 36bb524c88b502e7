import type { SQSRecord } from 'aws-lambda';
import { decodeOutboundMessage } from '../../shared/broadcast/chunk-message';
import type { ChunkReport } from '../../shared/broadcast/chunk-outcomes';
import { abandonOutboundChunk, type SettleDependencies } from '../../shared/broadcast/chunk-worker/settle-chunk';
import { logger } from '../../shared/observability/logger';

/**
 * One chunk message of the outbound dead-letter queue: it gave up (five failed deliveries, the last
 * one crashed, timed out or could not settle), so it is settled here without a send
 * (`abandonOutboundChunk`): the job reaches its final state with these recipients counted. A failure
 * (a store outage; a body that is not a chunk message) fails the record: it stays in the dead-letter
 * queue and comes back after the queue's visibility timeout, and the queue's age alarm tells an
 * operator when it keeps failing (docs/OPERATIONS.md).
 */
export async function handleDeadLetterRecord(dependencies: SettleDependencies, record: SQSRecord): Promise<ChunkReport> {
  const message = decodeOutboundMessage(record.body);
  logger.appendKeys({ jobId: message.jobId, chunkIndex: message.chunkIndex, receiveCount: Number(record.attributes.ApproximateReceiveCount ?? 1) });
  try {
    const report = await abandonOutboundChunk(dependencies, message);
    // Settled, but a chunk that reached the dead-letter queue is a defect or an outage worth a look
    // (ChunksDeadLettered alarms): the chunk-worker's log of this job and chunk says why it gave up.
    logger.warn('dead-lettered chunk settled', { ...report, recipients: message.recipients.length });
    return report;
  } finally {
    logger.resetKeys();
  }
}
