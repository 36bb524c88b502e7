/**
 * A local stand-in for Lambda's SQS event source mapping.
 *
 * Polls a queue (long polling), hands each batch to the handler as the `SQSEvent` Lambda would
 * build, and settles the messages as Lambda does: on success it deletes them, except those named
 * in `batchItemFailures` when partial batch responses are on; on an error or a timeout it deletes
 * nothing, so the messages come back after the visibility timeout and the queue's redrive policy
 * moves them to the dead-letter queue after `maxReceiveCount` receives.
 *
 * Generic: knows SQS and Lambda, nothing of the business.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  type Message,
  type MessageAttributeValue,
  type SQSClient,
} from '@aws-sdk/client-sqs';
import { localLambdaContext } from './lambda-context';
import type { Context, SQSBatchResponse, SQSEvent, SQSMessageAttributes, SQSRecord } from 'aws-lambda';

export type SqsBatchHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface SqsEventSourceOptions {
  sqs: SQSClient; // already built, explicit endpoint
  queueUrl: string;
  queueArn: string;
  handler: SqsBatchHandler;
  batchSize: number; // max 10 per ReceiveMessage
  maxConcurrency: number; // concurrent handler invocations (pollers)
  functionTimeoutSeconds: number;
  waitTimeSeconds?: number; // long poll, default 1 locally so stop() is quick
  reportBatchItemFailures: boolean;
  /**
   * Called after each batch is settled (messages deleted or left for redelivery). A failed poll
   * (ReceiveMessage error) is reported too, as `{ size: 0, failed: 0, error }`.
   */
  onBatch?: (info: { size: number; failed: number; error?: unknown; durationMs: number }) => void;
  /** `context.functionName`. Default `local-<queue name>`. */
  functionName?: string;
  /** `context.memoryLimitInMB`. Default 128 (Lambda's default). */
  memoryMb?: number;
}

export interface SqsEventSource {
  /** Stops polling and lets in-flight batches finish (a poll already waiting completes first). */
  stop(): Promise<void>;
  /**
   * Resolves when, after this call, the queue is observed empty with no batch in flight (or on stop):
   * a poll started after the call comes back empty, or the queue reports no visible and no
   * in-flight message. Messages waiting out a visibility timeout after a failure count as in flight
   * for the second check but are not seen by a poll, so a failed message does not hold idle() up.
   */
  idle(): Promise<void>;
}

/** Pause after an empty short poll (`waitTimeSeconds: 0`) so an idle source does not spin. */
const EMPTY_SHORT_POLL_PAUSE_MS = 50;
const MAX_ERROR_BACKOFF_MS = 5_000;

class BatchFailure extends Error {
  override name = 'BatchFailure';
}

const toLambdaAttributes = (attributes: Record<string, MessageAttributeValue> | undefined): SQSMessageAttributes => {
  const out: SQSMessageAttributes = {};
  if (!attributes) return out;
  for (const [name, value] of Object.entries(attributes)) {
    out[name] = {
      ...(value.StringValue !== undefined ? { stringValue: value.StringValue } : {}),
      ...(value.BinaryValue !== undefined ? { binaryValue: Buffer.from(value.BinaryValue).toString('base64') } : {}),
      stringListValues: value.StringListValues ?? [],
      binaryListValues: (value.BinaryListValues ?? []).map((b) => Buffer.from(b).toString('base64')),
      dataType: value.DataType ?? 'String',
    };
  }
  return out;
};

const toRecord = (message: Message, queueArn: string, awsRegion: string): SQSRecord => {
  const a = message.Attributes ?? {};
  const { ApproximateReceiveCount, SentTimestamp, SenderId, ApproximateFirstReceiveTimestamp, ...rest } = a as Record<
    string,
    string | undefined
  >;
  const attributes: SQSRecord['attributes'] = {
    ApproximateReceiveCount: ApproximateReceiveCount ?? '1',
    SentTimestamp: SentTimestamp ?? String(Date.now()),
    SenderId: SenderId ?? '000000000000',
    ApproximateFirstReceiveTimestamp: ApproximateFirstReceiveTimestamp ?? String(Date.now()),
  };
  for (const [name, value] of Object.entries(rest)) {
    if (value !== undefined) (attributes as unknown as Record<string, string>)[name] = value;
  }
  const record: SQSRecord = {
    messageId: message.MessageId ?? '',
    receiptHandle: message.ReceiptHandle ?? '',
    body: message.Body ?? '',
    attributes,
    messageAttributes: toLambdaAttributes(message.MessageAttributes),
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: queueArn,
    awsRegion,
  };
  if (message.MD5OfMessageAttributes) record.md5OfMessageAttributes = message.MD5OfMessageAttributes;
  return record;
};

/**
 * Message ids to keep (not delete) from a partial batch response, by Lambda's rules: a null or
 * empty response or failure list is a full success; a malformed response, or an item identifier
 * that is empty, null or not in the batch, fails the whole batch (throws).
 */
