/**
 * Helpers shared by the template-broadcast integration and fault tests (not a test file itself).
 *
 * Everything here talks to the runtime the test file started: the HTTP surface through
 * `runtime.call`, the queue through the runtime's SQS client, the ledger and jobs through the
 * process-wide services (the same instances the handlers use), and the sandbox's inspection log.
 */
import { readChunkLedger } from '../../../shared/adapters/dynamodb/ledger-pages';
import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  GetQueueAttributesCommand,
  ReceiveMessageCommand,
  SendMessageCommand,
  type Message,
} from '@aws-sdk/client-sqs';
import { QueryCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { getServices } from '../../../functions/composition';
import { handleChunkRecord } from '../../../functions/chunk-worker/handle-chunk-record';
import { demoIds } from '../../../local/demo-tenant';
import { startSqsEventSource, type SqsBatchHandler } from '../../../local/sqs-event-source';
import { TERMINAL_STATUSES } from '../../../shared/broadcast/broadcast-job';
import { decodeOutboundMessage, type TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { getJobStatus, type JobStatusView } from '../../../shared/broadcast/get-job-status';
import type { LedgerEntry } from '../../../shared/broadcast/ports';
import type { ProcessChunkDependencies } from '../../../shared/broadcast/chunk-worker/chunk-worker-dependencies';
import type { OutboundLane } from '../../../shared/broadcast/outbound-lanes';
import { adminCommands } from '../../../shared/tenancy/admin-commands';
import type { AcceptedMessage } from '../../../sandbox/cloud-api-sandbox';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';

export const BASE = '/prod/api/v2/broadcast/public';

/**
 * Environment for these tests' runtimes. 16 upstream calls in flight per worker instead of 64:
 * dynalite runs in this process, and on a loaded 2-core machine 64 lanes queue its requests past
 * the 2 s DynamoDB client timeout (measured p99 ~2 s at 64 lanes, ~0.3-0.7 s at 16, for the same
 * job time), which would fail chunks for reasons that have nothing to do with what is tested.
 */
export const kitEnvironment = { WORKER_MAX_IN_FLIGHT: '16' } as const;

/**
 * The suite's local runtime: started once with the kit's environment and no workers (the tests run
 * them), closed after the suite, its sandbox reset before each test. `started` runs once it is up
 * (assign it, create templates, upload media).
 */
export function useKitRuntime(started: (runtime: TestRuntime) => void | Promise<void>): void {
  let runtime: TestRuntime | undefined;
  beforeAll(async () => {
    runtime = await startTestRuntime({ startWorkers: false, environment: { ...kitEnvironment } });
    await started(runtime);
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });
  beforeEach(() => runtime!.sandbox!.reset());
}
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The demo account's ids (local/demo-tenant.ts). */
export const DEMO = {
  sender1: demoIds.senders[0]!,
  sender2: demoIds.senders[1]!,
  phoneNumberId1: demoIds.phoneNumberIds[0]!,
  phoneNumberId2: demoIds.phoneNumberIds[1]!,
  wabaId: demoIds.wabaId,
  templateIds: demoIds.templateIds,
};

export type Recipient = { countryCode: string; toPhoneNumber: string; templateParams?: string[] };

/** `count` distinct recipients +91 <first + i>; params per recipient (undefined: none of its own). */
export function recipients(
  count: number,
  options: { first?: number; countryCode?: string; params?: (index: number) => string[] | undefined } = {},
): Recipient[] {
  const first = options.first ?? 9_000_000_000;
  const params = options.params ?? ((index: number) => [`Name${index}`, `ORD-${index}`]);
  return Array.from({ length: count }, (_, index) => {
    const own = params(index);
    return { countryCode: options.countryCode ?? '91', toPhoneNumber: String(first + index), ...(own ? { templateParams: own } : {}) };
  });
}

/** A valid order_update broadcast from sender 1 (two placeholders), with overrides. */
export function orderUpdate(data: Recipient[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    broadcastName: 'integration',
    fromPhoneNumber: DEMO.sender1,
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    data,
    ...overrides,
  };
}

/** A new broadcast key of `organizationId` (fresh rate-limit buckets), optionally bound to a sender. */
export async function issueKey(organizationId: string, boundPhoneNumber?: string): Promise<{ secret: string; credentialId: string }> {
  const issued = await adminCommands['issue-broadcast-key'].run(getServices().tenancy, {
    org: organizationId,
    ...(boundPhoneNumber ? { 'phone-number': boundPhoneNumber } : {}),
  });
  return { secret: issued.secret, credentialId: issued.credentialId };
}

export const keyHeader = (secret: string) => ({ 'x-api-key': secret });

/** Both outbound lanes' queues (docs/SCALE.md "The single-message lane"): chunks, and single messages. */
export const laneQueueUrls = (runtime: TestRuntime): string[] => [runtime.queueUrls.outbound, runtime.queueUrls.singleMessages];

/** Messages visible, in flight and delayed on a queue; none named: on both outbound lanes' queues together. */
export async function queueDepth(runtime: TestRuntime, queueUrl?: string): Promise<number> {
  if (queueUrl === undefined) return (await Promise.all(laneQueueUrls(runtime).map((url) => queueDepth(runtime, url)))).reduce((sum, depth) => sum + depth, 0);
  const { Attributes = {} } = await runtime.sqs.send(
    new GetQueueAttributesCommand({
      QueueUrl: queueUrl,
      AttributeNames: ['ApproximateNumberOfMessages', 'ApproximateNumberOfMessagesNotVisible', 'ApproximateNumberOfMessagesDelayed'],
    }),
  );
  return (
    Number(Attributes.ApproximateNumberOfMessages ?? 0) +
    Number(Attributes.ApproximateNumberOfMessagesNotVisible ?? 0) +
    Number(Attributes.ApproximateNumberOfMessagesDelayed ?? 0)
  );
}

/** Every job recorded for an organization (exposed or not). */
export async function jobCount(organizationId: string): Promise<number> {
  const services = getServices();
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await services.clients.dynamoDb.send(
      new QueryCommand({
        TableName: services.config.tableNames.messaging,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': `ORG#${organizationId}#JOBS` },
        ExclusiveStartKey: startKey,
      }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/** The id of the organization's most recent job (jobs of 1,000 recipients or fewer are not exposed by the API). */
export async function latestJobId(organizationId: string): Promise<string> {
  const services = getServices();
  const page = await services.clients.dynamoDb.send(
    new QueryCommand({
      TableName: services.config.tableNames.messaging,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': `ORG#${organizationId}#JOBS` },
      ScanIndexForward: false,
      Limit: 1,
    }),
  );
  const jobId = page.Items?.[0]?.jobId;
  if (typeof jobId !== 'string') throw new Error(`organization ${organizationId} has no job`);
  return jobId;
}

/** The ledger of one chunk, by recipient index (its pages and any per-recipient entries, as the adapter reads them). */
export async function ledgerOf(jobId: string, chunkIndex: number): Promise<Map<number, LedgerEntry>> {
  const services = getServices();
  const { entries } = await readChunkLedger({ client: services.clients.dynamoDb, tableName: services.config.tableNames.messaging }, jobId, chunkIndex);
  return new Map(entries.map((entry) => [entry.index, entry]));
}

/** Items of the idempotency table (Powertools records). */
export async function idempotencyRecords(): Promise<Array<Record<string, unknown>>> {
  const services = getServices();
  const page = await services.clients.dynamoDb.send(new ScanCommand({ TableName: services.config.tableNames.idempotency }));
  return page.Items ?? [];
}

/** Job status read through the use case (no HTTP, so polling spends no rate limit). */
export const readJob = (organizationId: string, jobId: string): Promise<JobStatusView> =>
  getJobStatus(getServices().broadcast.broadcasts, { organizationId }, jobId);

export const waitForTerminal = (organizationId: string, jobId: string, timeoutMs = 40_000): Promise<JobStatusView> =>
  eventually(
    () => readJob(organizationId, jobId),
    (view) => TERMINAL_STATUSES.has(view.status),
    timeoutMs,
    150,
  );

/** A Lambda context with plenty of time left (the worker keeps a 15 s safety margin). */
export const workerContext = (remainingMs = 120_000): Context =>
  ({
    awsRequestId: `test-${Math.random().toString(36).slice(2)}`,
    functionName: 'chunk-worker',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:chunk-worker',
    memoryLimitInMB: '1024',
    logGroupName: 'test',
    logStreamName: 'test',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => remainingMs,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  }) as Context;

/** The chunk worker's Lambda handler, with a dependency bundle of our own (same code path as chunk-consumer.ts), for one lane's queue. */
export function workerHandlerWith(dependencies: ProcessChunkDependencies, lane: OutboundLane = 'bulk'): SqsBatchHandler {
  return async (event: SQSEvent, context: Context): Promise<SQSBatchResponse> => {
    const processor = new BatchProcessor(EventType.SQS);
    return processPartialResponse(event, (record: SQSRecord) => handleChunkRecord(dependencies, record, context, lane), processor, { context });
  };
}

/** The real chunk-worker Lambda handler module. */
export async function realWorkerHandler(): Promise<SqsBatchHandler> {
  return (await import('../../../functions/chunk-worker/chunk-worker.lambda')).handler as SqsBatchHandler;
}

/** The real single-sender Lambda handler module (the single-message lane's worker). */
export async function realSingleSenderHandler(): Promise<SqsBatchHandler> {
  return (await import('../../../functions/single-sender/single-sender.lambda')).handler as SqsBatchHandler;
}

/**
 * Runs an SQS event source (the local Lambda event-source mapping) on each outbound lane's queue
 * until both are idle, then stops them: `handler` (default the real chunk-worker) on the chunks'
 * queue, `singleHandler` (default `handler`, else the real single-sender) on the single messages'.
 * A worker invocation that reports failed records (its chunk goes back to the queue for a retry
 * after the visibility timeout) fails the test here, with that cause.
 */
export async function runWorkersUntilIdle(runtime: TestRuntime, handler?: SqsBatchHandler, singleHandler?: SqsBatchHandler): Promise<void> {
  const failures: string[] = [];
  const sources = [
    laneWorkerSource(runtime, runtime.queueUrls.outbound, handler ?? (await realWorkerHandler()), failures),
    laneWorkerSource(runtime, runtime.queueUrls.singleMessages, singleHandler ?? handler ?? (await realSingleSenderHandler()), failures),
  ];
  try {
    // Twice: a lane's worker may queue onto the other only through a new job, but a round can end before a re-queue arrives.
    for (let round = 0; round < 2; round += 1) await Promise.all(sources.map((source) => source.idle()));
  } finally {
    await Promise.all(sources.map((source) => source.stop()));
  }
  if (failures.length > 0) throw new Error(`a chunk-worker invocation failed (its message went back to the queue): ${failures.join('; ')}`);
}

function laneWorkerSource(runtime: TestRuntime, queueUrl: string, worker: SqsBatchHandler, failures: string[]) {
  return startSqsEventSource({
    sqs: runtime.sqs,
    queueUrl,
    queueArn: `arn:aws:sqs:us-east-1:000000000000:${queueUrl.split('/').pop()}`,
    handler: async (event, context) => {
      try {
        const result = await worker(event, context);
        if (result && result.batchItemFailures.length > 0) failures.push(`${result.batchItemFailures.length} record(s) failed`);
        return result;
      } catch (error) {
        failures.push(String(error));
        throw error;
      }
    },
    batchSize: 1,
    maxConcurrency: 4,
    functionTimeoutSeconds: 120,
    waitTimeSeconds: 0,
    reportBatchItemFailures: true,
  });
}

/** The queue each message `receiveAll` returned came from: `release` and `remove` act on it. */
const receivedFrom = new WeakMap<Message, string>();

/**
 * Receives every visible message of a queue, or of both outbound lanes' queues when none is named
 * (keeps them in flight, invisible, until deleted or released).
 */
export async function receiveAll(runtime: TestRuntime, queueUrl?: string): Promise<Message[]> {
  const received: Message[] = [];
  for (const url of queueUrl === undefined ? laneQueueUrls(runtime) : [queueUrl]) {
    for (;;) {
      const { Messages = [] } = await runtime.sqs.send(
        new ReceiveMessageCommand({ QueueUrl: url, MaxNumberOfMessages: 10, WaitTimeSeconds: 0, MessageSystemAttributeNames: ['All'] }),
      );
      if (Messages.length === 0) break;
      for (const message of Messages) receivedFrom.set(message, url);
      received.push(...Messages);
    }
  }
  return received;
}

const queueOf = (runtime: TestRuntime, message: Message) => receivedFrom.get(message) ?? runtime.queueUrls.outbound;

/** Makes an in-flight message visible again at once (as if its visibility timeout had run out). */
export const release = (runtime: TestRuntime, message: Message, queueUrl = queueOf(runtime, message)) =>
  runtime.sqs.send(new ChangeMessageVisibilityCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle!, VisibilityTimeout: 0 }));

export const remove = (runtime: TestRuntime, message: Message, queueUrl = queueOf(runtime, message)) =>
  runtime.sqs.send(new DeleteMessageCommand({ QueueUrl: queueUrl, ReceiptHandle: message.ReceiptHandle! }));

export const sendRaw = (runtime: TestRuntime, body: string, queueUrl = runtime.queueUrls.outbound) =>
  runtime.sqs.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: body }));

