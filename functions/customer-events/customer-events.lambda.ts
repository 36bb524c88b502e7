import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Environment } from '../../shared/config/app-config';
import { logger } from '../../shared/observability/logger';
import type { ServiceOverrides } from '../composition/composition-context';
import { customerEventsDeadLetterUrl } from '../composition/customer-events.section';
import { composeFunction } from '../composition/function-composition';
import { composeCustomerEventsDispatcher } from './customer-events.composition';
import { handleCustomerEventRecord } from './handle-customer-event-record';

/** `overrides`: the local runtime's tests pass their in-memory registry; Lambda passes none. */
export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const deadLetterQueueUrl = customerEventsDeadLetterUrl(env);
  const dependencies = composeFunction('customer-events', env, (context) => composeCustomerEventsDispatcher(context, deadLetterQueueUrl), overrides);
  /** Records in parallel (each delivery waits only for its own endpoint), failures reported one by one. */
  return middy(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, (record: SQSRecord) => handleCustomerEventRecord(dependencies(), record), processor, {
      context,
      processInParallel: true,
    });
  }).use(injectLambdaContext(logger, { resetKeys: true }));
};

export const handler = createHandler(process.env);
