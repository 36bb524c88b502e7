import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Environment } from '../../shared/config/app-config';
import { logger } from '../../shared/observability/logger';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeBroadcastScheduler } from './broadcast-scheduler.composition';
import { handleSchedulerEvent } from './handle-scheduler-event';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const dependencies = composeFunction('broadcast-scheduler', env, composeBroadcastScheduler, overrides);
  return middy(async (event: unknown) => {
    const result = await handleSchedulerEvent(dependencies(), event);
    if ('outcome' in result) logger.info('Scheduled job firing', { jobId: result.jobId, outcome: result.outcome });
    else if (result.swept.length > 0 || result.failed.length > 0) logger.warn('Sweep fired scheduled jobs a trigger missed', { ...result });
    return result;
  }).use(injectLambdaContext(logger, { resetKeys: true }));
};

export const handler = createHandler(process.env);
