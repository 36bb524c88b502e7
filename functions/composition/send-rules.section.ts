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
import type { FrequencyCapPorts } from '../../shared/broadcast/chunk-worker/frequency-caps';
import { memoize, type CompositionContext } from './composition-context';
import { inboxRepositorySection } from './inbox.section';
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

/**
 * What the chunk worker reads and writes for the cap, as one flat port (each call retried like the
 * worker's other store calls): the cached policy, the contact book's pairs (inbox table), the records.
 */
export function frequencyCapPortsSection(context: CompositionContext, dynamoDb: DynamoDbClients): () => FrequencyCapPorts {
  const policies = cachedContactPoliciesSection(context, dynamoDb);
  const contactBook = inboxRepositorySection(context, dynamoDb);
  const caps = frequencyCapStoreSection(context, dynamoDb);
  return memoize(
    (): FrequencyCapPorts => ({
      policyOf: (organizationId) => policies().policyOf(organizationId),
      pairsOf: (organizationId, keys) => contactBook().pairsOf(organizationId, keys),
      reserve: (organizationId, personKey, send, limit) => caps().reserve(organizationId, personKey, send, limit),
      release: (organizationId, personKey, sendId) => caps().release(organizationId, personKey, sendId),
    }),
  );
}
