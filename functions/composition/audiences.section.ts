/**
 * Saved audiences (the inbox table) and what a campaign reads of any audience, `contacts` included:
 * `audienceMemberSourceSection(context, dynamoDb)` is the one call a composition makes for a
 * `MemberSource`. DynamoDB only.
 */
import { DynamoDbAudienceStore } from '../../shared/adapters/dynamodb/dynamodb-audience-store';
import type { AudienceStore, MemberSource, OptOutKeyPages } from '../../shared/audiences/ports';
import { DynamoDbOptOutKeys } from '../../shared/adapters/dynamodb/dynamodb-opt-out-keys';
import { requireSetting } from '../../shared/config/app-config';
import { AudienceMemberSource } from '../../shared/module-bridges/audience-member-source';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';
import { inboxRepositorySection } from './inbox.section';

export function audienceStoreSection(context: CompositionContext, dynamoDb: DynamoDbClients): () => AudienceStore {
  return memoize(() => new DynamoDbAudienceStore(dynamoDb.document, requireSetting(context.config.tableNames.inbox, 'INBOX_TABLE')));
}

/** Saved audiences from the audience store, `contacts` from the inbox's v1 contacts and contact book. */
export function audienceMemberSourceSection(
  context: CompositionContext,
  dynamoDb: DynamoDbClients,
  audiences: () => AudienceStore = audienceStoreSection(context, dynamoDb),
): () => MemberSource {
  const inbox = inboxRepositorySection(context, dynamoDb);
  return memoize(() => new AudienceMemberSource({ audiences: audiences(), inbox: inbox(), contactBook: inbox(), clock: context.clock }));
}

/** The organization's opt-out list as keys page by page (an audience's `optedOutCount`). */
export function optOutKeysSection(context: CompositionContext, dynamoDb: DynamoDbClients): () => OptOutKeyPages {
  return memoize(() => new DynamoDbOptOutKeys(dynamoDb.document, requireSetting(context.config.tableNames.inbox, 'INBOX_TABLE')));
}
