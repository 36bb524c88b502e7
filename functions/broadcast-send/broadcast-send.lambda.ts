import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastSend, type BroadcastSendDependencies } from './broadcast-send.composition';
import { cancelJob } from './cancel-job.handler';
import { followUp } from './follow-up.handler';
import { pauseJob } from './pause-job.handler';
import { cancelCampaign, pauseCampaign, resumeCampaign } from './campaign-controls.handler';
import { campaignFollowUp } from './campaign-follow-up.handler';
import { resumeJob } from './resume-job.handler';
import { sendFreeform } from './send-freeform.handler';
import { sendBulk, sendSingle } from './send-earlier.handler';
import { sendTemplateBroadcast } from './send-template-broadcast.handler';

/** `overrides`: the local runtime's scheduler (in-process timers instead of EventBridge Scheduler); Lambda passes none. */
export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler<BroadcastSendDependencies>({
    group: 'broadcast-send',
    operations: {
      sendTemplateBroadcast,
      sendFreeform,
      sendSingle,
      sendBulk,
      cancelJob,
      followUp,
      resumeJob,
      pauseJob,
      pauseCampaign,
      resumeCampaign,
      cancelCampaign,
      campaignFollowUp,
    },
    dependencies: composeFunction('broadcast-send', env, composeBroadcastSend, overrides),
  });

export const handler = createHandler(process.env);
