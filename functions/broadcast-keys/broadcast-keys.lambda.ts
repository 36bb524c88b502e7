import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastKeys } from './broadcast-keys.composition';
import { generateKey } from './generate-key.handler';

export const createHandler = (env: Environment) =>
  createGroupHandler({
    group: 'broadcast-keys',
    operations: { generateKey },
    dependencies: composeFunction('broadcast-keys', env, composeBroadcastKeys),
  });

export const handler = createHandler(process.env);
