/**
 * Attribution of replies, taps and STOPs (shared/outcomes/attribute-inbound.ts, docs/OUTCOMES.md
 * "Attribution") over the messaging table: the outcome facts in the job's tally items, the
 * people's touches, and the WAMID records the ledger already keeps. DynamoDB only.
 */
import { DynamoDbLedgerDeliveryStore } from '../../shared/adapters/dynamodb/dynamodb-ledger-delivery-store';
import { DynamoDbOutcomeStore } from '../../shared/adapters/dynamodb/dynamodb-outcome-store';
import { DynamoDbTouchStore } from '../../shared/adapters/dynamodb/dynamodb-touch-store';
import { requireSetting } from '../../shared/config/app-config';
import { InboundAttribution } from '../../shared/outcomes/attribute-inbound';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';

const messagingTable = (context: CompositionContext) => requireSetting(context.config.tableNames.messaging, 'MESSAGING_TABLE');

/** A recipient's outcome facts (replies, taps, clicks, attributed opt-outs) in their job's tally item. */
export const outcomeStoreSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbOutcomeStore(dynamoDb.document, messagingTable(context)));

/** People's latest touches (the last send delivered to them, or a campaign that held them out). */
export const touchStoreSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbTouchStore(dynamoDb.document, messagingTable(context)));

/** The delivery processor's ReplyAttribution: touches on delivery, replies and taps on inbound messages. */
export const replyAttributionSection = (context: CompositionContext, dynamoDb: DynamoDbClients, ledger: () => DynamoDbLedgerDeliveryStore) =>
  memoize(
    () =>
      new InboundAttribution({
        ledger: ledger(),
        outcomes: outcomeStoreSection(context, dynamoDb)(),
        touches: touchStoreSection(context, dynamoDb)(),
        optOutKeywords: context.config.optOutKeywords,
      }),
  );
