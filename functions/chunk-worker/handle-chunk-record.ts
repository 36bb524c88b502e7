import type { Context, SQSRecord } from 'aws-lambda';
import { outboundLaneQueues, queues } from '../../runtime-contract/queue-definitions';
import { decodeOutboundMessage } from '../../shared/broadcast/chunk-message';
import type { ChunkReport } from '../../shared/broadcast/chunk-outcomes';
import type { ProcessChunkDependencies } from '../../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import { processOutboundChunk } from '../../shared/broadcast/chunk-worker/process-outbound-chunk';
import { abandonOutboundChunk } from '../../shared/broadcast/chunk-worker/settle-chunk';
import type { OutboundLane } from '../../shared/broadcast/outbound-lanes';
import { logger } from '../../shared/observability/logger';
import { redeliveryDelaySeconds } from '../composition/redelivery-delay';

/**
 * One SQS record = one chunk (or part of one). A failure returns the record to the queue for
 * another try; on the last try before the dead-letter queue, the recipients not yet sent are
 * accounted as WORKER_ERROR so the job still reaches a terminal state. When that fails too (or the
 * last delivery crashes or times out), the message goes to the dead-letter queue, whose consumer
 * (functions/chunk-dead-letters) settles it the same way.
 * `lane`: the lane whose queue the record came from (its receive limit, where its redelivery is set).
 * The record's keys go on each log line rather than on the shared logger: the single-message lane
 * handles the records of one batch concurrently.
 * Returns the chunk's report (the Lambda publishes its metrics); none when the chunk was abandoned.
 */
export async function handleChunkRecord(
  dependencies: ProcessChunkDependencies,
  record: SQSRecord,
  context: Context,
  lane: OutboundLane = 'bulk',
): Promise<ChunkReport | undefined> {
  const message = decodeOutboundMessage(record.body);
  const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? 1);
  const keys = { messageId: record.messageId, jobId: message.jobId, chunkIndex: message.chunkIndex, receiveCount };
  try {
    const report = await processOutboundChunk(dependencies, message, { remainingTimeMs: () => context.getRemainingTimeInMillis() });
    logger.info('chunk processed', { ...keys, ...report });
    return report;
  } catch (error) {
    if (receiveCount < queues[outboundLaneQueues[lane]].maxReceiveCount) {
      await dependencies.queue.deferRedelivery(record.receiptHandle, redeliveryDelaySeconds(receiveCount, dependencies.random), lane).catch(() => undefined);
      throw error;
    }
    logger.error('chunk abandoned after its last attempt', { ...keys, error: error as Error });
    await abandonOutboundChunk(dependencies, message);
    return undefined;
  }
}
