import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastAudiences } from './broadcast-audiences.composition';
import { audienceOperations } from './operations';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'broadcast-audiences',
    operations: audienceOperations,
    dependencies: composeFunction('broadcast-audiences', env, composeBroadcastAudiences, overrides),
  });

export const handler = createHandler(process.env);
