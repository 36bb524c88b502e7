/** Event sources as data: one SQS event source mapping per entry of runtime-contract/event-sources.ts, nothing else. */
import type { CfnElement } from 'aws-cdk-lib';
import { eventSources } from '../../runtime-contract/event-sources';
import { functions, queues, type FunctionName, type QueueName } from '../../runtime-contract/resource-definitions';
import { functionLogicalId, mentions, resourcesOf, synthesizePlatform, type SynthesizedPlatform } from './support/platform';

let synth: SynthesizedPlatform;

beforeAll(() => {
  synth = synthesizePlatform();
});

const queueId = (name: QueueName) => synth.platform.stateful.getLogicalId(synth.platform.stateful.queues[name].node.defaultChild as CfnElement);
const mappings = () => Object.values(resourcesOf(synth.api, 'AWS::Lambda::EventSourceMapping')).map((mapping) => mapping.Properties!);

it('lists one event source per queue a definition receives from, with its eventSource settings', () => {
  const expected = (Object.keys(functions) as FunctionName[]).flatMap((name) =>
    (functions[name].receivesFrom ?? []).map((queue) => ({ queue, functionName: name, ...functions[name].eventSource! })),
  );
  expect(eventSources.map((source) => [source.queue, source.functionName])).toEqual(expected.map((source) => [source.queue, source.functionName]));
  for (const [index, source] of eventSources.entries()) {
    expect(source).toMatchObject({
      batchSize: expected[index]!.batchSize,
      maxBatchingWindowSeconds: expected[index]!.maxBatchingWindowSeconds,
      maxConcurrency: expected[index]!.maxConcurrency,
      reportBatchItemFailures: expected[index]!.reportBatchItemFailures,
    });
  }
});

it('synthesizes exactly one mapping per event source, and no other', () => {
  expect(mappings()).toHaveLength(eventSources.length);
});

describe.each(eventSources.map((source) => [`${source.queue} → ${source.functionName}`, source] as const))('%s', (_, source) => {
  it('is a mapping from that queue to that function with the source settings', () => {
    const own = mappings().filter((mapping) => mentions(mapping.EventSourceArn, queueId(source.queue)));
    expect(own).toHaveLength(1);
    const mapping = own[0]!;
    expect(mapping.FunctionName).toEqual({ Ref: functionLogicalId(synth.api, source.functionName) });
    expect(mapping.BatchSize).toBe(source.batchSize);
    expect(mapping.MaximumBatchingWindowInSeconds ?? 0).toBe(source.maxBatchingWindowSeconds);
    expect(mapping.ScalingConfig).toEqual({ MaximumConcurrency: source.maxConcurrency });
    expect(mapping.FunctionResponseTypes).toEqual(source.reportBatchItemFailures ? ['ReportBatchItemFailures'] : undefined);
  });

  it("reads from a queue whose visibility timeout covers 6x the consumer's timeout", () => {
    const visibility = resourcesOf(synth.stateful, 'AWS::SQS::Queue')[queueId(source.queue)]!.Properties!.VisibilityTimeout as number;
    expect(visibility).toBe(queues[source.queue].visibilityTimeoutSeconds);
    expect(visibility).toBeGreaterThanOrEqual(6 * functions[source.functionName].timeoutSeconds);
  });
});
