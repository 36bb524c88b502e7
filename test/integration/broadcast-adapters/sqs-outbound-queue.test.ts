import {
  CreateQueueCommand,
  ReceiveMessageCommand,
  SendMessageBatchCommand,
  SQSClient,
  type SendMessageBatchCommandInput,
  type SendMessageBatchCommandOutput,
} from '@aws-sdk/client-sqs';
import { SqsOutboundQueue } from '../../../shared/adapters/sqs/sqs-outbound-queue';
import { decodeOutboundMessage, encodeOutboundMessage, type TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { emulatorCredentials, emulatorRegion, startFauxqsEmulator, type RunningEmulator } from '../../../local/emulators';
import { chunkMessage } from '../../support/broadcast-fakes';

let emulator: RunningEmulator;
let sqs: SQSClient;
let queueCounter = 0;

beforeAll(async () => {
  emulator = await startFauxqsEmulator({});
  sqs = new SQSClient({ endpoint: emulator.endpoint, region: emulatorRegion, credentials: emulatorCredentials });
}, 20_000);

afterAll(async () => {
  sqs?.destroy();
  await emulator?.stop();
});

afterEach(() => {
  jest.restoreAllMocks();
});

/** A queue with AWS's classic 256 KiB message limit. */
const createQueue = async () => {
  const created = await sqs.send(
    new CreateQueueCommand({ QueueName: `outbound-test-${(queueCounter += 1)}`, Attributes: { MaximumMessageSize: String(256 * 1024) } }),
  );
  return created.QueueUrl!;
};

/** Every SendMessageBatch the adapter makes, as sent. */
const recordBatches = () => {
  const batches: SendMessageBatchCommandInput[] = [];
  const original = sqs.send.bind(sqs);
  // SQSClient.send also has a callback overload returning void; this stands for the promise one the adapter uses.
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  jest.spyOn(sqs, 'send').mockImplementation(((command: unknown) => {
    if (command instanceof SendMessageBatchCommand) batches.push(command.input);
    return original(command as SendMessageBatchCommand);
  }) as typeof sqs.send);
  return batches;
};

const receiveAll = async (queueUrl: string, expected: number): Promise<string[]> => {
  const bodies: string[] = [];
  for (let round = 0; round < 50 && bodies.length < expected; round += 1) {
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    bodies.push(...(received.Messages ?? []).map((message) => message.Body!));
  }
  return bodies;
};

const message = (chunkIndex: number, recipients: number, parameterBytes = 8): TemplateChunkMessage => {
  const base = chunkMessage(recipients, { jobId: 'pub_sqs', chunkIndex });
  return { ...base, recipients: base.recipients.map(({ index, to }) => ({ index, to, parameters: [`${'p'.repeat(parameterBytes)}${index}`] })) };
};

const batchBytes = (batch: SendMessageBatchCommandInput) => batch.Entries!.reduce((sum, entry) => sum + Buffer.byteLength(entry.MessageBody!), 0);

describe('SqsOutboundQueue on fauxqs', () => {
  it('sends 25 small messages in batches of 10, 10 and 5, and they all arrive intact', async () => {
    const queueUrl = await createQueue();
    const batches = recordBatches();
    const messages = Array.from({ length: 25 }, (_, chunkIndex) => message(chunkIndex, 20));
    await new SqsOutboundQueue(sqs, { bulk: queueUrl }).enqueue(messages);

    expect(batches.map((batch) => batch.Entries!.length)).toEqual([10, 10, 5]);
    for (const batch of batches) expect(new Set(batch.Entries!.map((entry) => entry.Id)).size).toBe(batch.Entries!.length);
    const received = await receiveAll(queueUrl, 25);
    expect(received).toHaveLength(25);
    expect(received.map(decodeOutboundMessage).sort((a, b) => a.chunkIndex - b.chunkIndex)).toEqual(messages);
  });

  it('keeps each batch within 250 KiB, in order, with large messages', async () => {
    const queueUrl = await createQueue();
    const batches = recordBatches();
    // About 100 KiB each: two fit in a batch, a third would not.
    const messages = Array.from({ length: 7 }, (_, chunkIndex) => message(chunkIndex, 100, 1000));
    for (const each of messages) expect(Buffer.byteLength(encodeOutboundMessage(each))).toBeGreaterThan(90 * 1024);
    await new SqsOutboundQueue(sqs, { bulk: queueUrl }).enqueue(messages);

    expect(batches.map((batch) => batch.Entries!.length)).toEqual([2, 2, 2, 1]);
    for (const batch of batches) expect(batchBytes(batch)).toBeLessThanOrEqual(250 * 1024);
    expect(batches.flatMap((batch) => batch.Entries!.map((entry) => entry.MessageBody))).toEqual(messages.map(encodeOutboundMessage));
    const received = await receiveAll(queueUrl, 7);
    expect(new Set(received)).toEqual(new Set(messages.map(encodeOutboundMessage)));
  });

  it('respects both limits with mixed sizes', async () => {
    const queueUrl = await createQueue();
    const batches = recordBatches();
    const messages = Array.from({ length: 40 }, (_, chunkIndex) => message(chunkIndex, chunkIndex % 7 === 0 ? 150 : 10, chunkIndex % 7 === 0 ? 1000 : 20));
    await new SqsOutboundQueue(sqs, { bulk: queueUrl }).enqueue(messages);
    for (const batch of batches) {
      expect(batch.Entries!.length).toBeLessThanOrEqual(10);
      expect(batchBytes(batch)).toBeLessThanOrEqual(250 * 1024);
    }
    expect(batches.flatMap((batch) => batch.Entries!.map((entry) => entry.MessageBody))).toEqual(messages.map(encodeOutboundMessage));
    expect(await receiveAll(queueUrl, 40)).toHaveLength(40);
  });

  it('passes a delay to every entry', async () => {
    const queueUrl = await createQueue();
    const batches = recordBatches();
    await new SqsOutboundQueue(sqs, { bulk: queueUrl }).enqueue([message(0, 1), message(1, 1)], { delaySeconds: 5 });
    expect(batches[0]!.Entries!.map((entry) => entry.DelaySeconds)).toEqual([5, 5]);
    // Delayed: nothing is visible yet.
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10, WaitTimeSeconds: 0 }));
    expect(received.Messages ?? []).toHaveLength(0);
  });
});

