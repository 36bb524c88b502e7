import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { platformMetrics } from '../../runtime-contract/observability';
import type { Environment } from '../../shared/config/app-config';
import { logger } from '../../shared/observability/logger';
import { functionMetrics } from '../../shared/observability/metrics';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeDeliveryEvents } from './delivery-events.composition';
import { handleDeliveryRecords } from './handle-delivery-records';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const dependencies = composeFunction('delivery-events', env, composeDeliveryEvents, overrides);
  const metrics = functionMetrics('delivery-events', env);
  /** Partial batch responses: only the webhook batches that failed go back to the queue. */
  return middy(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const { batchItemFailures, eventsApplied } = await handleDeliveryRecords(dependencies(), event.Records);
    metrics.addMetric(platformMetrics.webhookEventsApplied, MetricUnit.Count, eventsApplied);
    return { batchItemFailures };
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics));
};

export const handler = createHandler(process.env);