export const chunkOf = (message: Message): TemplateChunkMessage => decodeOutboundMessage(message.Body!) as TemplateChunkMessage;

/** The SQS event Lambda would build for one received message. */
export function sqsEventOf(runtime: TestRuntime, message: Message): SQSEvent {
  const attributes = message.Attributes ?? {};
  const record: SQSRecord = {
    messageId: message.MessageId!,
    receiptHandle: message.ReceiptHandle!,
    body: message.Body!,
    attributes: {
      ApproximateReceiveCount: attributes.ApproximateReceiveCount ?? '1',
      SentTimestamp: attributes.SentTimestamp ?? String(Date.now()),
      SenderId: attributes.SenderId ?? 'test',
      ApproximateFirstReceiveTimestamp: attributes.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
    },
    messageAttributes: {},
    md5OfBody: message.MD5OfBody ?? '',
    eventSource: 'aws:sqs',
    eventSourceARN: `arn:aws:sqs:us-east-1:000000000000:${queueOf(runtime, message).split('/').pop()}`,
    awsRegion: 'us-east-1',
  };
  return { Records: [record] };
}

/** Accepted messages of one sender, grouped by recipient. */
export function acceptedByRecipient(runtime: TestRuntime, phoneNumberId: string = DEMO.phoneNumberId1): Map<string, AcceptedMessage[]> {
  const byRecipient = new Map<string, AcceptedMessage[]>();
  for (const message of runtime.sandbox!.acceptedMessages()) {
    if (message.phoneNumberId !== phoneNumberId) continue;
    const list = byRecipient.get(message.recipient) ?? [];
    list.push(message);
    byRecipient.set(message.recipient, list);
  }
  return byRecipient;
}

