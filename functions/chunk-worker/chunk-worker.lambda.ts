import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Environment } from '../../shared/config/app-config';
import { logger } from '../../shared/observability/logger';
import { defaultRetryBudgetSettings, RetryBudget } from '../../shared/ports/store-retry';
import { functionMetrics } from '../../shared/observability/metrics';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { recordChunkMetrics } from './chunk-metrics';
import { withStoreRetries } from './chunk-store-retries';
import { composeChunkWorker } from './chunk-worker.composition';
import { handleChunkRecord } from './handle-chunk-record';

export const createHandler = (env: Environment, overrides?: ServiceOverrides) => {
  const dependencies = composeFunction('chunk-worker', env, composeChunkWorker, overrides);
  const metrics = functionMetrics('chunk-worker', env);
  // The store retries' quota, shared by the invocations of this environment (chunk-store-retries.ts).
  const retryBudget = new RetryBudget(defaultRetryBudgetSettings);
  const handleRecord = async (record: SQSRecord, context: Context): Promise<void> => {
    const startedAt = Date.now();
    // Store calls retried in place within this invocation's time (chunk-store-retries.ts).
    const retried = withStoreRetries(dependencies(), { remainingTimeMs: () => context.getRemainingTimeInMillis() }, { budget: retryBudget });
    const report = await handleChunkRecord(retried, record, context);
    if (report) recordChunkMetrics(metrics, report, Date.now() - startedAt);
  };
  /** Partial batch responses: only the records that failed go back to the queue. */
  return middy(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    // A processor holds per-batch state; one per invocation keeps concurrent local invocations apart.
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, (record: SQSRecord) => handleRecord(record, context), processor, { context });
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics));
};

export const handler = createHandler(process.env);
