/**
 * GET /campaigns/{campaignId}: one campaign of the caller's organization, as its view (campaign-view.ts).
 * A campaign outside the key's scope (another sender of a bound key; a minted key's are only its own)
 * or of another organization answers as one that does not exist (campaign-access.ts).
 */
import type { StatusReading } from '../broadcast/get-job-status';
import { isCampaignIdShape } from './campaign';
import { readableCampaign } from './campaign-access';
import { readCampaignView, type CampaignView, type CampaignViewPorts } from './campaign-view';
import { CampaignNotFoundError } from './errors';
import type { CampaignStore } from './ports';

export interface CampaignReadPorts extends CampaignViewPorts {
  campaigns: Pick<CampaignStore, 'getCampaign' | 'listCampaigns'>;
}

/**
 * @example
 * await getCampaign(ports, caller, 'cmp_01J…', { now: new Date(), unconfirmedAfterMs }); // { campaignId, state: 'SENDING', totals: { … }, … }
 */
export async function getCampaign(
  ports: CampaignReadPorts,
  caller: Parameters<typeof readableCampaign>[1],
  campaignId: string,
  reading: StatusReading,
): Promise<CampaignView> {
  // Not an id this platform issues: no store read (the key is built from it).
  if (!isCampaignIdShape(campaignId)) throw new CampaignNotFoundError(campaignId);
  return readCampaignView(ports, await readableCampaign(ports.campaigns, caller, campaignId), reading);
}
