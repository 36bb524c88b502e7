import { SendMessageBatchCommand, SendMessageCommand, SQSClient, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { FauxqsServer, startFauxqs as StartFauxqs } from 'fauxqs';
import { startSqsEventSource, type SqsEventSource, type SqsEventSourceOptions } from '../../../local/sqs-event-source';
import { importNativeEsm } from '../../../local/native-import';

/** fauxqs ships ESM only and jest runs this file as CommonJS: load it through Node's own loader. */
const importNative = importNativeEsm;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

const waitFor = async (predicate: () => boolean, timeoutMs = 5_000, what = 'condition'): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
};

let server: FauxqsServer;
let sqs: SQSClient;
let queueCounter = 0;
const sources: SqsEventSource[] = [];

beforeAll(async () => {
  const { startFauxqs } = await importNative<{ startFauxqs: typeof StartFauxqs }>('fauxqs');
  server = await startFauxqs({ port: 0, logger: false });
  sqs = new SQSClient({
    endpoint: server.address,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
});

afterEach(async () => {
  await Promise.all(sources.splice(0).map((s) => s.stop()));
});

afterAll(async () => {
  sqs?.destroy();
  await server?.stop();
});

interface TestQueue {
  name: string;
  url: string;
  arn: string;
}

const createQueue = (options: { visibilityTimeout?: number; dlq?: { arn: string; maxReceiveCount: number } } = {}): TestQueue => {
  const name = `test-queue-${++queueCounter}`;
  const attributes: Record<string, string> = { VisibilityTimeout: String(options.visibilityTimeout ?? 30) };
  if (options.dlq) {
    attributes.RedrivePolicy = JSON.stringify({ deadLetterTargetArn: options.dlq.arn, maxReceiveCount: options.dlq.maxReceiveCount });
  }
  const { queueUrl, queueArn } = server.createQueue(name, { attributes });
  return { name, url: queueUrl, arn: queueArn };
};

const sendBodies = async (queue: TestQueue, bodies: string[]): Promise<void> => {
  for (let i = 0; i < bodies.length; i += 10) {
    await sqs.send(
      new SendMessageBatchCommand({
        QueueUrl: queue.url,
        Entries: bodies.slice(i, i + 10).map((body, j) => ({ Id: String(i + j), MessageBody: body })),
      }),
    );
  }
};

/** Messages still in the queue: visible, delayed or in flight. */
const remaining = (queue: TestQueue): number => {
  const state = server.inspectQueue(queue.name);
  if (!state) throw new Error(`no queue ${queue.name}`);
  return state.messages.ready.length + state.messages.delayed.length + state.messages.inflight.length;
};

interface Batch {
  size: number;
  failed: number;
  error?: unknown;
  durationMs: number;
}

const start = (
  queue: TestQueue,
  options: Partial<SqsEventSourceOptions> & Pick<SqsEventSourceOptions, 'handler'>,
): { source: SqsEventSource; batches: Batch[] } => {
  const batches: Batch[] = [];
  const source = startSqsEventSource({
    sqs,
    queueUrl: queue.url,
    queueArn: queue.arn,
    batchSize: 10,
    maxConcurrency: 2,
    functionTimeoutSeconds: 5,
    waitTimeSeconds: 0,
    reportBatchItemFailures: true,
    onBatch: (info) => batches.push(info),
    ...options,
  });
  sources.push(source);
  return { source, batches };
};

describe('SQS event source', () => {
  it('hands the handler Lambda-shaped records and deletes them on success', async () => {
    const queue = createQueue();
    const events: SQSEvent[] = [];
    const contexts: string[] = [];
    const sentAt = Date.now();
    await sqs.send(
      new SendMessageCommand({
        QueueUrl: queue.url,
        MessageBody: JSON.stringify({ hello: 'world' }),
        MessageAttributes: {
          kind: { DataType: 'String', StringValue: 'greeting' },
          count: { DataType: 'Number', StringValue: '42' },
          blob: { DataType: 'Binary', BinaryValue: Buffer.from([1, 2, 3]) },
        },
      }),
    );
    const { source, batches } = start(queue, {
      waitTimeSeconds: 1,
      handler: async (event, context) => {
        events.push(event);
        contexts.push(context.functionName);
        expect(context.getRemainingTimeInMillis()).toBeGreaterThan(4_000);
      },
    });
    await waitFor(() => batches.length === 1, 5_000, 'the batch');
    await source.idle();

    expect(events).toHaveLength(1);
    const record = events[0]!.Records[0] as SQSRecord;
    expect(record).toEqual({
      messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      receiptHandle: expect.any(String),
      body: '{"hello":"world"}',
      attributes: expect.objectContaining({
        ApproximateReceiveCount: '1',
        SentTimestamp: expect.stringMatching(/^\d{13}$/),
        SenderId: expect.any(String),
        ApproximateFirstReceiveTimestamp: expect.stringMatching(/^\d{13}$/),
      }),
      messageAttributes: {
        kind: { stringValue: 'greeting', stringListValues: [], binaryListValues: [], dataType: 'String' },
        count: { stringValue: '42', stringListValues: [], binaryListValues: [], dataType: 'Number' },
        blob: { binaryValue: Buffer.from([1, 2, 3]).toString('base64'), stringListValues: [], binaryListValues: [], dataType: 'Binary' },
      },
      md5OfBody: expect.stringMatching(/^[0-9a-f]{32}$/),
      md5OfMessageAttributes: expect.stringMatching(/^[0-9a-f]{32}$/),
      eventSource: 'aws:sqs',
      eventSourceARN: queue.arn,
      awsRegion: 'us-east-1',
    });
    expect(Number(record.attributes.SentTimestamp)).toBeGreaterThanOrEqual(sentAt - 1_000);
    expect(contexts).toEqual([`local-${queue.name}`]);
    expect(batches).toEqual([{ size: 1, failed: 0, durationMs: expect.any(Number) }]);
    expect(remaining(queue)).toBe(0);
  });

  it('delivers batches of at most batchSize and processes every message once', async () => {
    const queue = createQueue();
    const bodies = Array.from({ length: 25 }, (_, i) => `m${i}`);
    await sendBodies(queue, bodies);
    const seen: string[] = [];
    const sizes: number[] = [];
    const { source } = start(queue, {
      batchSize: 4,
      handler: async (event) => {
        sizes.push(event.Records.length);
        for (const r of event.Records) seen.push(r.body);
      },
    });
    await waitFor(() => seen.length >= 25, 5_000, 'all messages');
    await source.idle();
    expect(Math.max(...sizes)).toBeLessThanOrEqual(4);
    expect([...seen].sort()).toEqual([...bodies].sort());
    expect(remaining(queue)).toBe(0);
  });

  it('redelivers only the messages named in batchItemFailures, with a higher ApproximateReceiveCount', async () => {
    const queue = createQueue({ visibilityTimeout: 1 });
    await sendBodies(queue, ['ok-1', 'fail-once', 'ok-2']);
    const receives: Array<{ body: string; count: string }> = [];
    const { source, batches } = start(queue, {
      handler: async (event): Promise<SQSBatchResponse> => {
        const failures = [];
        for (const r of event.Records) {
          receives.push({ body: r.body, count: r.attributes.ApproximateReceiveCount });
          if (r.body === 'fail-once' && r.attributes.ApproximateReceiveCount === '1') failures.push({ itemIdentifier: r.messageId });
        }
        return { batchItemFailures: failures };
      },
    });
    await waitFor(() => receives.length === 4, 5_000, 'the redelivery');
    await source.idle();
    expect(receives.filter((r) => r.body === 'fail-once').map((r) => r.count)).toEqual(['1', '2']);
    expect(receives.filter((r) => r.body !== 'fail-once').map((r) => r.count)).toEqual(['1', '1']);
    expect(batches.map((b) => b.failed)).toEqual([1, 0]);
    expect(remaining(queue)).toBe(0);
  });

  it('fails the whole batch for an unknown itemIdentifier (Lambda rule)', async () => {
    const queue = createQueue({ visibilityTimeout: 1 });
    await sendBodies(queue, ['a', 'b']);
    const receives: Array<{ body: string; count: string }> = [];
    const { source, batches } = start(queue, {
      handler: async (event) => {
        for (const r of event.Records) receives.push({ body: r.body, count: r.attributes.ApproximateReceiveCount });
        if (receives.length <= 2) return { batchItemFailures: [{ itemIdentifier: 'not-in-this-batch' }] };
        return { batchItemFailures: [] };
      },
    });
    await waitFor(() => receives.length === 4, 5_000, 'the redelivery');
    await source.idle();
    expect(receives.map((r) => `${r.body}:${r.count}`).sort()).toEqual(['a:1', 'a:2', 'b:1', 'b:2']);
    expect(batches[0]).toEqual(expect.objectContaining({ size: 2, failed: 2, error: expect.any(Error) }));
    expect(batches[1]).toEqual(expect.objectContaining({ size: 2, failed: 0 }));
    expect(remaining(queue)).toBe(0);
  });

  it('fails the whole batch for a malformed response', async () => {
    const queue = createQueue({ visibilityTimeout: 1 });
    await sendBodies(queue, ['a']);
    let calls = 0;
    const { source, batches } = start(queue, {
      handler: async () => {
        calls++;
        return (calls === 1 ? { batchItemFailures: 'nope' } : { batchItemFailures: null }) as unknown as SQSBatchResponse;
      },
    });
    await waitFor(() => calls === 2, 5_000, 'the redelivery');
    await source.idle();
    expect(batches.map((b) => b.failed)).toEqual([1, 0]);
    expect(remaining(queue)).toBe(0);
  });

  it('deletes the whole batch when partial batch responses are off, whatever the handler returns', async () => {
    const queue = createQueue({ visibilityTimeout: 1 });
    await sendBodies(queue, ['a', 'b']);
    let calls = 0;
    const { source, batches } = start(queue, {
      reportBatchItemFailures: false,
      handler: async (event) => {
        calls++;
        return { batchItemFailures: event.Records.map((r) => ({ itemIdentifier: r.messageId })) };
      },
    });
    await waitFor(() => batches.length === 1, 5_000, 'the batch');
    await source.idle();
    expect(calls).toBe(1);
    expect(batches[0]).toEqual(expect.objectContaining({ size: 2, failed: 0 }));
    expect(remaining(queue)).toBe(0);
  });

  it('deletes nothing when the handler throws, reports the error and keeps polling', async () => {
    const queue = createQueue({ visibilityTimeout: 1 });
    await sendBodies(queue, ['x', 'y']);
    const counts: string[] = [];
    const { source, batches } = start(queue, {
      handler: async (event) => {
        for (const r of event.Records) counts.push(`${r.body}:${r.attributes.ApproximateReceiveCount}`);
        if (event.Records.some((r) => r.attributes.ApproximateReceiveCount === '1')) throw new Error('handler exploded');
      },
    });
    await waitFor(() => counts.length === 4, 5_000, 'the redelivery');
    await source.idle();
    expect(counts.sort()).toEqual(['x:1', 'x:2', 'y:1', 'y:2']);
    expect(batches[0]).toEqual(expect.objectContaining({ size: 2, failed: 2, error: expect.objectContaining({ message: 'handler exploded' }) }));
    expect(batches[1]).toEqual(expect.objectContaining({ size: 2, failed: 0 }));
    expect(remaining(queue)).toBe(0);
  });

  it('treats a handler that outlives the function timeout as failed', async () => {
    const queue = createQueue({ visibilityTimeout: 1 });
    await sendBodies(queue, ['slow']);
    const counts: string[] = [];
    const { source, batches } = start(queue, {
      functionTimeoutSeconds: 0.2,
      handler: async (event) => {
        const count = event.Records[0]!.attributes.ApproximateReceiveCount;
        counts.push(count);
        if (count === '1') await sleep(1_500);
      },
    });
    await waitFor(() => counts.length === 2 && batches.length === 2, 5_000, 'the redelivery');
    await source.idle();
    expect(batches[0]).toEqual(expect.objectContaining({ failed: 1, error: expect.objectContaining({ message: expect.stringContaining('timed out') }) }));
    expect(batches[0]!.durationMs).toBeLessThan(1_000);
    expect(batches[1]).toEqual(expect.objectContaining({ failed: 0 }));
    expect(remaining(queue)).toBe(0);
  });

  it('leaves a message that keeps failing to the dead-letter queue after maxReceiveCount', async () => {
    const dlq = createQueue();
    const queue = createQueue({ visibilityTimeout: 1, dlq: { arn: dlq.arn, maxReceiveCount: 2 } });
    await sendBodies(queue, ['poison']);
    const counts: string[] = [];
    start(queue, {
      handler: async (event) => {
        counts.push(event.Records[0]!.attributes.ApproximateReceiveCount);
        throw new Error('always fails');
      },
    });
    await waitFor(() => server.inspectQueue(dlq.name)!.messages.ready.length === 1, 6_000, 'the dead-letter queue');
    expect(counts).toEqual(['1', '2']);
    expect(remaining(queue)).toBe(0);
    const dead = await sqs.send(new ReceiveMessageCommand({ QueueUrl: dlq.url, MaxNumberOfMessages: 10 }));
    expect(dead.Messages?.map((m) => m.Body)).toEqual(['poison']);
  });

  it('never runs more than maxConcurrency handlers at once', async () => {
    const queue = createQueue();
    await sendBodies(
      queue,
      Array.from({ length: 12 }, (_, i) => `c${i}`),
    );
    let running = 0;
    let peak = 0;
    let done = 0;
    const { source } = start(queue, {
      batchSize: 1,
      maxConcurrency: 3,
      handler: async () => {
        running++;
        peak = Math.max(peak, running);
        await sleep(80);
        running--;
        done++;
      },
    });
    await waitFor(() => done === 12, 5_000, 'all messages');
    await source.idle();
    expect(peak).toBe(3);
    expect(remaining(queue)).toBe(0);
  });

  it('stop() lets in-flight batches finish and then polls no more', async () => {
    const queue = createQueue();
    await sendBodies(queue, ['s1', 's2']);
    const started: string[] = [];
    const finished: string[] = [];
    const { source, batches } = start(queue, {
      batchSize: 1,
      maxConcurrency: 2,
      waitTimeSeconds: 1,
      handler: async (event) => {
        const body = event.Records[0]!.body;
        started.push(body);
        await sleep(300);
        finished.push(body);
      },
    });
    await waitFor(() => started.length === 2, 5_000, 'both batches to start');
    await source.stop();
    expect(finished.sort()).toEqual(['s1', 's2']);
    expect(batches).toHaveLength(2);
    expect(remaining(queue)).toBe(0);

    await sendBodies(queue, ['after-stop']);
    await sleep(200);
    expect(started).toHaveLength(2);
    expect(remaining(queue)).toBe(1);
    await source.idle(); // resolves at once after stop
  });

  it('stop() aborts a long poll instead of waiting it out, and reports no failed poll for it', async () => {
    const queue = createQueue();
    const { source, batches } = start(queue, { waitTimeSeconds: 20, handler: async () => undefined });
    await sleep(100); // the poll is waiting on the empty queue
    const stopping = Date.now();
    await source.stop();
    // Without the abort, stop() waits out the 20 s poll; the bound is loose for a loaded machine.
    expect(Date.now() - stopping).toBeLessThan(5_000);
    expect(batches).toEqual([]);
  });

  it('idle() resolves once the queue is observed empty', async () => {
    const queue = createQueue();
    const { source } = start(queue, { handler: async () => undefined });
    const t0 = Date.now();
    await source.idle();
    expect(Date.now() - t0).toBeLessThan(1_000);
  });

  it('survives a failing poll (missing queue) and reports it', async () => {
    const queue = { name: 'nope', url: `${server.address}/000000000000/does-not-exist`, arn: 'arn:aws:sqs:us-east-1:000000000000:does-not-exist' };
    const { batches } = start(queue, { handler: async () => undefined });
    await waitFor(() => batches.length >= 2, 5_000, 'failed polls');
    expect(batches[0]).toEqual(expect.objectContaining({ size: 0, failed: 0, error: expect.anything() }));
  });

  it('rejects a batch size over 10', () => {
    const queue = createQueue();
    expect(() => start(queue, { batchSize: 11, handler: async () => undefined })).toThrow(RangeError);
  });
});
