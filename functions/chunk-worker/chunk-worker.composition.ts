/** chunk-worker and single-sender (chunk-consumer.ts): tenancy (read, token key), messaging (readWrite: jobs, ledger, pacer, template states), inbox (read: the opt-out list at send time), the lane queue it consumes (its re-queues), the customerEvents queue (job.completed), the Cloud API. DynamoDB + SQS + KMS. */
import { everyBroadcastStoreAdapter } from '../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import type { ProcessChunkDependencies } from '../../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import { ledgerOutcomeBatching } from '../../shared/adapters/dynamodb/ledger-page-items';
import { SendLatencyEstimate } from '../../shared/sending/in-flight-budget';
import { cloudApiSection } from '../composition/cloud-api.section';
import { lazyPorts, sleep, value, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { broadcastStoresSection, sendPacerSection, templateStatesSection } from '../composition/messaging.section';
import { inboxRepositorySection } from '../composition/inbox.section';
import { senderDirectorySection, suppressionListSection } from '../composition/module-bridges.section';
import { outboundQueueSection } from '../composition/outbound-queue.section';
import { tenancySection } from '../composition/tenancy.section';
import { tokenCipherSection } from '../composition/token-cipher.section';
import { customerEventPublisherSection } from '../composition/customer-events.section';
import { webhookSubscribersSection } from '../composition/webhook-subscribers.section';
import { clickLinkKeysSection } from '../composition/clicks.section';
import { frequencyCapPortsSection } from '../composition/send-rules.section';

export function composeChunkWorker(context: CompositionContext): ProcessChunkDependencies {
  const { worker } = context.config;
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancySection(context, dynamoDb, { cipher: tokenCipherSection(context) });
  return lazyPorts<ProcessChunkDependencies>({
    senders: senderDirectorySection(context, tenancy),
    broadcasts: broadcastStoresSection(context, dynamoDb, everyBroadcastStoreAdapter),
    queue: outboundQueueSection(context),
    templateStates: templateStatesSection(context, dynamoDb),
    optOuts: suppressionListSection(inboxRepositorySection(context, dynamoDb)),
    upstream: () => cloudApiSection(context).upstream,
    pacer: sendPacerSection(context, dynamoDb),
    clock: value(context.clock),
    sleep: value(sleep),
    random: value(Math.random),
    // One per process: a warm worker sizes its next chunk's lanes from the latency the last one saw.
    latency: value(new SendLatencyEstimate(worker.latencyPriorMs)),
    events: customerEventPublisherSection(context, dynamoDb, webhookSubscribersSection(context, dynamoDb)),
    // Tracked links: the platform's link key, made on the first tracked send, then kept per container.
    linkKeys: clickLinkKeysSection(context, dynamoDb, tokenCipherSection(context)),
    // The organization's frequency cap (docs/CAMPAIGNS.md "Frequency caps"): policy cached per container.
    frequencyCaps: frequencyCapPortsSection(context, dynamoDb),
    settings: value({
      ...context.config.sendPolicy,
      maxInFlight: worker.maxInFlight,
      minInFlight: worker.minInFlight,
      latencyPriorMs: worker.latencyPriorMs,
      safetyMarginMs: worker.safetyMarginMs,
      upstreamTimeoutMs: context.config.upstream.timeoutMs,
      // Whole ledger pages a flush (shared/adapters/dynamodb/ledger-page-items.ts `ledgerOutcomeBatching`).
      ...ledgerOutcomeBatching,
      flushIntervalMs: 250,
      pauseRecheckSeconds: worker.pauseRecheckSeconds,
      templatePauseTimeoutMs: worker.templatePauseTimeoutMs,
      waitingRecheckSeconds: worker.waitingRecheckSeconds,
    }),
  });
}
