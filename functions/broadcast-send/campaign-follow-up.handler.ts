import { httpOperation } from '../../shared/http/http-operation';
import { isCampaignIdShape } from '../../shared/campaigns/campaign';
import { campaignJobForFollowUp } from '../../shared/campaigns/campaign-access';
import { CampaignNotFoundError } from '../../shared/campaigns/errors';
import type { BroadcastSendDependencies } from './broadcast-send.composition';
import { answerFollowUp } from './follow-up.handler';

/**
 * POST /campaigns/{campaignId}/follow-up: the follow-up of the campaign's job, answered as the job's
 * (docs/CAMPAIGNS.md "Recipients and follow-ups": its audience rules, the 131049 guard, the size limits).
 */
export const campaignFollowUp = httpOperation('broadcast-api-key', async (request, dependencies: BroadcastSendDependencies) => {
  const campaignId = request.pathParameters.campaignId ?? '';
  if (!isCampaignIdShape(campaignId)) throw new CampaignNotFoundError(campaignId);
  const jobId = await campaignJobForFollowUp(dependencies.campaigns, request.caller, campaignId);
  return answerFollowUp(request, dependencies, jobId);
});
