import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { getCampaign as readCampaign } from '../../shared/campaigns/get-campaign';
import type { BroadcastCampaignsPorts } from './broadcast-campaigns.composition';

export const getCampaign = httpOperation('broadcast-api-key', async (request, ports: BroadcastCampaignsPorts) => {
  const campaignId = request.pathParameters.campaignId ?? '';
  const view = await readCampaign(ports, request.caller, campaignId, { now: ports.clock.now(), unconfirmedAfterMs: ports.unconfirmedAfterMs });
  return { statusCode: 200, body: broadcastEnvelope(200, `Campaign is ${view.state}`, view) };
});
