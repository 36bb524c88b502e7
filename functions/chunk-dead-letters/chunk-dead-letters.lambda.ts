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
import { composeChunkDeadLetters } from './chunk-dead-letters.composition';
import { handleDeadLetterRecord } from './handle-dead-letter-record';

/** The outbound dead-letter queue's consumer: each dead-lettered chunk settled, counted in ChunksDeadLettered (alarmed). */
export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const dependencies = composeFunction('chunk-dead-letters', env, composeChunkDeadLetters, overrides);
  const metrics = functionMetrics('chunk-dead-letters', env);
  const handleRecord = async (record: SQSRecord): Promise<void> => {
    const report = await handleDeadLetterRecord(dependencies(), record);
    metrics.addMetric(platformMetrics.chunksDeadLettered, MetricUnit.Count, 1);
    metrics.addMetric(platformMetrics.messagesFailed, MetricUnit.Count, report.failed);
    metrics.addMetric(platformMetrics.messagesUnknown, MetricUnit.Count, report.unknown);
  };
  /** Partial batch responses: a chunk that could not be settled goes back to the dead-letter queue alone. */
  return middy(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, handleRecord, processor, { context });
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics));
};

export const handler = createHandler(process.env);
