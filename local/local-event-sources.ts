/**
 * The local runtime's queue consumers: one SQS poller (local/sqs-event-source.ts) per event source
 * of the runtime contract (a queue, or a dead-letter queue) (runtime-contract/event-sources.ts), with its consumer's batch size,
 * concurrency cap, timeout and partial batch responses.
 */
import type { SQSClient } from '@aws-sdk/client-sqs';
import { eventSources, type EventSource } from '../runtime-contract/event-sources';
import { localConcurrencyOf } from '../runtime-contract/capacity-model';
import { deadLetterEnvVarOf, functions, queues, type FunctionName } from '../runtime-contract/resource-definitions';
import type { Handler } from './function-handlers';
import { startSqsEventSource, type SqsBatchHandler, type SqsEventSource } from './sqs-event-source';

export interface LocalEventSources {
  /**
   * Resolves when every consumer's queue is empty and no batch is in flight (delayed retries are not
   * waited for). Twice over: a consumer's work lands on the queues of the others (a chunk's events,
   * an applied event's customer events), so one round can end before what it started arrives.
   */
  idle(): Promise<void>;
  /** Stops polling; in-flight batches finish. */
  stop(): Promise<void>;
}

/**
 * Starts one poller per event source, in the order of the contract.
 *
 * @example
 * const sources = await startLocalEventSources({ sqs, region, environment: process.env, handlerOf });
 * await sources.idle();
 */
export async function startLocalEventSources(options: {
  sqs: SQSClient;
  region: string;
  /** Where the queue URLs are (the runtime's whole environment). */
  environment: Readonly<Record<string, string | undefined>>;
  handlerOf: (name: FunctionName) => Promise<Handler>;
  /** Only the sources of these functions (a bench measuring one consumer alone); absent: every source. */
  only?: readonly FunctionName[];
}): Promise<LocalEventSources> {
  const started: SqsEventSource[] = [];
  const stop = async (): Promise<void> => {
    // Together, not one after another: each waits out its poller's long poll (up to a second), and
    // with one source per queue and dead-letter queue that added up to more than a test hook's 5 s.
    await Promise.all(started.map((source) => source.stop().catch(() => undefined)));
  };
  try {
    const wanted = eventSources.filter((source) => options.only === undefined || options.only.includes(source.functionName));
    for (const source of wanted)
      started.push(startEventSource(source, options.sqs, options.region, options.environment, await options.handlerOf(source.functionName)));
  } catch (error) {
    await stop(); // a consumer that cannot load leaves no poller of the others behind
    throw error;
  }
  return {
    idle: async () => {
      for (let round = 0; round < 2; round++) await Promise.all(started.map((source) => source.idle()));
    },
    stop,
  };
}

function startEventSource(
  source: EventSource,
  sqs: SQSClient,
  region: string,
  environment: Readonly<Record<string, string | undefined>>,
  handler: Handler,
): SqsEventSource {
  const queueUrl = environment[source.deadLetters ? deadLetterEnvVarOf(source.queue) : queues[source.queue].envVar] ?? '';
  return startSqsEventSource({
    sqs,
    queueUrl,
    queueArn: `arn:aws:sqs:${region}:000000000000:${queueUrl.split('/').pop()}`,
    handler: handler as unknown as SqsBatchHandler,
    batchSize: source.batchSize,
    // The capacity model's ceiling scaled to one machine (runtime-contract/capacity-model.ts).
    maxConcurrency: localConcurrencyOf(source),
    functionTimeoutSeconds: functions[source.functionName].timeoutSeconds,
    reportBatchItemFailures: source.reportBatchItemFailures,
  });
}
