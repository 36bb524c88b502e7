import type { SQSRecord } from 'aws-lambda';
import { decodeDelivery } from '../../shared/customer-events/delivery-message';
import { dispatchCustomerEvent, type DispatchDependencies } from '../../shared/customer-events/dispatch-customer-event';
import { logger } from '../../shared/observability/logger';

/**
 * One SQS record = one delivery attempt. Endpoint failures are settled inside (a delayed retry or
 * the dead-letter queue), so the record succeeds; only our own store faults fail it back to SQS.
 * Logged: ids, attempt, status, reason, delay; never the URL, the secret or the event's data.
 */
export async function handleCustomerEventRecord(dependencies: DispatchDependencies, record: SQSRecord): Promise<void> {
  const delivery = decodeDelivery(record.body);
  const facts = { organizationId: delivery.organizationId, endpointId: delivery.endpointId, eventId: delivery.event.id, eventType: delivery.event.type };
  const outcome = await dispatchCustomerEvent(dependencies, delivery);
  if (outcome.kind === 'dead-lettered') logger.warn('customer event delivery gave up', { ...facts, ...outcome });
  else logger.info('customer event delivery', { ...facts, ...outcome });
}
