import type { Context, SQSRecord } from 'aws-lambda';
import { queues } from '../../runtime-contract/resource-definitions';
import { decodeOutboundMessage } from '../../shared/broadcast/chunk-message';
import type { ChunkReport } from '../../shared/broadcast/chunk-outcomes';
import type { ProcessChunkDependencies } from '../../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import { processOutboundChunk } from '../../shared/broadcast/chunk-worker/process-outbound-chunk';
import { abandonOutboundChunk } from '../../shared/broadcast/chunk-worker/settle-chunk';
import { logger } from '../../shared/observability/logger';

/**
 * One SQS record = one chunk (or part of one). A failure returns the record to the queue for
 * another try; on the last try before the dead-letter queue, the recipients not yet sent are
 * accounted as WORKER_ERROR so the job still reaches a terminal state. When that fails too (or the
 * last delivery crashes or times out), the message goes to the dead-letter queue, whose consumer
 * (functions/chunk-dead-letters) settles it the same way.
 * Returns the chunk's report (the Lambda publishes its metrics); none when the chunk was abandoned.
 */
export async function handleChunkRecord(dependencies: ProcessChunkDependencies, record: SQSRecord, context: Context): Promise<ChunkReport | undefined> {
  const message = decodeOutboundMessage(record.body);
  const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? 1);
  logger.appendKeys({ jobId: message.jobId, chunkIndex: message.chunkIndex, receiveCount });
  try {
    const report = await processOutboundChunk(dependencies, message, { remainingTimeMs: () => context.getRemainingTimeInMillis() });
    logger.info('chunk processed', { ...report });
    return report;
  } catch (error) {
    if (receiveCount < queues.outboundMessages.maxReceiveCount) {
      // A transient failure (a store timeout, say) should not park the chunk for the whole
      // 12-minute visibility timeout: retry after 10 s, 20 s, 40 s, 80 s.
      await dependencies.queue.deferRedelivery(record.receiptHandle, Math.min(300, 10 * 2 ** (receiveCount - 1))).catch(() => undefined);
      throw error;
    }
    logger.error('chunk abandoned after its last attempt', { error: error as Error });
    await abandonOutboundChunk(dependencies, message);
    return undefined;
  } finally {
    logger.resetKeys();
  }
}
