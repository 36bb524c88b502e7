import { createGroupHandler } from '../../shared/http/create-group-handler';
import { getServices } from '../composition';
import { listPhoneNumbers } from './list-phone-numbers.handler';
import { listTemplates } from './list-templates.handler';

export const handler = createGroupHandler({
  group: 'broadcast-discovery',
  operations: { listPhoneNumbers, listTemplates },
  dependencies: () => {
    const services = getServices();
    return { ...services.http, senders: services.broadcast.senders, templates: services.broadcast.templates };
  },
});
