import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastStatus } from './broadcast-status.composition';
import { getJobStatus } from './get-job-status.handler';
import { listBroadcasts } from './list-broadcasts.handler';
import { listRecipients } from './list-recipients.handler';
import { listCampaignRecipients } from './list-campaign-recipients.handler';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'broadcast-status',
    operations: { getJobStatus, listRecipients, listBroadcasts, listCampaignRecipients },
    dependencies: composeFunction('broadcast-status', env, composeBroadcastStatus, overrides),
  });

export const handler = createHandler(process.env);
