/** broadcast-webhooks: tenancy (endpoints), messaging read (event log), rate limits (and the redelivery quota), the customerEvents queue, the token key. DynamoDB + SQS + KMS. */
import type { EndpointDeliveryPorts, EndpointRegistrationPorts } from '../../shared/customer-events/webhook-endpoints';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import { lazyPorts, type CompositionContext } from '../composition/composition-context';
import { redeliveryQuotaSection } from '../composition/customer-event-fairness.section';
import { customerEventPorts } from '../composition/customer-events.section';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { auditSection } from '../composition/audit.section';
import { httpSection } from '../composition/http.section';
import { tenancyReaderSection } from '../composition/tenancy.section';
import { webhookRegistrationSection, webhookRegistrySection } from '../composition/webhook-registry.section';

export type BroadcastWebhooksServices = EndpointRegistrationPorts & EndpointDeliveryPorts;
export type BroadcastWebhooksDependencies = BroadcastWebhooksServices & HttpPipelineDependencies;

export function composeBroadcastWebhooks(context: CompositionContext): BroadcastWebhooksDependencies {
  const dynamoDb = dynamoDbClients(context);
  return lazyPorts<BroadcastWebhooksDependencies>({
    ...httpSection(context, dynamoDb, tenancyReaderSection(context, dynamoDb)),
    ...auditSection(context, dynamoDb),
    ...webhookRegistrationSection(context, dynamoDb),
    ...customerEventPorts(context, dynamoDb, webhookRegistrySection(context, dynamoDb)),
    ...redeliveryQuotaSection(context, dynamoDb),
  });
}
