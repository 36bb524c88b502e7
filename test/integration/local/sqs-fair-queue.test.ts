/**
 * The local queue is a fair queue (local/fauxqs-fair-queues.ts): one tenant's backlog of 200
 * messages does not hold back another tenant's single message, as on an SQS standard queue whose
 * messages carry a MessageGroupId. The local event source (local/sqs-event-source.ts) drains it
 * as Lambda would; every message is handled exactly once and received once.
 */
import {
  CreateQueueCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SendMessageCommand,
  SQSClient,
} from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { emulatorCredentials, emulatorRegion, startFauxqsEmulator, type RunningEmulator } from '../../../local/emulators';
import { startSqsEventSource, type SqsEventSource } from '../../../local/sqs-event-source';

let emulator: RunningEmulator;
let sqs: SQSClient;
let queues = 0;
const sources: SqsEventSource[] = [];

beforeAll(async () => {
  emulator = await startFauxqsEmulator({});
  sqs = new SQSClient({ endpoint: emulator.endpoint, credentials: emulatorCredentials, region: emulatorRegion });
});
afterEach(async () => {
  await Promise.all(sources.splice(0).map((source) => source.stop()));
});
afterAll(async () => {
  sqs?.destroy();
  await emulator?.stop();
});

async function createQueue(): Promise<{ url: string; arn: string }> {
  const name = `fair-${++queues}`;
  const url = (await sqs.send(new CreateQueueCommand({ QueueName: name, Attributes: { VisibilityTimeout: '30' } }))).QueueUrl!;
  const arn = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: url, AttributeNames: ['QueueArn'] }))).Attributes!.QueueArn!;
  return { url, arn };
}

/** Sends `count` messages of one group, in order, ten per call; `undefined`: no group. */
async function send(url: string, group: string | undefined, count: number, label = group ?? 'none'): Promise<void> {
  for (let start = 0; start < count; start += 10) {
    const entries = Array.from({ length: Math.min(10, count - start) }, (_, offset) => ({
      Id: String(offset),
      MessageBody: `${label}-${start + offset}`,
      ...(group === undefined ? {} : { MessageGroupId: group }),
    }));
    const result = await sqs.send(new SendMessageBatchCommand({ QueueUrl: url, Entries: entries }));
    expect(result.Failed ?? []).toEqual([]);
  }
}

/** Drains the queue through the local event source; the bodies in the order the handler saw them, batch by batch. */
async function drain(queue: { url: string; arn: string }, maxConcurrency: number): Promise<{ batches: string[][]; records: SQSRecord[] }> {
  const batches: string[][] = [];
  const records: SQSRecord[] = [];
  const source = startSqsEventSource({
    sqs,
    queueUrl: queue.url,
    queueArn: queue.arn,
    batchSize: 10,
    maxConcurrency,
    functionTimeoutSeconds: 5,
    waitTimeSeconds: 0,
    reportBatchItemFailures: true,
    handler: async (event) => {
      batches.push(event.Records.map((record) => record.body));
      records.push(...event.Records);
      // A handler that takes a moment, so the batches overlap when two run at once.
      await new Promise((resolve) => setTimeout(resolve, 5));
    },
  });
  sources.push(source);
  await source.idle();
  return { batches, records };
}

const batchOf = (batches: string[][], body: string): number => batches.findIndex((batch) => batch.includes(body));

describe('the local queue as an SQS fair queue', () => {
  it.each([1, 2])("serves a quiet tenant's message in the first batch behind another tenant's 200 (concurrency %i)", async (concurrency) => {
    const queue = await createQueue();
    await send(queue.url, 'org_A', 200);
    await send(queue.url, 'org_B', 1);

    const { batches, records } = await drain(queue, concurrency);

    expect(batchOf(batches, 'org_B-0')).toBe(0);
    // Exactly once, each received once (nothing was received again to reorder the queue), and A's order kept.
    const bodies = records.map((record) => record.body);
    expect(new Set(bodies).size).toBe(201);
    expect(bodies).toHaveLength(201);
    expect(records.every((record) => record.attributes.ApproximateReceiveCount === '1')).toBe(true);
    const aOrder = bodies.filter((body) => body.startsWith('org_A-')).map((body) => Number(body.slice('org_A-'.length)));
    if (concurrency === 1) expect(aOrder).toEqual([...aOrder].sort((x, y) => x - y));
    const left = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: queue.url, AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'] }),
    );
    expect(left.Attributes).toEqual({ ApproximateNumberOfMessages: '0', ApproximateNumberOfMessagesNotVisible: '0' });
  });

  it("can fail: the same message in the backlog's own group waits behind all 200", async () => {
    const queue = await createQueue();
    await send(queue.url, 'org_A', 200);
    await send(queue.url, 'org_A', 1, 'late');

    const { batches } = await drain(queue, 1);

    expect(batchOf(batches, 'late-0')).toBe(batches.length - 1);
    expect(batches).toHaveLength(21);
  });

  it('takes turns between two backlogged tenants and keeps messages without a group in the order sent', async () => {
    const queue = await createQueue();
    await send(queue.url, 'org_A', 30);
    await send(queue.url, 'org_B', 30);
    const { batches } = await drain(queue, 1);
    const firstBatch = batches[0]!.map((body) => body.split('-')[0]);
    expect(firstBatch.filter((tenant) => tenant === 'org_A')).toHaveLength(5);
    expect(firstBatch.filter((tenant) => tenant === 'org_B')).toHaveLength(5);

    const plain = await createQueue();
    await send(plain.url, undefined, 25);
    const drained = await drain(plain, 1);
    expect(drained.batches.flat()).toEqual(Array.from({ length: 25 }, (_, index) => `none-${index}`));
  });

  it('returns the group a standard queue message was sent with, as AWS does', async () => {
    const queue = await createQueue();
    await sqs.send(new SendMessageCommand({ QueueUrl: queue.url, MessageBody: 'one', MessageGroupId: 'org_C' }));
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: [
          { Id: 'a', MessageBody: 'two', MessageGroupId: 'org_D' },
          { Id: 'b', MessageBody: 'three' },
        ],
      }),
    );
    const received = await sqs.send(
      new ReceiveMessageCommand({ QueueUrl: queue.url, MaxNumberOfMessages: 10, MessageSystemAttributeNames: ['MessageGroupId'] }),
    );
    const groups = Object.fromEntries((received.Messages ?? []).map((message) => [message.Body, message.Attributes?.MessageGroupId]));
    expect(groups).toEqual({ one: 'org_C', two: 'org_D', three: undefined });
  });
});
