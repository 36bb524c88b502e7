/**
 * A local stand-in for Lambda's SQS event source mapping.
 *
 * Polls a queue (long polling), hands each batch to the handler as the `SQSEvent` Lambda would
 * build, and settles the messages as Lambda does: on success it deletes them, except those named
 * in `batchItemFailures` when partial batch responses are on; on an error or a timeout it deletes
 * nothing, so the messages come back after the visibility timeout and the queue's redrive policy
 * moves them to the dead-letter queue after `maxReceiveCount` receives.
 *
 * Generic: knows SQS and Lambda, nothing of the business. Records and partial batch responses:
 * sqs-lambda-records.ts; when the source is idle: sqs-idle-watch.ts; concurrency: concurrency-slots.ts.
 * Fairness between tenants is the queue's, as on AWS (fair queues: the local emulator serves the
 * tenant with the fewest messages in flight first, fauxqs-fair-queues.ts); this poller neither
 * buffers nor returns messages, so every message is received once per delivery and keeps its
 * visibility timeout and receive count as SQS counts them.
 */
import { DeleteMessageBatchCommand, ReceiveMessageCommand, type Message, type SQSClient } from '@aws-sdk/client-sqs';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { localLambdaContext } from './lambda-context';
import { ConcurrencySlots } from './concurrency-slots';
import { IdleWatch } from './sqs-idle-watch';
import { BatchFailure, failedIdsOf, toRecord } from './sqs-lambda-records';

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
  onBatch?: (info: BatchInfo) => void;
  /** `context.functionName`. Default `local-<queue name>`. */
  functionName?: string;
  /** `context.memoryLimitInMB`. Default 128 (Lambda's default). */
  memoryMb?: number;
}

export interface BatchInfo {
  size: number;
  failed: number;
  error?: unknown;
  durationMs: number;
}

export interface SqsEventSource {
  /** Stops polling (a poll waiting for messages is aborted) and lets in-flight batches finish. */
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

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * Starts polling at once.
 *
 * @example
 * const source = startSqsEventSource({ sqs, queueUrl, queueArn, handler, batchSize: 10, maxConcurrency: 2, functionTimeoutSeconds: 30, reportBatchItemFailures: true });
 * await source.idle();
 * await source.stop();
 */
export function startSqsEventSource(options: SqsEventSourceOptions): SqsEventSource {
  const poller = new SqsPoller(options, checkedWaitTime(options));
  return { stop: () => poller.stop(), idle: () => poller.idle() };
}

/** Throws on settings Lambda's event source would refuse; the long-poll wait in seconds. */
function checkedWaitTime(options: SqsEventSourceOptions): number {
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
  return waitTimeSeconds;
}

class SqsPoller {
  private running = true;
  private readonly slots: ConcurrencySlots;
  private readonly batches = new Set<Promise<void>>();
  private readonly idleWatch: IdleWatch;
  private readonly awsRegion: string;
  private readonly functionName: string;
  private wakeSleep: (() => void) | undefined;
  private readonly pollerDone: Promise<void>;
  private stopping: Promise<void> | undefined;
  /**
   * Aborts the long poll in flight on stop: without it every stop waited out the poll (~1 s per
   * source, several sources per runtime, and the test suites close hundreds of runtimes). A message
   * the emulator had already handed to an aborted poll comes back after its visibility timeout, as
   * after a Lambda poller's crash.
   */
  private readonly polling = new AbortController();

  constructor(
    private readonly options: SqsEventSourceOptions,
    private readonly waitTimeSeconds: number,
  ) {
    const arnParts = options.queueArn.split(':');
    this.awsRegion = arnParts[3] || process.env.AWS_REGION || 'us-east-1';
    const queueName = arnParts[5] || options.queueUrl.split('/').pop() || 'queue';
    this.functionName = options.functionName ?? `local-${queueName}`;
    this.slots = new ConcurrencySlots(options.maxConcurrency);
    this.idleWatch = new IdleWatch({ sqs: options.sqs, queueUrl: options.queueUrl, isRunning: () => this.running, batchesInFlight: () => this.batches.size });
    this.pollerDone = this.poll();
  }

  stop(): Promise<void> {
    this.stopping ??= (async () => {
      this.running = false;
      this.polling.abort();
      this.wakeSleep?.();
      // Wake a poller waiting for a slot so it can see `running` is false.
      this.slots.wakeAll();
      await this.pollerDone;
      while (this.batches.size > 0) await Promise.all([...this.batches]);
      this.idleWatch.resolveAll();
    })();
    return this.stopping;
  }

  idle(): Promise<void> {
    if (!this.running) return this.stopping ?? Promise.resolve();
    return this.idleWatch.wait();
  }

