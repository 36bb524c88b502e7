/** chunk-dead-letters: messaging (readWrite: jobs, control, ledger, progress), tenancy (read: job.completed's subscribers), the customerEvents queue. DynamoDB + SQS; no token key, no Cloud API. */
import { everyBroadcastStoreAdapter } from '../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import type { SettleDependencies } from '../../shared/broadcast/chunk-worker/settle-chunk';
import { lazyPorts, value, type CompositionContext } from '../composition/composition-context';
import { customerEventPublisherSection } from '../composition/customer-events.section';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { broadcastStoresSection } from '../composition/messaging.section';
import { webhookSubscribersSection } from '../composition/webhook-subscribers.section';

export function composeChunkDeadLetters(context: CompositionContext): SettleDependencies {
  const dynamoDb = dynamoDbClients(context);
  return lazyPorts<SettleDependencies>({
    broadcasts: broadcastStoresSection(context, dynamoDb, everyBroadcastStoreAdapter),
    clock: value(context.clock),
    events: customerEventPublisherSection(context, dynamoDb, webhookSubscribersSection(context, dynamoDb)),
  });
}
