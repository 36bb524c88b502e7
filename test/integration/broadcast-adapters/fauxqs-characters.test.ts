/**
 * The local SQS emulator accepts and refuses the characters real SQS does (local/emulators.ts):
 * emoji (above U+FFFF), combining marks and right-to-left text pass byte for byte; U+FFFF and an
 * unpaired surrogate are refused. Two emulators in one process (several runtimes per test file).
 */
import { CreateQueueCommand, ReceiveMessageCommand, SQSClient, SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { emulatorCredentials, emulatorRegion, startFauxqsEmulator, type RunningEmulator } from '../../../local/emulators';

describe('fauxqs character check', () => {
  let emulators: RunningEmulator[];
  let sqs: SQSClient;
  let queueUrl: string;

  beforeAll(async () => {
    emulators = [await startFauxqsEmulator({}), await startFauxqsEmulator({})];
    sqs = new SQSClient({ endpoint: emulators[1]!.endpoint, credentials: emulatorCredentials, region: emulatorRegion });
    queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: 'characters' }))).QueueUrl!;
  });
  afterAll(async () => {
    sqs?.destroy();
    await Promise.all((emulators ?? []).map((emulator) => emulator.stop()));
  });

  const text = 'Olá 😀👍🏽 👨‍👩‍👧 e\u0301 n\u0303 مرحبا بالعالم שלום \u{1F600}\u{10FFFF}\uFFFD';

  it('carries emoji, combining marks and right-to-left text as AWS does', async () => {
    await sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: text }));
    const batch = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: [{ Id: 'a', MessageBody: `${text} #2` }] }));
    expect(batch.Failed ?? []).toEqual([]);
    const received = await sqs.send(new ReceiveMessageCommand({ QueueUrl: queueUrl, MaxNumberOfMessages: 10 }));
    expect(new Set(received.Messages?.map((message) => message.Body))).toEqual(new Set([text, `${text} #2`]));
  });

  it.each([
    ['U+FFFE', 'x\uFFFE'],
    ['U+FFFF', 'x\uFFFF'],
    ['an unpaired high surrogate', 'x\uD83D'],
    ['an unpaired low surrogate', '\uDE00x'],
    ['a control character', 'x\u0001'],
  ])('refuses %s as AWS does', async (_name, body) => {
    await expect(sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }))).rejects.toThrow(/Invalid characters/);
    const batch = await sqs.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: [{ Id: 'a', MessageBody: body }] }));
    expect(batch.Failed?.map((failure) => failure.Code)).toEqual(['InvalidMessageContents']);
  });
});
