import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastCampaigns } from './broadcast-campaigns.composition';
import { createCampaign } from './create-campaign.handler';
import { getCampaign } from './get-campaign.handler';
import { launchCampaign } from './launch-campaign.handler';
import { listCampaigns } from './list-campaigns.handler';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'broadcast-campaigns',
    operations: { createCampaign, listCampaigns, getCampaign, launchCampaign },
    dependencies: composeFunction('broadcast-campaigns', env, composeBroadcastCampaigns, overrides),
  });

export const handler = createHandler(process.env);
