/** Event sources as data: one SQS event source mapping per entry of runtime-contract/event-sources.ts, nothing else. */
import type { CfnElement } from 'aws-cdk-lib';
import { eventSourceQueueLabel, eventSources, type EventSource } from '../../runtime-contract/event-sources';
import { functions, queueOfSource, queues, singleSender, type FunctionName } from '../../runtime-contract/resource-definitions';
import { eventSourceCeilings, functionOfConsumer, type ModelledConsumer } from '../../runtime-contract/capacity-model';
import { functionLogicalId, mentions, resourcesOf, synthesizePlatform, type SynthesizedPlatform } from './support/platform';

let synth: SynthesizedPlatform;

beforeAll(() => {
  synth = synthesizePlatform();
});

/** The logical id of the queue a source reads: the queue, or its dead-letter queue. */
const queueId = ({ queue, deadLetters }: Pick<EventSource, 'queue' | 'deadLetters'>) =>
  synth.platform.stateful.getLogicalId(synth.platform.stateful[deadLetters ? 'deadLetterQueues' : 'queues'][queue].node.defaultChild as CfnElement);
const mappings = () => Object.values(resourcesOf(synth.api, 'AWS::Lambda::EventSourceMapping')).map((mapping) => mapping.Properties!);

it('lists one event source per queue a definition receives from, with its eventSource settings', () => {
  const expected = (Object.keys(functions) as FunctionName[]).flatMap((name) =>
    (functions[name].receivesFrom ?? []).map((queueSource) => ({ ...queueOfSource(queueSource), functionName: name, ...functions[name].eventSource! })),
  );
  const named = (source: Pick<EventSource, 'queue' | 'deadLetters' | 'functionName'>) => [source.queue, source.deadLetters, source.functionName];
  expect(eventSources.map(named)).toEqual(expected.map(named));
  for (const [index, source] of eventSources.entries()) {
    expect(source).toMatchObject({
      batchSize: expected[index]!.batchSize,
      maxBatchingWindowSeconds: expected[index]!.maxBatchingWindowSeconds,
      maxConcurrency: expected[index]!.maxConcurrency,
      reportBatchItemFailures: expected[index]!.reportBatchItemFailures,
    });
  }
});

it("takes every queue consumer's maximum concurrency from the capacity model", () => {
  const consumerOf = new Map(Object.entries(functionOfConsumer).map(([consumer, functionName]) => [functionName, consumer as ModelledConsumer]));
  for (const source of eventSources) {
    const consumer = consumerOf.get(source.functionName);
    expect([source.functionName, consumer]).toEqual([source.functionName, expect.any(String)]);
    const mapping = mappings().find((candidate) => mentions(candidate.EventSourceArn, queueId(source)))!;
    expect([source.functionName, mapping.ScalingConfig]).toEqual([source.functionName, { MaximumConcurrency: eventSourceCeilings[consumer!] }]);
  }
  // The old fixed wall is gone: the chunk worker runs more than 20 at once.
  expect(eventSourceCeilings.chunkWorker).toBeGreaterThan(20);
});

it('synthesizes exactly one mapping per event source, and no other', () => {
  expect(mappings()).toHaveLength(eventSources.length);
});

describe.each(eventSources.map((source) => [`${eventSourceQueueLabel(source)} → ${source.functionName}`, source] as const))('%s', (_, source) => {
  it('is a mapping from that queue to that function with the source settings', () => {
    const own = mappings().filter((mapping) => mentions(mapping.EventSourceArn, queueId(source)));
    expect(own).toHaveLength(1);
    const mapping = own[0]!;
    expect(mapping.FunctionName).toEqual({ Ref: functionLogicalId(synth.api, source.functionName) });
    expect(mapping.BatchSize).toBe(source.batchSize);
    expect(mapping.MaximumBatchingWindowInSeconds ?? 0).toBe(source.maxBatchingWindowSeconds);
    expect(mapping.ScalingConfig).toEqual({ MaximumConcurrency: source.maxConcurrency });
    expect(mapping.FunctionResponseTypes).toEqual(source.reportBatchItemFailures ? ['ReportBatchItemFailures'] : undefined);
  });

  it("reads from a queue whose visibility timeout covers 6x the consumer's timeout", () => {
    const visibility = resourcesOf(synth.stateful, 'AWS::SQS::Queue')[queueId(source)]!.Properties!.VisibilityTimeout as number;
    const definition = queues[source.queue];
    expect(visibility).toBe(source.deadLetters ? definition.deadLetterVisibilityTimeoutSeconds : definition.visibilityTimeoutSeconds);
    expect(visibility).toBeGreaterThanOrEqual(6 * functions[source.functionName].timeoutSeconds);
  });
});

it("a dead-letter queue nobody consumes keeps SQS's default visibility; the consumed ones (the two lanes') get 6x their consumer's timeout", () => {
  const consumed = new Set(eventSources.filter((source) => source.deadLetters).map((source) => source.queue));
  expect([...consumed]).toEqual(['outboundMessages', 'singleMessages']);
  expect(eventSources.filter((source) => source.deadLetters).map((source) => source.functionName)).toEqual(['chunk-dead-letters', 'chunk-dead-letters']);
  for (const name of Object.keys(queues) as Array<keyof typeof queues>) {
    const visibility = resourcesOf(synth.stateful, 'AWS::SQS::Queue')[queueId({ queue: name, deadLetters: true })]!.Properties!.VisibilityTimeout;
    expect(visibility).toBe(consumed.has(name) ? 6 * functions['chunk-dead-letters'].timeoutSeconds : undefined);
  }
});

it('the single-message lane: singleMessages → single-sender in batches of 10, sent concurrently up to its own ceiling, failures reported alone', () => {
  const own = eventSources.filter((source) => source.functionName === 'single-sender');
  expect(own).toEqual([
    {
      queue: 'singleMessages',
      deadLetters: false,
      functionName: 'single-sender',
      batchSize: 10,
      maxBatchingWindowSeconds: 0,
      maxConcurrency: singleSender.maxConcurrency,
      reportBatchItemFailures: true,
    },
  ]);
  const mapping = mappings().find((candidate) => mentions(candidate.EventSourceArn, queueId({ queue: 'singleMessages', deadLetters: false })))!;
  expect(mapping.FunctionName).toEqual({ Ref: functionLogicalId(synth.api, 'single-sender') });
  expect(mapping.BatchSize).toBe(10);
  expect(mapping.ScalingConfig).toEqual({ MaximumConcurrency: eventSourceCeilings.singleSender });
  // Its own ceiling, beside the chunk worker's, never shared with it.
  expect(mappings().filter((candidate) => mentions(candidate.EventSourceArn, queueId({ queue: 'outboundMessages', deadLetters: false })))).toHaveLength(1);
});
