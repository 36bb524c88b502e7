import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { platformMetrics } from '../../runtime-contract/observability';
import type { Environment } from '../../shared/config/app-config';
import { logger } from '../../shared/observability/logger';
import { functionMetrics } from '../../shared/observability/metrics';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { composeDeliveryEvents } from './delivery-events.composition';
import { eventsApplied, handleDeliveryRecord } from './handle-delivery-record';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const dependencies = composeFunction('delivery-events', env, composeDeliveryEvents, overrides);
  const metrics = functionMetrics('delivery-events', env);
  const handleRecord = async (record: SQSRecord): Promise<void> => {
    const report = await handleDeliveryRecord(dependencies(), record);
    metrics.addMetric(platformMetrics.webhookEventsApplied, MetricUnit.Count, eventsApplied(report));
  };
  /** Partial batch responses: only the webhook batches that failed go back to the queue. */
  return middy(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, handleRecord, processor, { context });
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics));
};

export const handler = createHandler(process.env);
