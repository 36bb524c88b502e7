import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Environment } from '../../shared/config/app-config';
import { logger } from '../../shared/observability/logger';
import type { ServiceOverrides } from '../composition/composition-context';
import { customerEventsDeadLetterUrl } from '../composition/customer-events.section';
import { composeFunction } from '../composition/function-composition';
import { composeCustomerEventsDispatcher } from './customer-events.composition';
import { handleCustomerEventBatch } from './handle-customer-event-batch';

/** `overrides`: the local runtime's tests pass their in-memory registry; Lambda passes none. */
export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const deadLetterQueueUrl = customerEventsDeadLetterUrl(env);
  const dependencies = composeFunction('customer-events', env, (context) => composeCustomerEventsDispatcher(context, deadLetterQueueUrl), overrides);
  /** The whole batch at once (each endpoint's deliveries as one group, the groups in parallel), failures reported one by one. */
  return middy(async (event: SQSEvent): Promise<SQSBatchResponse> => handleCustomerEventBatch(dependencies(), event.Records)).use(
    injectLambdaContext(logger, { resetKeys: true }),
  );
};

export const handler = createHandler(process.env);
