/** Tracked links (docs/OUTCOMES.md "Tracked links"): the link key, destinations, Meta click ids and click facts over the messaging table. DynamoDB + the token cipher. */
import { DynamoDbClickCorrelations } from '../../shared/adapters/dynamodb/dynamodb-click-correlations';
import { DynamoDbClickDestinations } from '../../shared/adapters/dynamodb/dynamodb-click-destinations';
import { DynamoDbClickLinkKeyStore } from '../../shared/adapters/dynamodb/dynamodb-click-link-key-store';
import { DynamoDbOutcomeStore } from '../../shared/adapters/dynamodb/dynamodb-outcome-store';
import { ClickLinkKeys } from '../../shared/clicks/click-link-key';
import { requireSetting } from '../../shared/config/app-config';
import type { TokenCipher } from '../../shared/crypto/token-cipher';
import { platformMetrics } from '../../runtime-contract/observability';
import { logger } from '../../shared/observability/logger';
import { memoize, type CompositionContext } from './composition-context';
import type { DynamoDbClients } from './dynamodb-clients';
import { publishedCount } from './published-count';

const messagingTable = (context: CompositionContext) => requireSetting(context.config.tableNames.messaging, 'MESSAGING_TABLE');

/** The link key, read once per container (the section is built once per function). */
export const clickLinkKeysSection = (context: CompositionContext, dynamoDb: DynamoDbClients, cipher: () => TokenCipher) =>
  memoize(() => new ClickLinkKeys(new DynamoDbClickLinkKeyStore(dynamoDb.document, messagingTable(context)), cipher()));

export const clickDestinationsSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbClickDestinations(dynamoDb.document, messagingTable(context)));

export const clickCorrelationsSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbClickCorrelations(dynamoDb.document, messagingTable(context)));

export const outcomeStoreSection = (context: CompositionContext, dynamoDb: DynamoDbClients) =>
  memoize(() => new DynamoDbOutcomeStore(dynamoDb.document, messagingTable(context)));

/**
 * The redirect's report of a click it could not count: logged with the fault's name only (the
 * token names a recipient, so it is not logged) and counted as `ClicksNotCounted`, published at once.
 */
export function clickNotCountedSection(context: CompositionContext): () => (fault: unknown) => void {
  const count = publishedCount(context, platformMetrics.clicksNotCounted);
  return () => (fault) => {
    logger.error('click not counted', { fault: (fault as Error)?.name ?? 'unknown' });
    count();
  };
}
