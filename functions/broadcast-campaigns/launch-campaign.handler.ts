import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { idempotencyKeyOf } from '../../shared/broadcast/idempotency-key';
import { isCampaignIdShape } from '../../shared/campaigns/campaign';
import { CampaignNotFoundError } from '../../shared/campaigns/errors';
import { launchCampaign as launch } from '../../shared/campaigns/launch-campaign';
import type { BroadcastCampaignsPorts } from './broadcast-campaigns.composition';

export const launchCampaign = httpOperation('broadcast-api-key', async (request, ports: BroadcastCampaignsPorts) => {
  const campaignId = request.pathParameters.campaignId ?? '';
  if (!isCampaignIdShape(campaignId)) throw new CampaignNotFoundError(campaignId);
  const launched = await launch(ports, request.caller, campaignId, { idempotencyKey: idempotencyKeyOf(request.headers) });
  return {
    statusCode: 202,
    headers: launched.replayed ? { 'Idempotent-Replayed': 'true' } : ({} as Record<string, string>),
    body: broadcastEnvelope(202, `Campaign ${campaignId} is ${launched.state}`, { campaignId, state: launched.state }),
  };
});
