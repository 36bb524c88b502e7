/**
 * The one consumer of chunk messages, composed twice (docs/SCALE.md "The single-message lane"):
 * chunk-worker on the bulk lane (broadcast and campaign chunks, one per invocation) and single-sender
 * on the single lane (single messages, ten per invocation). Both run the same sending engine and
 * exactly-once ledger (shared/broadcast/chunk-worker/process-outbound-chunk.ts); they differ only in
 * the queue they consume, which the lane names.
 */
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import { logMetrics } from '@aws-lambda-powertools/metrics/middleware';
import middy from '@middy/core';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { FunctionName } from '../../runtime-contract/resource-definitions';
import type { OutboundLane } from '../../shared/broadcast/outbound-lanes';
import { parseStoreTimeoutConfig, type Environment } from '../../shared/config/app-config';
import { logger } from '../../shared/observability/logger';
import { functionMetrics } from '../../shared/observability/metrics';
import { defaultRetryBudgetSettings, RetryBudget } from '../../shared/ports/store-retry';
import type { ServiceOverrides } from '../composition/composition-context';
import { composeFunction } from '../composition/function-composition';
import { storeRetryMarginMs } from '../composition/store-retries';
import { recordChunkMetrics } from './chunk-metrics';
import { withStoreRetries } from './chunk-store-retries';
import { composeChunkWorker } from './chunk-worker.composition';
import { handleChunkRecord } from './handle-chunk-record';

/** Which function consumes which lane's queue. */
export interface ChunkConsumer {
  functionName: Extract<FunctionName, 'chunk-worker' | 'single-sender'>;
  lane: OutboundLane;
}

/**
 * The Lambda handler of a chunk consumer: the records of a batch processed concurrently (Powertools'
 * default; a batch of one is the chunk worker's), each failure reported alone (partial batch responses).
 *
 * @example
 * export const createHandler = (env: Environment, overrides?: ServiceOverrides) =>
 *   createChunkConsumerHandler({ functionName: 'single-sender', lane: 'single' }, env, overrides);
 */
export const createChunkConsumerHandler = (consumer: ChunkConsumer, env: Environment, overrides?: ServiceOverrides) => {
  const dependencies = composeFunction(consumer.functionName, env, composeChunkWorker, overrides);
  const metrics = functionMetrics(consumer.functionName, env);
  // The store retries' quota, shared by the invocations of this environment (chunk-store-retries.ts).
  const retryBudget = new RetryBudget(defaultRetryBudgetSettings);
  const marginMs = storeRetryMarginMs(parseStoreTimeoutConfig(env));
  const handleRecord = async (record: SQSRecord, context: Context): Promise<void> => {
    const startedAt = Date.now();
    // Store calls retried in place within this invocation's time (chunk-store-retries.ts).
    const invocation = { remainingTimeMs: () => context.getRemainingTimeInMillis() };
    const retried = withStoreRetries(dependencies(), invocation, { budget: retryBudget, marginMs, logKeys: { messageId: record.messageId } });
    const report = await handleChunkRecord(retried, record, context, consumer.lane);
    if (report) recordChunkMetrics(metrics, report, Date.now() - startedAt);
  };
  return middy(async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    // A processor holds per-batch state; one per invocation keeps concurrent local invocations apart.
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, (record: SQSRecord) => handleRecord(record, context), processor, { context, processInParallel: true });
  })
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(logMetrics(metrics));
};
