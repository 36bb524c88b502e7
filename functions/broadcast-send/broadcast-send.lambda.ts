import { createGroupHandler } from '../../shared/http/create-group-handler';
import { getServices } from '../composition';
import { sendTemplateBroadcast } from './send-template-broadcast.handler';

export const handler = createGroupHandler({
  group: 'broadcast-send',
  operations: { sendTemplateBroadcast },
  dependencies: () => {
    const services = getServices();
    return { ...services.http, ...services.broadcast };
  },
});
