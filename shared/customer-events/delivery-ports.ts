/**
 * Ports of the delivery half (publisher and dispatcher), next to the shared ones in ports.ts.
 * Implemented by shared/adapters/sqs/sqs-customer-event-queue.ts,
 * shared/adapters/dynamodb/dynamodb-customer-event-log.ts and shared/adapters/http/safe-http-client.ts.
 */
import type { CustomerEventDelivery } from './delivery-message';
import type { CustomerEvent, CustomerEventLog } from './ports';

export interface CustomerEventQueue {
  /** Queues deliveries (SendMessageBatch), each delayed by `delaySeconds` (≤ 900) when given. */
  enqueue(deliveries: readonly CustomerEventDelivery[], options?: { delaySeconds?: number }): Promise<void>;
  /** Parks a delivery that gave up in the queue's dead-letter queue (kept 14 days). */
  deadLetter(delivery: CustomerEventDelivery): Promise<void>;
}

/** The event log as the publisher writes it. */
export interface CustomerEventLogWriter extends CustomerEventLog {
  /**
   * Records the event unless its id is already recorded; returns the event as recorded (the first
   * one: a republish of an id keeps the original `createdAt` and `data`, so every delivery of an id
   * carries the same body).
   */
  record(organizationId: string, event: CustomerEvent): Promise<CustomerEvent>;
}

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** POSTs one delivery; resolves with any HTTP status, throws WebhookDeliveryError when there is none. */
export interface WebhookTransport {
  post(request: WebhookRequest): Promise<{ status: number }>;
}
