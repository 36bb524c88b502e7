/**
 * Which campaigns a caller may read and control: its organization's, within its key's scope as for
 * jobs (a sender key: the campaigns from its number; a key minted by generate-key: the campaigns it
 * created). Another organization's campaign, or one outside the scope, reads as unknown (404).
 */
import { FollowUpAudienceError } from '../broadcast/errors';
import { isJobInScope, requireOperationInScope, type ScopedCaller } from '../broadcast/key-scope';
import type { Campaign } from './campaign';
import { CampaignNotFoundError } from './errors';
import type { CampaignStore } from './ports';

/**
 * The caller's campaign, or CampaignNotFoundError.
 *
 * @example
 * const campaign = await readableCampaign(campaigns, caller, 'cmp_1'); // the campaign, its `jobId` once launched
 */
export async function readableCampaign(campaigns: Pick<CampaignStore, 'getCampaign'>, caller: ScopedCaller, campaignId: string): Promise<Campaign> {
  requireOperationInScope(caller, 'read-job-status');
  const campaign = await campaigns.getCampaign(caller.organizationId, campaignId);
  if (!campaign || !isJobInScope(caller, campaign)) throw new CampaignNotFoundError(campaignId);
  return campaign;
}

/**
 * The job a follow-up of the campaign follows up (its recipients are the campaign's). A campaign not
 * launched has nobody to follow up: FollowUpAudienceError (422), as a follow-up reaching nobody.
 *
 * @example
 * const jobId = await campaignJobForFollowUp(campaigns, caller, 'cmp_1'); // 'pub_…'
 */
export async function campaignJobForFollowUp(campaigns: Pick<CampaignStore, 'getCampaign'>, caller: ScopedCaller, campaignId: string): Promise<string> {
  const campaign = await readableCampaign(campaigns, caller, campaignId);
  if (campaign.jobId === undefined)
    throw new FollowUpAudienceError(`audience reaches nobody: campaign ${campaignId} has not been launched; nothing was queued`);
  return campaign.jobId;
}
