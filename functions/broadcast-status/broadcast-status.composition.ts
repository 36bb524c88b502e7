/** broadcast-status: tenancy (read), messaging (read), rate limits. DynamoDB only. */
import { chunkProgressAdapter, jobStoreAdapter, recipientLedgerAdapter } from '../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import type { ChunkProgressStore, JobStore, RecipientLedger } from '../../shared/broadcast/ports';
import type { Clock } from '../../shared/ports/clock';
import type { HttpPipelineDependencies } from '../../shared/http/http-operation';
import { lazyPorts, value, type CompositionContext } from '../composition/composition-context';
import { dynamoDbClients } from '../composition/dynamodb-clients';
import { httpSection } from '../composition/http.section';
import { broadcastStoresSection } from '../composition/messaging.section';
import { tenancyReaderSection } from '../composition/tenancy.section';
import { rateCardSourceSection } from '../composition/rate-cards.section';
import type { RateCardSource } from '../../shared/pricing/rate-card';
import type { CampaignStore } from '../../shared/campaigns/ports';
import { campaignStoreSection } from '../composition/campaigns.section';

/** What the status and recipients operations read with. */
export interface BroadcastStatusPorts {
  broadcasts: JobStore & ChunkProgressStore & RecipientLedger;
  clock: Clock;
  /** An unknown outcome with no event for this long reads UNCONFIRMED (UNCONFIRMED_AFTER_HOURS). */
  unconfirmedAfterMs: number;
  /** The status summary's `cost` (docs/BROADCAST.md "Cost per campaign"). */
  rateCards?: RateCardSource;
}

/** A campaign's recipients read its campaign first (list-campaign-recipients.handler.ts). */
export interface CampaignReadPorts {
  campaigns: Pick<CampaignStore, 'getCampaign'>;
}

export interface BroadcastStatusDependencies extends HttpPipelineDependencies, BroadcastStatusPorts, CampaignReadPorts {}

export function composeBroadcastStatus(context: CompositionContext): BroadcastStatusDependencies {
  const dynamoDb = dynamoDbClients(context);
  return lazyPorts<BroadcastStatusDependencies>({
    ...httpSection(context, dynamoDb, tenancyReaderSection(context, dynamoDb)),
    broadcasts: broadcastStoresSection(context, dynamoDb, [jobStoreAdapter, chunkProgressAdapter, recipientLedgerAdapter]),
    unconfirmedAfterMs: value(context.config.delivery.unconfirmedAfterMs),
    rateCards: rateCardSourceSection(context, dynamoDb),
    campaigns: campaignStoreSection(context, dynamoDb),
  });
}
