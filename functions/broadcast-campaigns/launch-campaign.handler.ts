import { broadcastEnvelope } from '../../shared/http/surface-responses';
import { httpOperation } from '../../shared/http/http-operation';
import { idempotencyKeyOf } from '../../shared/broadcast/idempotency-key';
import { isCampaignIdShape } from '../../shared/campaigns/campaign';
import { CampaignNotFoundError } from '../../shared/campaigns/errors';
import { launchCampaign as launch } from '../../shared/campaigns/launch-campaign';
import { parseRequest } from '../../shared/http/validation';
import { broadcastQuerySchema } from '../../shared/broadcast/dry-run-request';
import { dryRunCampaign } from '../../shared/campaigns/campaign-dry-run';
import type { BroadcastCampaignsPorts } from './broadcast-campaigns.composition';

export const launchCampaign = httpOperation('broadcast-api-key', async (request, ports: BroadcastCampaignsPorts) => {
  const campaignId = request.pathParameters.campaignId ?? '';
  if (!isCampaignIdShape(campaignId)) throw new CampaignNotFoundError(campaignId);
  if (parseRequest(broadcastQuerySchema, request.query, 'query').dryRun === 'true') {
    // What the launch would do, read with the expander's rules; nothing written (docs/CAMPAIGNS.md "Dry run").
    const result = await dryRunCampaign(ports, request.caller, campaignId);
    return { statusCode: 200, body: broadcastEnvelope(200, `Dry run of campaign ${campaignId}: ${result.sendable} sendable; nothing was sent`, result) };
  }
  const launched = await launch(ports, request.caller, campaignId, { idempotencyKey: idempotencyKeyOf(request.headers) });
  return {
    statusCode: 202,
    headers: launched.replayed ? { 'Idempotent-Replayed': 'true' } : ({} as Record<string, string>),
    body: broadcastEnvelope(202, `Campaign ${campaignId} is ${launched.state}`, { campaignId, state: launched.state }),
  };
});
