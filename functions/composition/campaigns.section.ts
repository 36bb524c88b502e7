/** Ports over the messaging table's campaign items (shared/adapters/dynamodb/campaign-items.ts). DynamoDB only. */
import { DynamoDbCampaignStore } from '../../shared/adapters/dynamodb/dynamodb-campaign-store';
import { DynamoDbPersonClaims } from '../../shared/adapters/dynamodb/dynamodb-person-claims';
import { requireSetting } from '../../shared/config/app-config';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';

const messagingTable = (context: CompositionContext) => requireSetting(context.config.tableNames.messaging, 'MESSAGING_TABLE');

/** Campaigns (CampaignStore): create, read, list, the launch and the expander's checkpoints. */
export const campaignStoreSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbCampaignStore(dynamoDb.document, messagingTable(context)));

/** One claim per person per campaign (PersonClaims): the expander's exactly-once ledger of people. */
export const personClaimsSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbPersonClaims(dynamoDb.document, messagingTable(context), context.clock));
