/**
 * Which function receives from which queue, and how: one SQS event source per queue a function's
 * definition `receivesFrom`, with that function's `eventSource` settings. The CDK app creates one
 * event source mapping per entry and the local runtime starts one SQS poller per entry, so a new
 * queue consumer is one definition in `resource-definitions.ts`.
 */
import { functions, type EventSourceSettings, type FunctionName, type QueueName } from './resource-definitions';

export interface EventSource extends EventSourceSettings {
  queue: QueueName;
  functionName: FunctionName;
}

/**
 * Every queue → function event source, in the order of the function definitions.
 *
 * @example
 * for (const source of eventSources) console.log(`${source.queue} → ${source.functionName} (${source.batchSize} per batch)`);
 */
export const eventSources: readonly EventSource[] = (Object.keys(functions) as FunctionName[]).flatMap((functionName) => {
  const { receivesFrom, eventSource } = functions[functionName];
  if (!receivesFrom) return [];
  return receivesFrom.map((queue) => ({
    queue,
    functionName,
    batchSize: eventSource.batchSize,
    maxBatchingWindowSeconds: eventSource.maxBatchingWindowSeconds,
    maxConcurrency: eventSource.maxConcurrency,
    reportBatchItemFailures: eventSource.reportBatchItemFailures,
  }));
});
