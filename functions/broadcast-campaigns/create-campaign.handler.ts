import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { campaignRequestSchema } from '../../shared/campaigns/campaign-request.schema';
import { createCampaign as create } from '../../shared/campaigns/create-campaign';
import type { BroadcastCampaignsPorts } from './broadcast-campaigns.composition';

export const createCampaign = httpOperation('broadcast-api-key', async (request, dependencies: BroadcastCampaignsPorts) => {
  const campaign = await create(dependencies, request.caller, parseRequest(campaignRequestSchema, request.body));
  return { statusCode: 201, body: broadcastEnvelope(201, `Campaign ${campaign.campaignId} created as a draft`, campaign) };
});
