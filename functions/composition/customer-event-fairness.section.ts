/**
 * Customer events' fair share (docs/CUSTOMER-WEBHOOKS.md "Fairness"): the endpoints' health (the
 * dispatcher's concurrency leases and circuit breakers) and the daily redelivery quota (the
 * /redeliver route), both in the rateLimits table. DynamoDB.
 */
import { DynamoDbRedeliveryQuota } from '../../shared/adapters/dynamodb/dynamodb-redelivery-quota';
import { DynamoDbWebhookEndpointHealth } from '../../shared/adapters/dynamodb/dynamodb-webhook-endpoint-health';
import { requireSetting } from '../../shared/config/app-config';
import { OpenBreakerCache } from '../../shared/customer-events/open-breaker-cache';
import type { RedeliveryQuotaPorts } from '../../shared/customer-events/redelivery-quota';
import { memoize, value, type CompositionContext, type PortFactories } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';

const rateLimitsTable = (context: CompositionContext) => requireSetting(context.config.tableNames.rateLimits, 'RATE_LIMIT_TABLE');

/** The health store, with open breakers remembered in this process (a dead endpoint's returning deliveries cost no read). */
export const endpointHealthSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new OpenBreakerCache(new DynamoDbWebhookEndpointHealth(dynamoDb.document, rateLimitsTable(context))));

/** What the /redeliver route adds to the delivery ports: the quota store and the day's limit. */
export const redeliveryQuotaSection = (context: CompositionContext, dynamoDb: DynamoDbClients): PortFactories<RedeliveryQuotaPorts> => ({
  redeliveryQuota: memoize(() => new DynamoDbRedeliveryQuota(dynamoDb.document, rateLimitsTable(context))),
  redeliveriesPerDay: value(context.config.customerEvents.redeliveriesPerDay),
});
