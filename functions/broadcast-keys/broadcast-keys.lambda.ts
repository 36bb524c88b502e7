import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastKeys, type BroadcastKeysDependencies } from './broadcast-keys.composition';
import { broadcastKeysOperations } from './operations';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler<BroadcastKeysDependencies>({
    group: 'broadcast-keys',
    operations: broadcastKeysOperations,
    dependencies: composeFunction('broadcast-keys', env, composeBroadcastKeys, overrides),
  });

export const handler = createHandler(process.env);
