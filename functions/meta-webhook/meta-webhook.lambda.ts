import type { Environment } from '../../shared/config/app-config';
import { createGroupHandler } from '../../shared/http/create-group-handler';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeMetaWebhook } from './meta-webhook.composition';
import { receiveMetaEvents } from './receive-meta-events.handler';
import { verifyMetaSubscription } from './verify-meta-subscription.handler';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
  createGroupHandler({
    group: 'meta-webhook',
    operations: { verifyMetaSubscription, receiveMetaEvents },
    dependencies: composeFunction('meta-webhook', env, composeMetaWebhook, overrides),
  });

export const handler = createHandler(process.env);
