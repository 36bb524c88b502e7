import { createGroupHandler } from '../../shared/http/create-group-handler';
import { getServices } from '../composition';
import { buildUpstreamOperations } from './operations';

/** Every /upstream route (runtime-contract/upstream-routes.ts): one Lambda, operations built from the table. */
export const handler = createGroupHandler({
  group: 'upstream-wrapper',
  operations: buildUpstreamOperations(),
  dependencies: () => {
    const services = getServices();
    return { ...services.http, upstream: services.upstreamWrapper };
  },
});
