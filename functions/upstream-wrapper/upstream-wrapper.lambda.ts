import { upstreamManifestRoutes } from '../../runtime-contract/upstream-manifest-routes';
import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { buildUpstreamOperations } from './operations';
import { composeUpstreamWrapper } from './upstream-wrapper.composition';

/** Every /upstream route (runtime-contract/upstream-routes.ts): one Lambda, operations built from the table. */
export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'upstream-wrapper',
    routes: upstreamManifestRoutes,
    operations: buildUpstreamOperations(),
    dependencies: composeFunction('upstream-wrapper', env, composeUpstreamWrapper, overrides),
  });

export const handler = createHandler(process.env);
