/**
 * The SQS event source mappings: one per entry of `eventSources` (runtime-contract/event-sources.ts),
 * on the queue or, for a consumer of what gave up, its dead-letter queue, each with its consumer's batch size, batching window, concurrency cap and partial batch
 * responses, after checking that the queue's visibility timeout covers the consumer's timeout.
 */
import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { eventSourceQueueLabel, eventSources, type EventSource } from '../runtime-contract/event-sources';
import { functions, queueOfSource, queues, type FunctionName, type QueueSource } from '../runtime-contract/resource-definitions';
import type { ServiceFunction } from './constructs/service-function';
import type { StatefulResources } from './stateful-stack';

/** AWS: the queue's visibility timeout should be at least six times the consumer's timeout. */
export const visibilityTimeoutFactor = 6;

/** Throws when a queue would hand a message to a second consumer while the first may still run. */
export function assertVisibilityCoversConsumer(queueName: string, visibilityTimeoutSeconds: number, consumerTimeoutSeconds: number): void {
  const required = visibilityTimeoutFactor * consumerTimeoutSeconds;
  if (visibilityTimeoutSeconds < required) {
    throw new Error(
      `Queue ${queueName}: visibility timeout ${visibilityTimeoutSeconds}s is below ${visibilityTimeoutFactor} x consumer timeout (${consumerTimeoutSeconds}s) = ${required}s`,
    );
  }
}

/** The queue resource a source names: the queue, or its dead-letter queue. */
export function queueOfSourceIn(stateful: StatefulResources, source: QueueSource | Pick<EventSource, 'queue' | 'deadLetters'>): sqs.Queue {
  const { queue, deadLetters } = typeof source === 'object' && 'queue' in source ? source : queueOfSource(source);
  return deadLetters ? stateful.deadLetterQueues[queue] : stateful.queues[queue];
}

/** Checks every event source's queue first, so a synthesis that fails adds no mapping at all. */
export function assertEventSourceVisibility(stateful: StatefulResources): void {
  for (const source of eventSources) {
    const queue = queueOfSourceIn(stateful, source);
    assertVisibilityCoversConsumer(eventSourceQueueLabel(source), visibilityTimeoutOf(queue, source), functions[source.functionName].timeoutSeconds);
  }
}

/** One `SqsEventSource` per event source of the runtime contract, on the function that consumes it. */
export function addQueueEventSources(serviceFunctions: Record<FunctionName, ServiceFunction>, stateful: StatefulResources): void {
  for (const source of eventSources) {
    serviceFunctions[source.functionName].addEventSource(
      new SqsEventSource(queueOfSourceIn(stateful, source), {
        batchSize: source.batchSize,
        maxBatchingWindow: Duration.seconds(source.maxBatchingWindowSeconds),
        maxConcurrency: source.maxConcurrency,
        reportBatchItemFailures: source.reportBatchItemFailures,
      }),
    );
  }
}

/** The visibility timeout the queue resource actually has (SQS default 30 s when unset). */
function visibilityTimeoutOf(queue: sqs.IQueue, source: Pick<EventSource, 'queue' | 'deadLetters'>): number {
  const resource = queue.node.defaultChild as sqs.CfnQueue | undefined;
  const value = resource?.visibilityTimeout;
  if (typeof value === 'number') return value;
  if (resource) return 30;
  const definition = queues[source.queue];
  return (source.deadLetters ? definition.deadLetterVisibilityTimeoutSeconds : definition.visibilityTimeoutSeconds) ?? 30;
}
