import type { SQSRecord } from 'aws-lambda';
import { handleChunkRecord } from '../../../functions/chunk-worker/handle-chunk-record';
import { redeliveryDelaySeconds } from '../../../functions/composition/redelivery-delay';
import { queues } from '../../../runtime-contract/resource-definitions';
import { encodeOutboundMessage } from '../../../shared/broadcast/chunk-message';
import type { ProcessChunkDependencies } from '../../../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import {
  InMemoryBroadcastRepository,
  InMemorySendPacer,
  RecordingOutboundQueue,
  ScriptedCloudApi,
  chunkMessage,
  jobOf,
  InMemoryTemplateStates,
} from '../../support/broadcast-fakes';
import { lambdaContext } from '../../support/api-gateway-event';
import { InboxSuppressionList } from '../../../shared/module-bridges/inbox-opt-outs';
import { InMemoryOptOutRepository } from '../../support/in-memory-opt-out-repository';

class StoreTimeoutError extends Error {}

function setup() {
  const queue = new RecordingOutboundQueue();
  const broadcasts = new InMemoryBroadcastRepository();
  const dependencies: ProcessChunkDependencies = {
    senders: {
      listSenders: async () => [],
      resolveSender: async () => {
        throw new StoreTimeoutError();
      },
      // The credentials read fails: the whole delivery fails before any send.
      accountOf: async () => {
        throw new StoreTimeoutError('tenancy store timed out');
      },
    },
    broadcasts,
    upstream: new ScriptedCloudApi(),
    pacer: new InMemorySendPacer(),
    queue,
    clock: { now: () => new Date('2026-11-21T10:00:00Z') },
    sleep: async () => undefined,
    random: () => 0.5,
    settings: {
      maxInFlight: 4,
      maxAttempts: 3,
      backoff: { baseMs: 1, maxMs: 2 },
      rateLimitHoldMs: 1000,
      safetyMarginMs: 1000,
      outcomeBatchSize: 25,
      flushIntervalMs: 250,
      pauseRecheckSeconds: 60,
      templatePauseTimeoutMs: 3_600_000,
    },
    templateStates: new InMemoryTemplateStates(),
    optOuts: new InboxSuppressionList(new InMemoryOptOutRepository()),
  };
  return { dependencies, queue, broadcasts };
}

const recordFor = (body: string, receiveCount: number): SQSRecord =>
  ({
    messageId: 'm-1',
    receiptHandle: `rh-${receiveCount}`,
    body,
    attributes: { ApproximateReceiveCount: String(receiveCount) },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:000000000000:outbound',
    awsRegion: 'us-east-1',
  }) as unknown as SQSRecord;

describe('a failing chunk delivery', () => {
  it('comes back after a short, jittered, growing delay instead of the full visibility timeout, and fails the record', async () => {
    const { dependencies, queue, broadcasts } = setup();
    await broadcasts.createJob(jobOf(chunkMessage(3)), [3]);
    const body = encodeOutboundMessage(chunkMessage(3));
    await expect(handleChunkRecord(dependencies, recordFor(body, 1), lambdaContext())).rejects.toThrow('tenancy store timed out');
    await expect(handleChunkRecord(dependencies, recordFor(body, 3), lambdaContext())).rejects.toThrow(StoreTimeoutError);
    // Jittered (random 0.5 here): 1-2 s after the first failure, 16-32 s after the third.
    expect(queue.deferrals).toEqual([
      { receiptHandle: 'rh-1', delaySeconds: 2, lane: 'bulk' },
      { receiptHandle: 'rh-3', delaySeconds: 24, lane: 'bulk' },
    ]);
  });

  it('comes back within seconds the first time, later ones spread out, each delay jittered within its bounds', () => {
    const bounds: Array<[number, number]> = [
      [1, 2],
      [4, 8],
      [16, 32],
      [64, 128],
    ];
    for (const [index, [low, high]] of bounds.entries()) {
      const receiveCount = index + 1;
      expect(redeliveryDelaySeconds(receiveCount, () => 0)).toBe(low);
      expect(redeliveryDelaySeconds(receiveCount, () => 0.999_999)).toBe(high);
      for (let sample = 0; sample < 100; sample += 1) {
        const delay = redeliveryDelaySeconds(receiveCount, Math.random);
        expect(Number.isInteger(delay) && delay >= low && delay <= high).toBe(true);
      }
    }
    // Never beyond five minutes, well under the queue's 12-minute visibility timeout.
    expect(redeliveryDelaySeconds(9, () => 0.999_999)).toBe(300);
  });

  it('on its last delivery accounts every unsent recipient as WORKER_ERROR instead of failing again', async () => {
    const { dependencies, queue, broadcasts } = setup();
    const message = chunkMessage(3);
    await broadcasts.createJob(jobOf(message), [3]);
    const last = queues.outboundMessages.maxReceiveCount;
    await expect(handleChunkRecord(dependencies, recordFor(encodeOutboundMessage(message), last), lambdaContext())).resolves.toBeUndefined();
    expect(queue.deferrals).toEqual([]);
    expect(broadcasts.chunk(message.jobId, message.chunkIndex)).toMatchObject({ failed: 3, failuresByReason: { WORKER_ERROR: 3 } });
  });

  it('sends nothing for a job discarded at accept time (its queueing failed), and does not recreate its chunk', async () => {
    const { dependencies, queue, broadcasts } = setup();
    const upstream = dependencies.upstream as ScriptedCloudApi;
    const message = chunkMessage(3);
    await expect(handleChunkRecord(dependencies, recordFor(encodeOutboundMessage(message), 1), lambdaContext())).resolves.toMatchObject({
      sent: 0,
      skipped: 3,
      chunkDone: true,
    });
    expect(upstream.sends).toEqual([]);
    expect(queue.deferrals).toEqual([]);
    expect(broadcasts.chunk(message.jobId, message.chunkIndex)).toBeUndefined();
  });
});
