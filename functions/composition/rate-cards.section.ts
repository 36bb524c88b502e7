/** Rate cards (tenancy table): the store the admin CLI writes, the cached source the dry run and the status summary read. DynamoDB. */
import { DynamoDbRateCardStore } from '../../shared/adapters/dynamodb/dynamodb-rate-card-store';
import { requireSetting } from '../../shared/config/app-config';
import type { RateCardSource } from '../../shared/pricing/rate-card';
import { CachedRateCards, type RateCardStore } from '../../shared/pricing/rate-cards';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';

export function rateCardStoreSection(context: CompositionContext, dynamoDb: DynamoDbClients): () => RateCardStore {
  return memoize(() => new DynamoDbRateCardStore(dynamoDb.document, requireSetting(context.config.tableNames.tenancy, 'TENANCY_TABLE')));
}

/** One cache per container (a minute per owner: shared/pricing/rate-cards.ts). */
export function rateCardSourceSection(context: CompositionContext, dynamoDb: DynamoDbClients): () => RateCardSource {
  const store = rateCardStoreSection(context, dynamoDb);
  return memoize(() => new CachedRateCards(store(), context.clock));
}