describe('SqsOutboundQueue with partial batch failures', () => {
  const stubClient = (failuresPerCall: Array<(ids: string[]) => string[]>) => {
    const calls: string[][] = [];
    const client = {
      send: jest.fn(async (command: SendMessageBatchCommand): Promise<Partial<SendMessageBatchCommandOutput>> => {
        const ids = command.input.Entries!.map((entry) => entry.Id!);
        calls.push(ids);
        const failed = (failuresPerCall[calls.length - 1] ?? (() => []))(ids);
        return {
          Successful: ids.filter((id) => !failed.includes(id)).map((id) => ({ Id: id, MessageId: `m-${id}`, MD5OfMessageBody: '' })),
          Failed: failed.map((id) => ({ Id: id, Code: 'InternalError', SenderFault: false })),
        };
      }),
    };
    return { client: client as unknown as SQSClient, calls };
  };

  it('offers only the refused entries again', async () => {
    const { client, calls } = stubClient([(ids) => ids.filter((id) => id === '1' || id === '3'), () => []]);
    await new SqsOutboundQueue(client, { bulk: 'http://queue' }).enqueue([message(0, 1), message(1, 1), message(2, 1), message(3, 1)]);
    expect(calls).toEqual([
      ['0', '1', '2', '3'],
      ['1', '3'],
    ]);
  });

  it('gives up with an error when entries keep being refused', async () => {
    const { client, calls } = stubClient(Array.from({ length: 10 }, () => (ids: string[]) => ids.slice(0, 1)));
    await expect(new SqsOutboundQueue(client, { bulk: 'http://queue' }).enqueue([message(0, 1), message(1, 1)])).rejects.toThrow(
      'SQS refused 1 outbound messages',
    );
    expect(calls).toHaveLength(4);
  });
});