const failedIdsOf = (response: unknown, batchIds: ReadonlySet<string>): Set<string> => {
  if (response === undefined || response === null) return new Set();
  if (typeof response !== 'object' || Array.isArray(response)) {
    throw new BatchFailure('Invalid partial batch response: not an object');
  }
  const failures = (response as { batchItemFailures?: unknown }).batchItemFailures;
  if (failures === undefined || failures === null) return new Set();
  if (!Array.isArray(failures)) throw new BatchFailure('Invalid partial batch response: batchItemFailures is not a list');
  const failed = new Set<string>();
  for (const item of failures) {
    const id = typeof item === 'object' && item !== null ? (item as { itemIdentifier?: unknown }).itemIdentifier : undefined;
    if (typeof id !== 'string' || id === '') {
      throw new BatchFailure('Invalid partial batch response: missing or empty itemIdentifier');
    }
    if (!batchIds.has(id)) throw new BatchFailure(`Invalid partial batch response: unknown itemIdentifier ${id}`);
    failed.add(id);
  }
  return failed;
};

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

export function startSqsEventSource(options: SqsEventSourceOptions): SqsEventSource {
  const { sqs, queueUrl, queueArn, handler, reportBatchItemFailures } = options;
  if (!Number.isInteger(options.batchSize) || options.batchSize < 1 || options.batchSize > 10) {
    throw new RangeError(`batchSize must be an integer from 1 to 10 (got ${options.batchSize})`);
  }
  if (!Number.isInteger(options.maxConcurrency) || options.maxConcurrency < 1) {
    throw new RangeError(`maxConcurrency must be a positive integer (got ${options.maxConcurrency})`);
  }
  const waitTimeSeconds = options.waitTimeSeconds ?? 1;
  if (!Number.isInteger(waitTimeSeconds) || waitTimeSeconds < 0 || waitTimeSeconds > 20) {
    throw new RangeError(`waitTimeSeconds must be an integer from 0 to 20 (got ${waitTimeSeconds})`);
  }
  const timeoutMs = options.functionTimeoutSeconds * 1000;
  const arnParts = queueArn.split(':');
  const awsRegion = arnParts[3] || process.env.AWS_REGION || 'us-east-1';
  const queueName = arnParts[5] || queueUrl.split('/').pop() || 'queue';
  const functionName = options.functionName ?? `local-${queueName}`;
  const memoryLimitInMB = String(options.memoryMb ?? 128);

  let running = true;
  /** Slots taken by a poll or a batch; at most maxConcurrency. */
  let slotsInUse = 0;
  const slotWaiters: Array<() => void> = [];
  const batches = new Set<Promise<void>>();
  /** Orders idle() calls, polls and probes: only a check that starts after an idle() call can answer it. */
  let sequence = 0;
  const idleWaiters: Array<{ registeredAt: number; resolve: () => void }> = [];
  let probing = false;
  let probeAgain = false;
  let wakeSleep: (() => void) | undefined;

  const acquireSlot = (): Promise<void> => {
    if (slotsInUse < options.maxConcurrency) {
      slotsInUse++;
      return Promise.resolve();
    }
    return new Promise((resolve) => slotWaiters.push(resolve));
  };
  const releaseSlot = (): void => {
    const next = slotWaiters.shift();
    if (next) next(); // the slot passes straight to the waiter
    else slotsInUse--;
  };
  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        wakeSleep = undefined;
        resolve();
      }
      wakeSleep = done;
    });
  /** Resolves the idle() calls made before a check that started at `checkStartedAt` found the queue empty. */
  const resolveIdleWaiters = (checkStartedAt: number): void => {
    for (let i = idleWaiters.length - 1; i >= 0; i--) {
      const waiter = idleWaiters[i] as { registeredAt: number; resolve: () => void };
      if (waiter.registeredAt < checkStartedAt) {
        idleWaiters.splice(i, 1);
        waiter.resolve();
      }
    }
  };
  /**
   * Fast idle check, so idle() need not wait for a long poll to come back empty: no visible and no
   * in-flight message (a message a poll has just taken is in flight until deleted) and no batch.
   */
  const probeIdle = (): void => {
    if (!running || idleWaiters.length === 0) return;
    if (probing) {
      probeAgain = true;
      return;
    }
    probing = true;
    const startedAt = ++sequence;
    sqs
      .send(
        new GetQueueAttributesCommand({
          QueueUrl: queueUrl,
          AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible'],
        }),
      )
      .then(
        (result) => {
          const visible = Number(result.Attributes?.ApproximateNumberOfMessages ?? NaN);
          const inFlight = Number(result.Attributes?.ApproximateNumberOfMessagesNotVisible ?? NaN);
          if (visible === 0 && inFlight === 0 && batches.size === 0) resolveIdleWaiters(startedAt);
        },
        () => undefined, // the poll-based check still applies
      )
      .finally(() => {
        probing = false;
        if (probeAgain) {
          probeAgain = false;
          probeIdle();
        }
      });
  };
  const report = (info: { size: number; failed: number; error?: unknown; durationMs: number }): void => {
    try {
      options.onBatch?.(info);
    } catch {
      // An observer's fault never stops the event source.
    }
  };

  const invokeWithTimeout = (event: SQSEvent): Promise<Outcome> => {
    const deadline = Date.now() + timeoutMs;
    const context = localLambdaContext({ functionName, region: awsRegion, memoryLimitInMB, deadline });
    return new Promise<Outcome>((resolve) => {
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        resolve({ ok: false, error: new BatchFailure(`Task timed out after ${options.functionTimeoutSeconds} seconds`) });
      }, timeoutMs);
      // A handler that outlives its timeout keeps running (no sandbox to freeze), but its outcome is ignored.
      Promise.resolve()
        .then(() => handler(event, context))
        .then(
          (value) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ ok: true, value });
          },
          (error: unknown) => {
            if (settled) return;
            settled = true;
            clearTimeout(timer);
            resolve({ ok: false, error });
          },
        );
    });
  };

  const deleteMessages = async (messages: readonly Message[]): Promise<void> => {
    for (let i = 0; i < messages.length; i += 10) {
      const entries = messages
        .slice(i, i + 10)
        .map((m, j) => ({ Id: String(i + j), ReceiptHandle: m.ReceiptHandle ?? '' }));
      try {
        await sqs.send(new DeleteMessageBatchCommand({ QueueUrl: queueUrl, Entries: entries }));
      } catch {
        // Not deleted: the messages come back after the visibility timeout (at-least-once delivery).
      }
    }
  };

  const runBatch = async (messages: Message[]): Promise<void> => {
    const event: SQSEvent = { Records: messages.map((m) => toRecord(m, queueArn, awsRegion)) };
    const started = performance.now();
    const outcome = await invokeWithTimeout(event);
    const durationMs = performance.now() - started;
    let failed = messages.length;
    let error: unknown;
    let toDelete: Message[] = [];
    if (!outcome.ok) {
      error = outcome.error;
    } else if (!reportBatchItemFailures) {
      toDelete = messages;
      failed = 0;
    } else {
      try {
        const failedIds = failedIdsOf(outcome.value, new Set(messages.map((m) => m.MessageId ?? '')));
        toDelete = messages.filter((m) => !failedIds.has(m.MessageId ?? ''));
        failed = failedIds.size;
      } catch (invalid) {
        error = invalid;
      }
    }
    if (toDelete.length > 0) await deleteMessages(toDelete);
    report(error === undefined ? { size: messages.length, failed, durationMs } : { size: messages.length, failed, error, durationMs });
  };

  const poll = async (): Promise<void> => {
    let consecutiveErrors = 0;
    while (running) {
      await acquireSlot();
      if (!running) {
        releaseSlot();
        break;
      }
      const pollStartedAt = ++sequence;
      let messages: Message[];
      try {
        const received = await sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: queueUrl,
            MaxNumberOfMessages: options.batchSize,
            WaitTimeSeconds: waitTimeSeconds,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
        );
        messages = received.Messages ?? [];
        consecutiveErrors = 0;
      } catch (error) {
        releaseSlot();
        report({ size: 0, failed: 0, error, durationMs: 0 });
        consecutiveErrors++;
        await sleep(Math.min(MAX_ERROR_BACKOFF_MS, 100 * 2 ** Math.min(consecutiveErrors, 6)));
        continue;
      }
      if (messages.length === 0) {
        releaseSlot();
        if (batches.size === 0) resolveIdleWaiters(pollStartedAt);
        if (waitTimeSeconds === 0 && running) await sleep(EMPTY_SHORT_POLL_PAUSE_MS);
        continue;
      }
      // The batch keeps the slot until it is settled; polling goes on while slots remain.
      const batch: Promise<void> = runBatch(messages)
        .catch(() => undefined)
        .finally(() => {
          batches.delete(batch);
          releaseSlot();
          if (batches.size === 0) probeIdle();
        });
      batches.add(batch);
    }
  };

  const pollerDone = poll();
  let stopping: Promise<void> | undefined;

  return {
    stop() {
      stopping ??= (async () => {
        running = false;
        wakeSleep?.();
        // Wake a poller waiting for a slot so it can see `running` is false.
        for (const waiter of slotWaiters.splice(0)) {
          slotsInUse++;
          waiter();
        }
        await pollerDone;
        while (batches.size > 0) await Promise.all([...batches]);
        for (const waiter of idleWaiters.splice(0)) waiter.resolve();
      })();
      return stopping;
    },
    idle() {
      if (!running) return stopping ?? Promise.resolve();
      return new Promise<void>((resolve) => {
        idleWaiters.push({ registeredAt: ++sequence, resolve });
        probeIdle();
      });
    },
  };
}
