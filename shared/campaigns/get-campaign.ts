/**
 * GET /campaigns/{campaignId}: one campaign of the caller's organization, as its view (campaign-view.ts).
 * A campaign outside the key's scope (another sender of a bound key; a minted key's are only its own)
 * or of another organization answers as one that does not exist.
 */
import type { StatusReading } from '../broadcast/get-job-status';
import { isJobInScope, requireOperationInScope, type ScopedCaller } from '../broadcast/key-scope';
import { isCampaignIdShape, type Campaign } from './campaign';
import { readCampaignView, type CampaignView, type CampaignViewPorts } from './campaign-view';
import { CampaignNotFoundError } from './errors';
import type { CampaignStore } from './ports';

export interface CampaignReadPorts extends CampaignViewPorts {
  campaigns: Pick<CampaignStore, 'getCampaign' | 'listCampaigns'>;
}

/**
 * The campaign a caller may read, or CampaignNotFoundError: every read of a campaign goes through here.
 *
 * @example
 * const campaign = await readableCampaign(campaigns, caller, 'cmp_01J…');
 */
export async function readableCampaign(campaigns: Pick<CampaignStore, 'getCampaign'>, caller: ScopedCaller, campaignId: string): Promise<Campaign> {
  requireOperationInScope(caller, 'read-job-status');
  if (!isCampaignIdShape(campaignId)) throw new CampaignNotFoundError(campaignId);
  const campaign = await campaigns.getCampaign(caller.organizationId, campaignId);
  if (!campaign || campaign.organizationId !== caller.organizationId || !isJobInScope(caller, campaign)) throw new CampaignNotFoundError(campaignId);
  return campaign;
}

/**
 * @example
 * await getCampaign(ports, caller, 'cmp_01J…', { now: new Date(), unconfirmedAfterMs }); // { campaignId, state: 'SENDING', totals: { … }, … }
 */
export async function getCampaign(ports: CampaignReadPorts, caller: ScopedCaller, campaignId: string, reading: StatusReading): Promise<CampaignView> {
  return readCampaignView(ports, await readableCampaign(ports.campaigns, caller, campaignId), reading);
}
