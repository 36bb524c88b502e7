/** Customer webhook endpoints as event producers see them: subscribers only, no secrets (no token key). DynamoDB. */
import { DynamoDbWebhookEndpointRegistry } from '../../shared/adapters/dynamodb/dynamodb-webhook-endpoint-registry';
import { requireSetting } from '../../shared/config/app-config';
import { unconfiguredTokenCipher } from '../../shared/crypto/unconfigured-token-cipher';
import type { WebhookEndpointRegistry } from '../../shared/customer-events/ports';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';

/**
 * Who subscribes to what, for event producers (delivery-events, the chunk worker): they only list
 * endpoints and never touch a secret, so they get no token key (a decrypt would fail loudly).
 */
export function webhookSubscribersSection(context: CompositionContext, dynamoDb: DynamoDbClients): () => Pick<WebhookEndpointRegistry, 'subscribersOf'> {
  return memoize(
    () =>
      context.overrides.webhookEndpointRegistry ??
      new DynamoDbWebhookEndpointRegistry(
        dynamoDb.document,
        requireSetting(context.config.tableNames.tenancy, 'TENANCY_TABLE'),
        unconfiguredTokenCipher,
        context.clock,
      ),
  );
}
