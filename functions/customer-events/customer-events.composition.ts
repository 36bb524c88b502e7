/** customer-events: the endpoint registry (tenancy, token key), the endpoints' health (rateLimits), the customerEvents queue and its dead-letter queue, outbound HTTPS. DynamoDB + SQS (+ KMS through the registry). */
import type { DispatchDependencies } from '../../shared/customer-events/dispatch-customer-event';
import { lazyPorts, value, type CompositionContext } from '../composition/composition-context';
import { endpointHealthSection } from '../composition/customer-event-fairness.section';
import { customerEventQueueSection, webhookTransportSection } from '../composition/customer-events.section';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { webhookRegistrySection } from '../composition/webhook-registry.section';

export function composeCustomerEventsDispatcher(context: CompositionContext, deadLetterQueueUrl: string): DispatchDependencies {
  const { retryWindowMs, backoffBaseMs, backoffCapMs, timeoutMs, fairness } = context.config.customerEvents;
  const dynamoDb = dynamoDbClients(context);
  return lazyPorts<DispatchDependencies>({
    registry: webhookRegistrySection(context, dynamoDb),
    health: endpointHealthSection(context, dynamoDb),
    transport: webhookTransportSection(context),
    queue: customerEventQueueSection(context, deadLetterQueueUrl),
    clock: value(context.clock),
    random: value(Math.random),
    sleep: value((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))),
    settings: value({ retryWindowMs, backoffBaseMs, backoffCapMs, timeoutMs }),
    fairness: value(fairness),
  });
}
