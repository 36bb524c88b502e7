import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeClickRedirect } from './click-redirect.composition';
import { followLink } from './follow-link.handler';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'click-redirect',
    operations: { followLink },
    dependencies: composeFunction('click-redirect', env, composeClickRedirect, overrides),
  });

export const handler = createHandler(process.env);
