/**
 * The send rules' stores (docs/CAMPAIGNS.md "Frequency caps"): the contact policy (tenancy table),
 * its per-container cached read (CONTACT_POLICY_CACHE_SECONDS), and the per-person frequency cap
 * records (messaging table). DynamoDB.
 */
import { DynamoDbContactPolicyStore } from '../../shared/adapters/dynamodb/dynamodb-contact-policy-store';
import { DynamoDbFrequencyCapStore } from '../../shared/adapters/dynamodb/dynamodb-frequency-cap-store';
import { requireSetting } from '../../shared/config/app-config';
import { CachedContactPolicies } from '../../shared/send-rules/contact-policy';
import type { ContactPolicyStore, FrequencyCapStore } from '../../shared/send-rules/ports';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';

export function contactPolicyStoreSection(context: CompositionContext, dynamoDb: DynamoDbClients): () => ContactPolicyStore {
  return memoize(() => new DynamoDbContactPolicyStore(dynamoDb.document, requireSetting(context.config.tableNames.tenancy, 'TENANCY_TABLE')));
}

/** One cache per container: a changed policy applies within `contactPolicy.cacheMs`. */
export function cachedContactPoliciesSection(context: CompositionContext, dynamoDb: DynamoDbClients): () => Pick<ContactPolicyStore, 'policyOf'> {
  const store = contactPolicyStoreSection(context, dynamoDb);
  return memoize(() => new CachedContactPolicies(store(), context.clock, context.config.contactPolicy.cacheMs));
}

export function frequencyCapStoreSection(context: CompositionContext, dynamoDb: DynamoDbClients): () => FrequencyCapStore {
  return memoize(() => new DynamoDbFrequencyCapStore(dynamoDb.document, requireSetting(context.config.tableNames.messaging, 'MESSAGING_TABLE')));
}
