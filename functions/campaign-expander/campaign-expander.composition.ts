/**
 * campaign-expander: messaging (readWrite: campaigns and their person claims, the job's chunks and
 * refused recipients, the messaging limit's buckets, the held-out members' touches), inbox (read: audiences, v1 contacts, the
 * contact book, opt-outs), tenancy (read, token key: the sender), the outbound, campaign-expansion
 * and customerEvents queues, the Cloud API (templates, messaging tier). DynamoDB + SQS + KMS.
 */
import { everyBroadcastStoreAdapter } from '../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import type { ExpandCampaignDependencies } from '../../shared/campaigns/expand-campaign';
import { EXPANSION_TIME_BUDGET_MS } from '../../shared/campaigns/expansion-timing';
import { audienceMemberSourceSection } from '../composition/audiences.section';
import { campaignStoreSection, personClaimsSection } from '../composition/campaigns.section';
import { cloudApiSection, messagingTiersSection, templateCatalogSection } from '../composition/cloud-api.section';
import { lazyPorts, memoize, value, type CompositionContext } from '../composition/composition-context';
import { customerEventPublisherSection } from '../composition/customer-events.section';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { expansionQueueSection } from '../composition/expansion-queue.section';
import { inboxRepositorySection } from '../composition/inbox.section';
import { broadcastStoresSection, portfolioReachSection, templateStatesSection } from '../composition/messaging.section';
import { senderDirectorySection, suppressionListSection } from '../composition/module-bridges.section';
import { outboundQueueSection } from '../composition/outbound-queue.section';
import { touchStoreSection } from '../composition/reply-attribution.section';
import { tenancySection } from '../composition/tenancy.section';
import { tokenCipherSection } from '../composition/token-cipher.section';
import { webhookSubscribersSection } from '../composition/webhook-subscribers.section';

export function composeCampaignExpander(context: CompositionContext): ExpandCampaignDependencies {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancySection(context, dynamoDb, { cipher: tokenCipherSection(context) });
  const cloudApi = memoize(() => cloudApiSection(context));
  const inbox = inboxRepositorySection(context, dynamoDb);
  return lazyPorts<ExpandCampaignDependencies>({
    campaigns: campaignStoreSection(context, dynamoDb),
    claims: personClaimsSection(context, dynamoDb),
    members: audienceMemberSourceSection(context, dynamoDb),
    contactBook: inbox,
    optOuts: suppressionListSection(inbox),
    broadcasts: broadcastStoresSection(context, dynamoDb, everyBroadcastStoreAdapter),
    queue: outboundQueueSection(context),
    // The held-out members' touches (docs/OUTCOMES.md "Holdout and lift"): one conditional put per key.
    touches: touchStoreSection(context, dynamoDb),
    expansions: expansionQueueSection(context),
    senders: senderDirectorySection(context, tenancy),
    templates: templateCatalogSection(context, cloudApi, templateStatesSection(context, dynamoDb)),
    messagingTiers: messagingTiersSection(context, cloudApi),
    portfolioReach: portfolioReachSection(context, dynamoDb),
    events: customerEventPublisherSection(context, dynamoDb, webhookSubscribersSection(context, dynamoDb)),
    clock: value(context.clock),
    // Wall time, not the clock port: a test's fixed clock must not stop the expander from yielding.
    budget: value({ timeMs: EXPANSION_TIME_BUDGET_MS, elapsedMs: () => performance.now(), maxDelaySeconds: context.config.campaigns.expansionMaxDelaySeconds }),
    watchTiming: value({ recheckSeconds: context.config.campaigns.canaryRecheckSeconds, haltCheckSeconds: context.config.campaigns.haltCheckSeconds }),
  });
}
