import { createGroupHandler } from '../../shared/http/create-group-handler';
import { getServices, type BroadcastServices } from '../composition';
import { sendFreeform } from './send-freeform.handler';
import { sendBulk, sendSingle } from './send-earlier.handler';
import { sendTemplateBroadcast } from './send-template-broadcast.handler';

export const handler = createGroupHandler<BroadcastServices>({
  group: 'broadcast-send',
  operations: { sendTemplateBroadcast, sendFreeform, sendSingle, sendBulk },
  dependencies: () => {
    const services = getServices();
    return { ...services.http, ...services.broadcast };
  },
});
