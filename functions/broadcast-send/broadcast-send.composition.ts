/** broadcast-send: tenancy, messaging, idempotency, rate limits, inbox (read: the service window, opt-outs), the outbound queue, the Cloud API. DynamoDB + SQS + KMS. */
import { everyBroadcastStoreAdapter } from '../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import type { EarlierSendDependencies } from '../../shared/broadcast/send-earlier-template';
import type { SendFreeformDependencies } from '../../shared/broadcast/send-freeform-message';
import type { SendTemplateBroadcastDependencies } from '../../shared/broadcast/send-template-broadcast';
import type { DryRunDependencies } from '../../shared/broadcast/dry-run-broadcast';
import type { RateCardSource } from '../../shared/pricing/rate-card';
import type { ChunkProgressStore, JobControlStore, JobFiringScheduler, JobStore } from '../../shared/broadcast/ports';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import type { Clock } from '../../shared/ports/clock';
import type { CloudApiClient } from '../../shared/sending/ports';
import { cloudApiSection, marketingMessagesOnboardingSection, messagingTiersSection, templateCatalogSection } from '../composition/cloud-api.section';
import { lazyPorts, memoize, value, type CompositionContext, type PortFactories } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { auditSection } from '../composition/audit.section';
import { httpSection } from '../composition/http.section';
import { idempotencySection } from '../composition/idempotency.section';
import {
  broadcastNamesSection,
  broadcastStoresSection,
  portfolioReachSection,
  scheduledJobStoreSection,
  serviceMessageCounterSection,
  templateStatesSection,
  wrapperIdRecordsSection,
} from '../composition/messaging.section';
import { jobFiringSchedulerSection } from '../composition/job-firing.section';
import { billingSection, senderDirectorySection, serviceWindowSection, suppressionListSection } from '../composition/module-bridges.section';
import { inboxRepositorySection } from '../composition/inbox.section';
import { outboundQueueSection } from '../composition/outbound-queue.section';
import { tenancySection } from '../composition/tenancy.section';
import { tokenCipherSection } from '../composition/token-cipher.section';
import { rateCardSourceSection } from '../composition/rate-cards.section';
import { customerEventPublisherSection } from '../composition/customer-events.section';
import { webhookSubscribersSection } from '../composition/webhook-subscribers.section';
import type { CustomerEventPublisher } from '../../shared/customer-events/ports';
import type { CampaignStore, ExpansionQueue } from '../../shared/campaigns/ports';
import { expansionQueueSection } from '../composition/expansion-queue.section';
import { campaignStoreSection } from '../composition/campaigns.section';

export interface BroadcastServices
  extends SendTemplateBroadcastDependencies,
    Omit<DryRunDependencies, 'scheduling'>,
    EarlierSendDependencies,
    SendFreeformDependencies {
  upstream: CloudApiClient;
  /** The dry run's estimate (`?dryRun=true`). */
  rateCards: RateCardSource;
}

/** What cancelling a job needs (cancel-job.handler.ts); resuming one (resume-job.handler.ts) needs the same. */
export interface JobCancellationPorts {
  broadcasts: JobStore & JobControlStore & ChunkProgressStore;
  clock: Clock;
  /** An unknown outcome with no event for this long reads UNCONFIRMED in the answer's summary. */
  unconfirmedAfterMs: number;
  /** A scheduled job's trigger is removed with it. */
  scheduling?: { firings: JobFiringScheduler };
}

/** Customer events of a person's pause (`job.paused`, `campaign.paused`: shared/broadcast/pause-events.ts). */
export interface PauseEventsPort {
  events: CustomerEventPublisher;
}

/** What a campaign's pause, resume and cancel need (campaign-controls.handler.ts): the job's, and the campaign store. */
export interface CampaignControlDependencies extends JobCancellationPorts, PauseEventsPort {
  campaigns: Pick<CampaignStore, 'getCampaign' | 'cancelUnlaunched'>;
  expansions: ExpansionQueue;
}

export type BroadcastSendDependencies = BroadcastServices & CampaignControlDependencies & HttpPipelineDependencies;

/** The send ports without the HTTP pipeline's (also used by the whole-platform services). */
export function broadcastSendPorts(
  context: CompositionContext,
): PortFactories<BroadcastServices & Pick<JobCancellationPorts, 'broadcasts'>> & { tenancy: ReturnType<typeof tenancySection> } {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancySection(context, dynamoDb, { cipher: tokenCipherSection(context) });
  const cloudApi = memoize(() => cloudApiSection(context));
  const inbox = inboxRepositorySection(context, dynamoDb);
  return {
    tenancy,
    upstream: () => cloudApi().upstream,
    templates: templateCatalogSection(context, cloudApi, templateStatesSection(context, dynamoDb)),
    clock: value(context.clock),
    ids: value(context.ids),
    senders: senderDirectorySection(context, tenancy),
    broadcasts: broadcastStoresSection(context, dynamoDb, everyBroadcastStoreAdapter),
    queue: outboundQueueSection(context),
    idempotency: idempotencySection(context, dynamoDb),
    billing: billingSection(tenancy),
    broadcastNames: broadcastNamesSection(context, dynamoDb),
    serviceWindow: serviceWindowSection(inbox),
    optOuts: suppressionListSection(inbox),
    media: wrapperIdRecordsSection(context, dynamoDb),
    messagingTiers: messagingTiersSection(context, cloudApi),
    marketingMessages: marketingMessagesOnboardingSection(context, cloudApi),
    portfolioReach: portfolioReachSection(context, dynamoDb),
    rateCards: rateCardSourceSection(context, dynamoDb),
    serviceTier: serviceMessageCounterSection(context, dynamoDb),
    // Built part by part on first use: a request without scheduledAt never touches the Scheduler client.
    scheduling: memoize(() =>
      lazyPorts({
        scheduledJobs: scheduledJobStoreSection(context, dynamoDb),
        firings: jobFiringSchedulerSection(context),
        minLeadSeconds: value(context.config.scheduling.minLeadSeconds),
      }),
    ),
  };
}

export function composeBroadcastSend(context: CompositionContext): BroadcastSendDependencies {
  const { tenancy, ...ports } = broadcastSendPorts(context);
  const dynamoDb = dynamoDbClients(context);
  return lazyPorts<BroadcastSendDependencies>({
    ...httpSection(context, dynamoDb, tenancy),
    ...auditSection(context, dynamoDb),
    ...ports,
    events: customerEventPublisherSection(context, dynamoDb, webhookSubscribersSection(context, dynamoDb)),
    campaigns: campaignStoreSection(context, dynamoDb),
    expansions: expansionQueueSection(context),
    unconfirmedAfterMs: value(context.config.delivery.unconfirmedAfterMs),
  });
}
