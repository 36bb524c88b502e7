/** broadcast-campaigns: tenancy (read), messaging (campaigns, their jobs), inbox (read: audiences, contacts), rate limits, the Cloud API (templates), the campaign-expansion queue (launch). DynamoDB + SQS + KMS. */
import { chunkProgressAdapter, jobStoreAdapter } from '../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import type { CreateCampaignDependencies } from '../../shared/campaigns/create-campaign';
import type { CampaignReadPorts } from '../../shared/campaigns/get-campaign';
import type { LaunchCampaignDependencies } from '../../shared/campaigns/launch-campaign';
import type { CampaignDryRunDependencies } from '../../shared/campaigns/campaign-dry-run';
import { inboxRepositorySection } from '../composition/inbox.section';
import type { ChunkProgressStore, JobStore } from '../../shared/broadcast/ports';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import { audienceMemberSourceSection } from '../composition/audiences.section';
import { campaignStoreSection } from '../composition/campaigns.section';
import { cloudApiSection, marketingMessagesOnboardingSection, messagingTiersSection, templateCatalogSection } from '../composition/cloud-api.section';
import { expansionQueueSection } from '../composition/expansion-queue.section';
import { lazyPorts, memoize, value, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { auditSection } from '../composition/audit.section';
import { httpSection } from '../composition/http.section';
import { broadcastStoresSection, portfolioReachSection, templateStatesSection, wrapperIdRecordsSection } from '../composition/messaging.section';
import { organizationStandingSection, senderDirectorySection, suppressionListSection } from '../composition/module-bridges.section';
import { rateCardSourceSection } from '../composition/rate-cards.section';
import { tenancySection } from '../composition/tenancy.section';
import { tokenCipherSection } from '../composition/token-cipher.section';

/** What the campaign operations read and write with. */
export interface BroadcastCampaignsPorts
  extends CreateCampaignDependencies,
    CampaignReadPorts,
    Omit<LaunchCampaignDependencies, 'campaigns' | 'broadcasts' | 'senders' | 'templates' | 'clock' | 'ids'>,
    Omit<CampaignDryRunDependencies, 'campaigns' | 'senders' | 'templates' | 'clock' | 'members' | 'rateCards'> {
  members: LaunchCampaignDependencies['members'] & CampaignDryRunDependencies['members'];
  campaigns: CreateCampaignDependencies['campaigns'] & CampaignReadPorts['campaigns'] & LaunchCampaignDependencies['campaigns'];
  broadcasts: JobStore & ChunkProgressStore;
  /** An unknown outcome with no event for this long reads UNCONFIRMED (UNCONFIRMED_AFTER_HOURS). */
  unconfirmedAfterMs: number;
}

export interface BroadcastCampaignsDependencies extends HttpPipelineDependencies, BroadcastCampaignsPorts {}

export function composeBroadcastCampaigns(context: CompositionContext): BroadcastCampaignsDependencies {
  const dynamoDb = dynamoDbClients(context);
  const tenancy = tenancySection(context, dynamoDb, { cipher: tokenCipherSection(context) });
  const cloudApi = memoize(() => cloudApiSection(context));
  const members = audienceMemberSourceSection(context, dynamoDb);
  const inbox = inboxRepositorySection(context, dynamoDb);
  return lazyPorts<BroadcastCampaignsDependencies>({
    ...httpSection(context, dynamoDb, tenancy),
    ...auditSection(context, dynamoDb),
    senders: senderDirectorySection(context, tenancy),
    templates: templateCatalogSection(context, cloudApi, templateStatesSection(context, dynamoDb)),
    audiences: members,
    members,
    expansions: expansionQueueSection(context),
    standing: organizationStandingSection(tenancy),
    marketingMessages: marketingMessagesOnboardingSection(context, cloudApi),
    campaigns: campaignStoreSection(context, dynamoDb),
    broadcasts: broadcastStoresSection(context, dynamoDb, [jobStoreAdapter, chunkProgressAdapter]),
    media: wrapperIdRecordsSection(context, dynamoDb),
    rateCards: rateCardSourceSection(context, dynamoDb),
    clock: value(context.clock),
    ids: value(context.ids),
    scheduling: value({ minLeadSeconds: context.config.scheduling.minLeadSeconds }),
    unconfirmedAfterMs: value(context.config.delivery.unconfirmedAfterMs),
    // The launch's dry run (campaign-dry-run.ts): pairs, opt-outs and the messaging limit, read only.
    contactBook: inbox,
    optOuts: suppressionListSection(inbox),
    messagingTiers: messagingTiersSection(context, cloudApi),
    portfolioReach: portfolioReachSection(context, dynamoDb),
  });
}
