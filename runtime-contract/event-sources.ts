/**
 * Which function receives from which queue, and how: one SQS event source per queue a function's
 * definition `receivesFrom`, with that function's `eventSource` settings. The CDK app creates one
 * event source mapping per entry and the local runtime starts one SQS poller per entry, so a new
 * queue consumer is one definition in `resource-definitions.ts`.
 */
import { functions, queueOfSource, type EventSourceSettings, type FunctionName, type QueueName } from './resource-definitions';

export interface EventSource extends EventSourceSettings {
  queue: QueueName;
  /** The source is the dead-letter queue of `queue` (a consumer of what gave up), not `queue` itself. */
  deadLetters: boolean;
  functionName: FunctionName;
}

/** How a source is named in messages and test titles: `outboundMessages` or `outboundMessages (dead letters)`. */
export const eventSourceQueueLabel = (source: Pick<EventSource, 'queue' | 'deadLetters'>): string =>
  source.deadLetters ? `${source.queue} (dead letters)` : source.queue;

/**
 * Every queue → function event source, in the order of the function definitions.
 *
 * @example
 * for (const source of eventSources) console.log(`${eventSourceQueueLabel(source)} → ${source.functionName} (${source.batchSize} per batch)`);
 */
export const eventSources: readonly EventSource[] = (Object.keys(functions) as FunctionName[]).flatMap((functionName) => {
  const { receivesFrom, eventSource } = functions[functionName];
  if (!receivesFrom) return [];
  return receivesFrom.map((queueSource) => ({
    ...queueOfSource(queueSource),
    functionName,
    batchSize: eventSource.batchSize,
    maxBatchingWindowSeconds: eventSource.maxBatchingWindowSeconds,
    maxConcurrency: eventSource.maxConcurrency,
    reportBatchItemFailures: eventSource.reportBatchItemFailures,
  }));
});
