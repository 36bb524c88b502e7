import type { SQSBatchItemFailure, SQSRecord } from 'aws-lambda';
import { queues } from '../../runtime-contract/queue-definitions';
import { applyWebhookBatches, type WebhookBatchReport } from '../../shared/delivery/apply-webhook-batch';
import { readMetaEventMessage, REPLAYED_ATTRIBUTE } from '../../shared/meta-app/meta-event-message';
import { logger } from '../../shared/observability/logger';
import { AllWebhookBatchesFailedError, SendRecordNotYetWrittenError } from '../../shared/delivery/errors';
import type { DeliveryEventsDependencies } from './delivery-events.composition';

/** Receives (5 s, then 10 s later) an event may wait for its /upstream send record before it is dropped. */
const SEND_RECORD_WAIT_RECEIVES = 3;

export interface DeliveryRecordsResult {
  /** The records to receive again (partial batch response). */
  batchItemFailures: SQSBatchItemFailure[];
  /** Events the acknowledged records applied (the WebhookEventsApplied metric). */
  eventsApplied: number;
}

/**
 * One SQS record = one webhook POST as the endpoint stored it; the records of one delivery are
 * applied together (one tally write per item for all of them: applyWebhookBatches). Applying is
 * idempotent, so a failed record simply goes back to the queue (sooner than the visibility timeout)
 * and is applied again; after its last receive it goes to the dead-letter queue for replay. When
 * every record failed, it throws AllWebhookBatchesFailedError (the invocation fails, as with a store outage).
 */
export async function handleDeliveryRecords(dependencies: DeliveryEventsDependencies, records: readonly SQSRecord[]): Promise<DeliveryRecordsResult> {
  const received = records.map((record) => {
    const receiveCount = Number(record.attributes.ApproximateReceiveCount ?? 1);
    return { record, receiveCount, ...readRecord(record, receiveCount) };
  });
  const readable = received.flatMap((item) => (item.input ? [{ ...item, input: item.input }] : []));
  const outcomes = await applyWebhookBatches(
    dependencies.ports,
    readable.map(({ input }) => input),
  ).catch((error: unknown) => readable.map(() => ({ report: undefined, failure: { error } })));
  const results = new Map(readable.map((item, position) => [item.record, outcomes[position]!]));

  const failures: SQSBatchItemFailure[] = [];
  let firstError: unknown;
  let applied = 0;
  await Promise.all(
    received.map(async ({ record, receiveCount, unreadable }) => {
      const outcome = results.get(record);
      const report = outcome?.report;
      // Applying again is harmless; a send record written a moment after Meta's answer is then found.
      const waitForSendRecord = report && report.upstreamNotYetRecorded > 0 && receiveCount < SEND_RECORD_WAIT_RECEIVES;
      const error = unreadable ?? outcome?.failure?.error ?? (waitForSendRecord ? new SendRecordNotYetWrittenError(report.upstreamNotYetRecorded) : undefined);
      if (error === undefined && report) {
        logger.info('webhook batch applied', { sqsMessageId: record.messageId, receiveCount, ...report });
        applied += eventsApplied(report);
        return;
      }
      logger.warn('webhook batch failed', { sqsMessageId: record.messageId, receiveCount, error: error as Error });
      failures.push({ itemIdentifier: record.messageId });
      firstError ??= error;
      if (receiveCount < queues.metaEvents.maxReceiveCount) {
        await dependencies.redelivery.defer(record.receiptHandle, Math.min(300, 5 * 2 ** (receiveCount - 1))).catch(() => undefined);
      }
    }),
  );
  if (records.length > 0 && failures.length === records.length) throw new AllWebhookBatchesFailedError(records.length, { cause: firstError });
  return { batchItemFailures: failures, eventsApplied: applied };
}

/** The stored webhook POST of a record; a record that cannot be read fails alone (and ends in the dead-letter queue). */
function readRecord(record: SQSRecord, receiveCount: number): { input?: { body: unknown; receivedAt: Date; redelivered: boolean }; unreadable?: unknown } {
  try {
    const message = readMetaEventMessage(record.body);
    // A redelivery may follow an attempt that wrote its facts but failed before their customer events.
    // A replay from the dead-letter queue may follow a crashed attempt too.
    const replayed = record.messageAttributes?.[REPLAYED_ATTRIBUTE]?.stringValue === 'true';
    return { input: { body: message.body, receivedAt: new Date(message.receivedAt), redelivered: receiveCount > 1 || replayed } };
  } catch (error) {
    return { unreadable: error };
  }
}

/** Events a batch applied (the WebhookEventsApplied metric): statuses, inbound messages and template states. */
export const eventsApplied = (report: WebhookBatchReport): number => report.applied + report.inbound + report.templates;
