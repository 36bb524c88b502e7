import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastWebhooks, type BroadcastWebhooksServices } from './broadcast-webhooks.composition';
import { webhookOperations } from './operations';

export const createHandler = (env: Environment) =>
  createGroupHandler<BroadcastWebhooksServices>({
    group: 'broadcast-webhooks',
    operations: webhookOperations,
    dependencies: composeFunction('broadcast-webhooks', env, composeBroadcastWebhooks),
  });

export const handler = createHandler(process.env);
