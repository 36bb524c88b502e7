import type { SQSBatchResponse, SQSRecord } from 'aws-lambda';
import { decodeDelivery, type CustomerEventDelivery } from '../../shared/customer-events/delivery-message';
import { dispatchCustomerEvents, type DispatchDependencies } from '../../shared/customer-events/dispatch-customer-event';
import { logger } from '../../shared/observability/logger';

/**
 * One SQS batch: the records' deliveries dispatched together, so the deliveries of one endpoint
 * share one health read and one concurrency lease (dispatch-customer-event.ts). Endpoint failures
 * are settled inside (a delayed retry, a deferral or the dead-letter queue), so their records
 * succeed; a malformed message and our own store faults fail only their records back to SQS
 * (partial batch response). Logged: ids, attempt, status, reason, delay (deferrals at debug level);
 * never the URL, the secret or the event's data.
 */
export async function handleCustomerEventBatch(dependencies: DispatchDependencies, records: readonly SQSRecord[]): Promise<SQSBatchResponse> {
  const failed: string[] = [];
  const decoded: Array<{ record: SQSRecord; delivery: CustomerEventDelivery }> = [];
  for (const record of records) {
    try {
      decoded.push({ record, delivery: decodeDelivery(record.body) });
    } catch (error) {
      logger.error('customer event delivery message refused', { messageId: record.messageId, error });
      failed.push(record.messageId);
    }
  }
  const results = await dispatchCustomerEvents(
    dependencies,
    decoded.map((entry) => entry.delivery),
  );
  results.forEach((result, index) => {
    const { record, delivery } = decoded[index]!;
    const facts = { organizationId: delivery.organizationId, endpointId: delivery.endpointId, eventId: delivery.event.id, eventType: delivery.event.type };
    if ('error' in result) {
      logger.error('customer event delivery failed on our side; SQS retries it', { ...facts, messageId: record.messageId, error: result.error });
      failed.push(record.messageId);
    } else if (result.outcome.kind === 'dead-lettered') logger.warn('customer event delivery gave up', { ...facts, ...result.outcome });
    // A dead endpoint's deliveries are re-queued over and over (up to ~100 times in 24 h): debug, not a line each time.
    else if (result.outcome.kind === 'deferred') logger.debug('customer event delivery deferred', { ...facts, ...result.outcome });
    else logger.info('customer event delivery', { ...facts, ...result.outcome });
  });
  return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
}
