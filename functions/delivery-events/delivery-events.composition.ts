/**
 * delivery-events: tenancy (read: who owns a number or an account), messaging (readWrite: ledger
 * facts and tally, outcome facts and touches: reply-attribution.section.ts), inbox (readWrite: inbound messages), the metaEvents queue it consumes. DynamoDB + SQS.
 *
 * The /upstream, inbound and template sinks come from their own modules' sections.
 */
import { DynamoDbLedgerDeliveryStore } from '../../shared/adapters/dynamodb/dynamodb-ledger-delivery-store';
import { SqsRedelivery } from '../../shared/adapters/sqs/sqs-redelivery';
import { requireSetting } from '../../shared/config/app-config';
import type { DeliveryEventPorts } from '../../shared/delivery/apply-webhook-batch';
import { TenancyOwnerDirectory } from '../../shared/module-bridges/tenancy-owner-directory';
import { logger } from '../../shared/observability/logger';
import { lazyPorts, memoize, value, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { sqsClient } from '../composition/sqs-client';
import { tenancyReaderSection } from '../composition/tenancy.section';
import { serviceMessageCounterSection, upstreamDeliveryStoreSection } from '../composition/messaging.section';
import {
  accountRefusalSinkSection,
  identityPairSinkSection,
  inboundMessageSinkSection,
  optOutRecorderSection,
  templateStatusSinkSection,
} from '../composition/delivery-sinks.section';
import { customerEventPublisherSection } from '../composition/customer-events.section';
import { webhookSubscribersSection } from '../composition/webhook-subscribers.section';
import { replyAttributionSection } from '../composition/reply-attribution.section';
import { clickCorrelationsSection } from '../composition/clicks.section';

export interface DeliveryEventsDependencies {
  ports: DeliveryEventPorts;
  redelivery: SqsRedelivery;
}

export function composeDeliveryEvents(context: CompositionContext): DeliveryEventsDependencies {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancyReaderSection(context, dynamoDb);
  const messagingTable = () => requireSetting(context.config.tableNames.messaging, 'MESSAGING_TABLE');
  const sqs = sqsClient(context);
  const upstreamSends = upstreamDeliveryStoreSection(context, dynamoDb);
  const optOuts = optOutRecorderSection(context, dynamoDb);
  const events = customerEventPublisherSection(context, dynamoDb, webhookSubscribersSection(context, dynamoDb));
  const ledger = memoize(() => new DynamoDbLedgerDeliveryStore(dynamoDb.document, messagingTable()));
  return {
    ports: lazyPorts<DeliveryEventPorts>({
      owners: memoize(() => new TenancyOwnerDirectory(tenancy().repository)),
      ledger,
      upstream: upstreamSends,
      receivedIds: upstreamSends,
      // Meta's link clicks the tracked links' redirect already counted (docs/OUTCOMES.md "Meta's click events").
      clickCorrelations: clickCorrelationsSection(context, dynamoDb),
      inbound: inboundMessageSinkSection(context, dynamoDb, tenancy),
      templates: templateStatusSinkSection(context, dynamoDb),
      serviceTier: serviceMessageCounterSection(context, dynamoDb),
      optOuts,
      preferences: optOuts,
      identities: identityPairSinkSection(context, dynamoDb),
      accountRefusals: accountRefusalSinkSection(context, dynamoDb, events),
      events,
      attribution: replyAttributionSection(context, dynamoDb, ledger),
      log: value({
        info: (message, attributes) => logger.info(message, attributes ?? {}),
        warn: (message, attributes) => logger.warn(message, attributes ?? {}),
      }),
    }),
    get redelivery() {
      return new SqsRedelivery(sqs(), requireSetting(context.config.queueUrls.metaEvents, 'META_EVENTS_QUEUE_URL'));
    },
  };
}
