import { createGroupHandler } from '../../shared/http/create-group-handler';
import { getServices } from '../composition';
import { getJobStatus } from './get-job-status.handler';

export const handler = createGroupHandler({
  group: 'broadcast-status',
  operations: { getJobStatus },
  dependencies: () => {
    const services = getServices();
    return { ...services.http, broadcasts: services.broadcast.broadcasts };
  },
});
