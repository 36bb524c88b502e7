/** Ports over the messaging table (jobs, chunks, ledger, pacer, portfolio reach, broadcast names, /upstream id and send records, template states). DynamoDB only. */
import { DynamoDbBroadcastNameRegistry } from '../../shared/adapters/dynamodb/dynamodb-broadcast-name-registry';
import { DynamoDbLedgerPageRepair } from '../../shared/adapters/dynamodb/dynamodb-ledger-page-repair';
import { dynamoDbBroadcastStores, type BroadcastStoreAdapter } from '../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import { DynamoDbScheduledJobStore } from '../../shared/adapters/dynamodb/dynamodb-scheduled-job-store';
import { DynamoDbUpstreamDeliveryStore } from '../../shared/adapters/dynamodb/dynamodb-upstream-delivery-store';
import { DynamoDbPortfolioReach } from '../../shared/adapters/dynamodb/dynamodb-portfolio-reach';
import { DynamoDbSendPacer } from '../../shared/adapters/dynamodb/dynamodb-send-pacer';
import { DynamoDbTemplateStates } from '../../shared/adapters/dynamodb/dynamodb-template-states';
import { DynamoDbWrapperIdRecords } from '../../shared/adapters/dynamodb/dynamodb-wrapper-id-records';
import { DynamoDbServiceMessageCounter } from '../../shared/adapters/dynamodb/dynamodb-service-message-counter';
import { requireSetting } from '../../shared/config/app-config';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';

const messagingTable = (context: CompositionContext) => requireSetting(context.config.tableNames.messaging, 'MESSAGING_TABLE');

/**
 * The broadcast stores a function's use cases take as their one `broadcasts` dependency, built
 * from the given adapters only (so its bundle carries no other):
 * `broadcastStoresSection(context, dynamoDb, [jobStoreAdapter, chunkProgressAdapter])`.
 */
export const broadcastStoresSection = <const Adapters extends readonly BroadcastStoreAdapter<object>[]>(
  context: CompositionContext,
  dynamoDb: DynamoDbClients,
  adapters: Adapters,
) => memoize(() => dynamoDbBroadcastStores(dynamoDb.document, messagingTable(context), adapters));

export const broadcastNamesSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbBroadcastNameRegistry(dynamoDb.document, messagingTable(context)));

export const sendPacerSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbSendPacer(dynamoDb.document, messagingTable(context)));

export const wrapperIdRecordsSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbWrapperIdRecords(dynamoDb.document, messagingTable(context)));

/** Status events of /upstream sends (UpstreamDeliveryStore) and received message ids (ReceivedMessageIds). */
export const upstreamDeliveryStoreSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbUpstreamDeliveryStore(dynamoDb.document, messagingTable(context), context.clock));
export const templateStatesSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbTemplateStates(dynamoDb.document, messagingTable(context)));

/** A business portfolio's hourly unique-recipient buckets (the messaging limit). */
export const portfolioReachSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbPortfolioReach(dynamoDb.document, messagingTable(context)));
/** Scheduled jobs: held chunk messages and the due index (gsi2). */
export const scheduledJobStoreSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbScheduledJobStore(dynamoDb.document, messagingTable(context)));

/** The ledger repair's page rewrite (shared/broadcast/ledger-repair.ts): the operators' CLI only. */
export const ledgerPageRepairSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbLedgerPageRepair(dynamoDb.document, messagingTable(context)));

/** Delivered service messages per number and UTC month (Meta's free tier, shared/delivery/service-tier.ts): counted by delivery-events, read by the dry run. */
export const serviceMessageCounterSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbServiceMessageCounter(dynamoDb.document, messagingTable(context)));
