import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastWebhooks, type BroadcastWebhooksServices } from './broadcast-webhooks.composition';
import { webhookOperations } from './operations';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler<BroadcastWebhooksServices>({
    group: 'broadcast-webhooks',
    operations: webhookOperations,
    dependencies: composeFunction('broadcast-webhooks', env, composeBroadcastWebhooks, overrides),
  });

export const handler = createHandler(process.env);
