import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastSend, type BroadcastSendDependencies } from './broadcast-send.composition';
import { cancelJob } from './cancel-job.handler';
import { sendFreeform } from './send-freeform.handler';
import { sendBulk, sendSingle } from './send-earlier.handler';
import { sendTemplateBroadcast } from './send-template-broadcast.handler';

export const createHandler = (env: Environment) =>
  createGroupHandler<BroadcastSendDependencies>({
    group: 'broadcast-send',
    operations: { sendTemplateBroadcast, sendFreeform, sendSingle, sendBulk, cancelJob },
    dependencies: composeFunction('broadcast-send', env, composeBroadcastSend),
  });

export const handler = createHandler(process.env);
