/** Customer webhook endpoints in the tenancy table, secrets under the token key. DynamoDB + KMS. */
import { DynamoDbWebhookEndpointRegistry } from '../../shared/adapters/dynamodb/dynamodb-webhook-endpoint-registry';
import { requireSetting } from '../../shared/config/app-config';
import { randomSecretGenerator } from '../../shared/crypto/secret-generator';
import type { WebhookEndpointRegistry } from '../../shared/customer-events/ports';
import type { EndpointRegistrationPorts } from '../../shared/customer-events/webhook-endpoints';
import { memoize, value, type CompositionContext, type PortFactories } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';
import { hostResolverSection } from './host-resolver.section';
import { tokenCipherSection } from './token-cipher.section';

/** The registry; a test or bench may hand in its own (ServiceOverrides.webhookEndpointRegistry). */
export function webhookRegistrySection(context: CompositionContext, dynamoDb: DynamoDbClients): () => WebhookEndpointRegistry {
  const cipher = tokenCipherSection(context);
  return memoize(
    () =>
      context.overrides.webhookEndpointRegistry ??
      new DynamoDbWebhookEndpointRegistry(dynamoDb.document, requireSetting(context.config.tableNames.tenancy, 'TENANCY_TABLE'), cipher(), context.clock),
  );
}

/** Everything registering, listing and deleting endpoints needs (the function and the admin CLI). */
export function webhookRegistrationSection(context: CompositionContext, dynamoDb: DynamoDbClients): PortFactories<EndpointRegistrationPorts> {
  return {
    registry: webhookRegistrySection(context, dynamoDb),
    resolver: hostResolverSection(),
    secrets: value(context.overrides.secrets ?? randomSecretGenerator),
    ids: value(context.ids),
    clock: value(context.clock),
    urlPolicy: value({ allowInsecureLocalReceivers: context.config.allowInsecureLocalReceivers }),
  };
}
