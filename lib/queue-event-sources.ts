/**
 * The SQS event source mappings: one per entry of `eventSources` (runtime-contract/event-sources.ts),
 * each with its consumer's batch size, batching window, concurrency cap and partial batch
 * responses, after checking that the queue's visibility timeout covers the consumer's timeout.
 */
import { Duration } from 'aws-cdk-lib';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { eventSources } from '../runtime-contract/event-sources';
import { functions, queues, type FunctionName, type QueueName } from '../runtime-contract/resource-definitions';
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

/** Checks every event source's queue first, so a synthesis that fails adds no mapping at all. */
export function assertEventSourceVisibility(stateful: StatefulResources): void {
  for (const source of eventSources) {
    const queue = stateful.queues[source.queue];
    assertVisibilityCoversConsumer(source.queue, visibilityTimeoutOf(queue, source.queue), functions[source.functionName].timeoutSeconds);
  }
}

/** One `SqsEventSource` per event source of the runtime contract, on the function that consumes it. */
export function addQueueEventSources(serviceFunctions: Record<FunctionName, ServiceFunction>, stateful: StatefulResources): void {
  for (const source of eventSources) {
    serviceFunctions[source.functionName].addEventSource(
      new SqsEventSource(stateful.queues[source.queue], {
        batchSize: source.batchSize,
        maxBatchingWindow: Duration.seconds(source.maxBatchingWindowSeconds),
        maxConcurrency: source.maxConcurrency,
        reportBatchItemFailures: source.reportBatchItemFailures,
      }),
    );
  }
}

/** The visibility timeout the queue resource actually has (SQS default 30 s when unset). */
function visibilityTimeoutOf(queue: sqs.IQueue, queueName: QueueName): number {
  const resource = queue.node.defaultChild as sqs.CfnQueue | undefined;
  const value = resource?.visibilityTimeout;
  if (typeof value === 'number') return value;
  if (resource) return 30;
  return queues[queueName].visibilityTimeoutSeconds;
}
