import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { parseRequest } from '../../shared/http/validation';
import { listCampaigns as readCampaigns } from '../../shared/campaigns/list-campaigns';
import { campaignsQuerySchema } from '../../shared/campaigns/list-campaigns.schema';
import type { BroadcastCampaignsPorts } from './broadcast-campaigns.composition';

export const listCampaigns = httpOperation('broadcast-api-key', async (request, ports: BroadcastCampaignsPorts) => {
  const query = parseRequest(campaignsQuerySchema, request.query, 'query');
  const page = await readCampaigns(ports, request.caller, query, { now: ports.clock.now(), unconfirmedAfterMs: ports.unconfirmedAfterMs });
  return { statusCode: 200, body: broadcastEnvelope(200, `${page.campaigns.length} campaigns`, page) };
});