/** The body parameter values of an accepted template message, in order. */
export function bodyParameters(message: AcceptedMessage): string[] {
  const template = (message.body as { template?: { components?: Array<{ type: string; parameters: Array<{ text: string }> }> } }).template;
  const body = template?.components?.find((component) => component.type === 'body');
  return body ? body.parameters.map((parameter) => parameter.text) : [];
}

/** The callback data of a chunk-worker send: its ledger entry (shared/delivery/callback-data.ts). */
export const LEDGER_CALLBACK_DATA = /^b1:[A-Za-z0-9_-]+:\d+:\d+$/;

/**
 * Meta's request body for a template message with body parameters in order; its callback data is
 * any ledger reference unless given.
 */
export function metaTemplateBody(to: string, name: string, language: string, parameters: string[], callbackData?: string): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to,
    type: 'template',
    template: {
      name,
      language: { code: language },
      ...(parameters.length > 0 ? { components: [{ type: 'body', parameters: parameters.map((text) => ({ type: 'text', text })) }] } : {}),
    },
    biz_opaque_callback_data: callbackData ?? expect.stringMatching(LEDGER_CALLBACK_DATA),
  };
}

/**
 * Fixed per-minute windows: waits, if needed, until at least `seconds` remain in the current
 * calendar minute, so a burst cannot straddle a window change.
 */
export async function ensureMinuteHeadroom(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await sleep(left + 250);
}
