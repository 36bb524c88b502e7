import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import { composeFunction } from '../composition/function-composition';
import { composeClickRedirect } from './click-redirect.composition';
import { followLink } from './follow-link.handler';

export const createHandler = (env: Environment) =>
  createGroupHandler({
    group: 'click-redirect',
    operations: { followLink },
    dependencies: composeFunction('click-redirect', env, composeClickRedirect),
  });

export const handler = createHandler(process.env);
