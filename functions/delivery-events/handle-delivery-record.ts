import type { SQSRecord } from 'aws-lambda';
import { queues } from '../../runtime-contract/resource-definitions';
import { applyWebhookBatch, type WebhookBatchReport } from '../../shared/delivery/apply-webhook-batch';
import { readMetaEventMessage, REPLAYED_ATTRIBUTE } from '../../shared/meta-app/meta-event-message';
import { logger } from '../../shared/observability/logger';
import { SendRecordNotYetWrittenError } from '../../shared/delivery/errors';
import type { DeliveryEventsDependencies } from './delivery-events.composition';

/** Receives (5 s, then 10 s later) an event may wait for its /upstream send record before it is dropped. */
const SEND_RECORD_WAIT_RECEIVES = 3;

/**
 * One SQS record = one webhook POST as the endpoint stored it. Applying is idempotent, so a failed
 * record simply goes back to the queue (sooner than the visibility timeout) and is applied again;
 * after its last receive it goes to the dead-letter queue for replay.
 * Returns the batch's report (the Lambda publishes its metrics).
 */
export async function handleDeliveryRecord(dependencies: DeliveryEventsDependencies, record: SQSRecord): Promise<WebhookBatchReport> {
  const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? 1);
  try {
    const message = readMetaEventMessage(record.body);
    // A redelivery may follow an attempt that wrote its facts but failed before their customer events.
    // A replay from the dead-letter queue may follow a crashed attempt too.
    const replayed = record.messageAttributes?.[REPLAYED_ATTRIBUTE]?.stringValue === 'true';
    const report = await applyWebhookBatch(dependencies.ports, message.body, new Date(message.receivedAt), { redelivered: receiveCount > 1 || replayed });
    logger.info('webhook batch applied', { sqsMessageId: record.messageId, receiveCount, ...report });
    // Applying again is harmless; a send record written a moment after Meta's answer is then found.
    if (report.upstreamNotYetRecorded > 0 && receiveCount < SEND_RECORD_WAIT_RECEIVES) throw new SendRecordNotYetWrittenError(report.upstreamNotYetRecorded);
    return report;
  } catch (error) {
    logger.warn('webhook batch failed', { sqsMessageId: record.messageId, receiveCount, error: error as Error });
    if (receiveCount < queues.metaEvents.maxReceiveCount) {
      await dependencies.redelivery.defer(record.receiptHandle, Math.min(300, 5 * 2 ** (receiveCount - 1))).catch(() => undefined);
    }
    throw error;
  }
}

/** Events a batch applied (the WebhookEventsApplied metric): statuses, inbound messages and template states. */
export const eventsApplied = (report: WebhookBatchReport): number => report.applied + report.inbound + report.templates;
