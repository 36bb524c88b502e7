/**
 * Customer events (issue 12): the event log (messaging table), the customerEvents queue (+ its
 * dead-letter queue for the dispatcher), the publisher producers call, the webhook endpoint registry
 * and the SSRF-safe HTTP client deliveries go through. DynamoDB + SQS.
 */
import { DynamoDbCustomerEventLog } from '../../shared/adapters/dynamodb/dynamodb-customer-event-log';
import { SafeHttpClient } from '../../shared/adapters/http/safe-http-client';
import { SqsCustomerEventQueue } from '../../shared/adapters/sqs/sqs-customer-event-queue';
import { requireSetting } from '../../shared/config/app-config';
import { QueueingCustomerEventPublisher } from '../../shared/customer-events/customer-event-publisher';
import type { CustomerEventLog, CustomerEventPublisher, WebhookEndpointRegistry } from '../../shared/customer-events/ports';
import { deadLetterEnvVarOf } from '../../runtime-contract/queue-definitions';
import { memoize, type CompositionContext, type PortFactories } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';
import { sqsClient } from './sqs-client';

export const customerEventLogSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(
    () => new DynamoDbCustomerEventLog(dynamoDb.document, requireSetting(context.config.tableNames.messaging, 'MESSAGING_TABLE'), () => context.clock.now()),
  );

/** `deadLetterQueueUrl`: the dispatcher's own (it parks given-up deliveries); producers pass none. */
export function customerEventQueueSection(context: CompositionContext, deadLetterQueueUrl?: string): () => SqsCustomerEventQueue {
  const sqs = sqsClient(context);
  return memoize(
    () => new SqsCustomerEventQueue(sqs(), requireSetting(context.config.queueUrls.customerEvents, 'CUSTOMER_EVENTS_QUEUE_URL'), deadLetterQueueUrl),
  );
}

export const customerEventsDeadLetterUrl = (env: Readonly<Record<string, string | undefined>>): string =>
  requireSetting(env[deadLetterEnvVarOf('customerEvents')] ?? '', deadLetterEnvVarOf('customerEvents'));

export const webhookTransportSection = (context: CompositionContext) =>
  memoize(() => new SafeHttpClient({ allowLoopback: context.config.customerEvents.localMode, resolver: context.overrides.webhookResolver }));

export function customerEventPublisherSection(
  context: CompositionContext,
  dynamoDb: DynamoDbClients,
  registry: () => Pick<WebhookEndpointRegistry, 'subscribersOf'>,
): () => QueueingCustomerEventPublisher {
  const log = customerEventLogSection(context, dynamoDb);
  const queue = customerEventQueueSection(context);
  return memoize(() => new QueueingCustomerEventPublisher({ log: log(), queue: queue(), registry: registry(), clock: context.clock }));
}

export interface CustomerEventPorts {
  publisher: CustomerEventPublisher;
  eventLog: CustomerEventLog;
}

/** What the /test and /redeliver routes need: the publisher (queues deliveries) and the event log. */
export const customerEventPorts = (
  context: CompositionContext,
  dynamoDb: DynamoDbClients,
  registry: () => Pick<WebhookEndpointRegistry, 'subscribersOf'>,
): PortFactories<CustomerEventPorts> => ({
  publisher: customerEventPublisherSection(context, dynamoDb, registry),
  eventLog: customerEventLogSection(context, dynamoDb),
});
