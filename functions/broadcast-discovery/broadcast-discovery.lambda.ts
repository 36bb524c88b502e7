import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastDiscovery } from './broadcast-discovery.composition';
import { listPhoneNumbers } from './list-phone-numbers.handler';
import { listTemplates } from './list-templates.handler';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'broadcast-discovery',
    operations: { listPhoneNumbers, listTemplates },
    dependencies: composeFunction('broadcast-discovery', env, composeBroadcastDiscovery, overrides),
  });

export const handler = createHandler(process.env);