  private async poll(): Promise<void> {
    let consecutiveErrors = 0;
    while (this.running) {
      await this.slots.acquire();
      if (!this.running) {
        this.slots.release();
        break;
      }
      const pollStartedAt = this.idleWatch.checkStarts();
      let messages: Message[];
      try {
        messages = await this.receive();
        consecutiveErrors = 0;
      } catch (error) {
        this.slots.release();
        if (!this.running) break; // the poll aborted by stop(): not a failure
        this.report({ size: 0, failed: 0, error, durationMs: 0 });
        consecutiveErrors++;
        await this.sleep(Math.min(MAX_ERROR_BACKOFF_MS, 100 * 2 ** Math.min(consecutiveErrors, 6)));
        continue;
      }
      if (messages.length === 0) {
        this.slots.release();
        if (this.batches.size === 0) this.idleWatch.resolveWaiters(pollStartedAt);
        if (this.waitTimeSeconds === 0 && this.running) await this.sleep(EMPTY_SHORT_POLL_PAUSE_MS);
        continue;
      }
      this.startBatch(messages);
    }
  }

  private async receive(): Promise<Message[]> {
    const received = await this.options.sqs.send(
      new ReceiveMessageCommand({
        QueueUrl: this.options.queueUrl,
        MaxNumberOfMessages: this.options.batchSize,
        WaitTimeSeconds: this.waitTimeSeconds,
        MessageSystemAttributeNames: ['All'],
        MessageAttributeNames: ['All'],
      }),
      { abortSignal: this.polling.signal },
    );
    return received.Messages ?? [];
  }

  /** The batch keeps its slot until it is settled; polling goes on while slots remain. */
  private startBatch(messages: Message[]): void {
    const batch: Promise<void> = this.runBatch(messages)
      .catch(() => undefined)
      .finally(() => {
        this.batches.delete(batch);
        this.slots.release();
        if (this.batches.size === 0) this.idleWatch.probe();
      });
    this.batches.add(batch);
  }

  private async runBatch(messages: Message[]): Promise<void> {
    const event: SQSEvent = { Records: messages.map((m) => toRecord(m, this.options.queueArn, this.awsRegion)) };
    const started = performance.now();
    const outcome = await this.invokeWithTimeout(event);
    const durationMs = performance.now() - started;
    const { toDelete, failed, error } = this.settlementOf(messages, outcome);
    if (toDelete.length > 0) await this.deleteMessages(toDelete);
    this.report(error === undefined ? { size: messages.length, failed, durationMs } : { size: messages.length, failed, error, durationMs });
  }

  /** Which messages to delete, by Lambda's rules: none on an error, all but the reported failures otherwise. */
  private settlementOf(messages: Message[], outcome: Outcome): { toDelete: Message[]; failed: number; error?: unknown } {
    if (!outcome.ok) return { toDelete: [], failed: messages.length, error: outcome.error };
    if (!this.options.reportBatchItemFailures) return { toDelete: messages, failed: 0 };
    try {
      const failedIds = failedIdsOf(outcome.value, new Set(messages.map((m) => m.MessageId ?? '')));
      return { toDelete: messages.filter((m) => !failedIds.has(m.MessageId ?? '')), failed: failedIds.size };
    } catch (invalid) {
      return { toDelete: [], failed: messages.length, error: invalid };
    }
  }

  private invokeWithTimeout(event: SQSEvent): Promise<Outcome> {
    const { functionTimeoutSeconds, handler, memoryMb } = this.options;
    const timeoutMs = functionTimeoutSeconds * 1000;
    const context = localLambdaContext({
      functionName: this.functionName,
      region: this.awsRegion,
      memoryLimitInMB: String(memoryMb ?? 128),
      deadline: Date.now() + timeoutMs,
    });
    return new Promise<Outcome>((resolve) => {
      let settled = false;
      const settle = (outcome: Outcome): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      };
      const timer = setTimeout(() => settle({ ok: false, error: new BatchFailure(`Task timed out after ${functionTimeoutSeconds} seconds`) }), timeoutMs);
      // A handler that outlives its timeout keeps running (no sandbox to freeze), but its outcome is ignored.
      Promise.resolve()
        .then(() => handler(event, context))
        .then(
          (value) => settle({ ok: true, value }),
          (error: unknown) => settle({ ok: false, error }),
        );
    });
  }

  private async deleteMessages(messages: readonly Message[]): Promise<void> {
    for (let i = 0; i < messages.length; i += 10) {
      const entries = messages.slice(i, i + 10).map((m, j) => ({ Id: String(i + j), ReceiptHandle: m.ReceiptHandle ?? '' }));
      try {
        await this.options.sqs.send(new DeleteMessageBatchCommand({ QueueUrl: this.options.queueUrl, Entries: entries }));
      } catch {
        // Not deleted: the messages come back after the visibility timeout (at-least-once delivery).
      }
    }
  }

  private report(info: BatchInfo): void {
    try {
      this.options.onBatch?.(info);
    } catch {
      // An observer's fault never stops the event source.
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wakeSleep = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeSleep = done;
    });
  }
}
