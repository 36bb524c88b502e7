import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastPeople } from './broadcast-people.composition';
import { peopleOperations } from './operations';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'broadcast-people',
    operations: peopleOperations,
    dependencies: composeFunction('broadcast-people', env, composeBroadcastPeople, overrides),
  });

export const handler = createHandler(process.env);
