/**
 * `npm run bench -- --only=sdk`: the client's own CPU per DynamoDB call (µs), for PutItem, UpdateItem
 * and GetItem, through the DocumentClient as the functions build it and through variants of its
 * settings (docs/PERFORMANCE.md "SDK per-call cost").
 *
 * The server is a stub in a child process answering DynamoDB's JSON protocol with a fixed small
 * answer, so `process.cpuUsage()` of this process is the client alone: command construction,
 * middleware resolution, marshalling, serialisation, SigV4 signing, the HTTP request and the
 * answer's parsing. Calls run 16 at a time (as a busy function would have them in flight); the
 * variants alternate within each round so all see the same machine load, and the median of the
 * rounds is reported. The stub also reports the largest User-Agent header it saw per variant: a
 * middleware that appended to a shared context on every call would show there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent } from 'node:http';
import { DynamoDBClient, GetItemCommand, PutItemCommand, UpdateItemCommand, type DynamoDBClientConfig } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { classifyStoreFaults } from '../shared/adapters/dynamodb/dynamodb-errors';
import { DirectDynamoDbCalls } from '../shared/adapters/sdk/direct-dynamodb-calls';
import { withResolvedHandlers } from '../shared/adapters/sdk/resolved-handlers';
import { withoutSdkLogging } from '../shared/adapters/sdk/without-sdk-logging';
import { directCallSettings, dynamoDbClientSettings } from '../functions/composition/dynamodb-clients';
import { median } from './lib/stats';

export type SdkOperation = 'PutItem' | 'UpdateItem' | 'GetItem';
const operations: readonly SdkOperation[] = ['PutItem', 'UpdateItem', 'GetItem'];

type Call = (operation: SdkOperation, sequence: number) => Promise<unknown>;

interface Variant {
  name: string;
  build(endpoint: string): { call: Call; destroy(): void };
}

export interface SdkOverheadResult {
  calls: number;
  rounds: number;
  concurrency: number;
  /** µs of client CPU per call, median over rounds, by variant and operation. */
  microsPerCall: Record<string, Record<SdkOperation, number>>;
  /** µs of client CPU per SQS SendMessage (a 1 KiB body), median over rounds, by client setting. */
  sqsMicrosPerSend: Record<string, number>;
  /** Largest User-Agent header the stub saw per variant (bytes). */
  maxUserAgentBytes: Record<string, number>;
}

const table = 'bench-sdk';
const credentials = { accessKeyId: 'bench', secretAccessKey: 'bench' };

/** What the functions' builder passes today (functions/composition/dynamodb-clients.ts), on the stub's endpoint. */
const baseSettings = (endpoint: string, extra: Partial<DynamoDBClientConfig> = {}): DynamoDBClientConfig => ({
  ...dynamoDbClientSettings('us-east-1', endpoint),
  credentials,
  ...extra,
});

const documentInput = (operation: SdkOperation, sequence: number) => {
  const key = { pk: `RL#bench#${sequence % 50}` };
  if (operation === 'GetItem') return new GetCommand({ TableName: table, Key: key, ConsistentRead: true, ProjectionExpression: 'requestCount' });
  if (operation === 'PutItem')
    return new PutCommand({ TableName: table, Item: { ...key, sk: 'A', count: sequence, name: 'bench' }, ConditionExpression: 'attribute_not_exists(pk)' });
  return new UpdateCommand({
    TableName: table,
    Key: key,
    UpdateExpression: 'ADD requestCount :one SET #token = :one',
    ConditionExpression: 'attribute_not_exists(#token)',
    ExpressionAttributeNames: { '#token': `t_${sequence}` },
    ExpressionAttributeValues: { ':one': 1 },
    ReturnValues: 'UPDATED_NEW',
  });
};

/** The same requests as AttributeValues, marshalled by hand: the base client without lib-dynamodb. */
const baseInput = (operation: SdkOperation, sequence: number) => {
  const key = { pk: { S: `RL#bench#${sequence % 50}` } };
  if (operation === 'GetItem') return new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true, ProjectionExpression: 'requestCount' });
  if (operation === 'PutItem')
    return new PutItemCommand({
      TableName: table,
      Item: { ...key, sk: { S: 'A' }, count: { N: String(sequence) }, name: { S: 'bench' } },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
  return new UpdateItemCommand({
    TableName: table,
    Key: key,
    UpdateExpression: 'ADD requestCount :one SET #token = :one',
    ConditionExpression: 'attribute_not_exists(#token)',
    ExpressionAttributeNames: { '#token': `t_${sequence}` },
    ExpressionAttributeValues: { ':one': { N: '1' } },
    ReturnValues: 'UPDATED_NEW',
  });
};

function documentVariant(
  name: string,
  settings: (endpoint: string) => DynamoDBClientConfig,
  options: { resolvedOnce?: boolean; noSdkLogging?: boolean; direct?: boolean } = {},
): Variant {
  return {
    name,
    build(endpoint) {
      const base = new DynamoDBClient(settings(endpoint));
      if (options.noSdkLogging) withoutSdkLogging(base);
      const translateConfig = { marshallOptions: { removeUndefinedValues: true } };
      const direct = options.direct ? new DirectDynamoDbCalls(base.config as never, directCallSettings()) : undefined;
      let document = DynamoDBDocumentClient.from(base, translateConfig);
      if (options.resolvedOnce) document = withResolvedHandlers(document, direct);
      classifyStoreFaults(document);
      const destroy = () => {
        direct?.destroy();
        base.destroy();
      };
      return { call: (operation, sequence) => document.send(documentInput(operation, sequence) as never), destroy };
    },
  };
}

function baseVariant(name: string, settings: (endpoint: string) => DynamoDBClientConfig): Variant {
  return {
    name,
    build(endpoint) {
      const base = new DynamoDBClient(settings(endpoint));
      classifyStoreFaults(base);
      return { call: (operation, sequence) => base.send(baseInput(operation, sequence) as never), destroy: () => base.destroy() };
    },
  };
}

export const variants: readonly Variant[] = [
  documentVariant('document client as built before (settings of dynamodb-clients.ts, stack resolved per call)', (e) => baseSettings(e)),
  documentVariant('document client, stack resolved once per command class (withResolvedHandlers)', (e) => baseSettings(e), { resolvedOnce: true }),
  documentVariant('document client as the functions build it (resolved once, no SDK logger middleware, item operations direct)', (e) => baseSettings(e), {
    resolvedOnce: true,
    noSdkLogging: true,
    direct: true,
  }),
  documentVariant('document client as traced functions build it (resolved once, no SDK logger middleware)', (e) => baseSettings(e), {
    resolvedOnce: true,
    noSdkLogging: true,
  }),
  baseVariant('base client, AttributeValues given (no lib-dynamodb), stack per call', (e) => baseSettings(e)),
  baseVariant('base client, AttributeValues given, cacheMiddleware: true', (e) => baseSettings(e, { cacheMiddleware: true })),
  documentVariant('document client, default request handler (no timeouts)', (e) => ({ ...baseSettings(e), requestHandler: undefined })),
  documentVariant('document client, keep-alive agent (maxSockets 50) + timeouts', (e) =>
    baseSettings(e, {
      requestHandler: { ...dynamoDbClientSettings('us-east-1', e).requestHandler, httpAgent: new Agent({ keepAlive: true, maxSockets: 50 }) } as never,
    }),
  ),
  documentVariant('document client, maxAttempts 1 (no retry token)', (e) => baseSettings(e, { maxAttempts: 1 })),
  // DynamoDB's operations carry no checksum trait, so the checksum settings do not exist for this client.
  documentVariant('document client, endpoint discovery off explicitly', (e) => baseSettings(e, { endpointDiscoveryEnabled: false })),
  documentVariant(
    'document client, stack resolved once + keep-alive agent',
    (e) =>
      baseSettings(e, {
        requestHandler: { ...dynamoDbClientSettings('us-east-1', e).requestHandler, httpAgent: new Agent({ keepAlive: true, maxSockets: 50 }) } as never,
      }),
    { resolvedOnce: true },
  ),
];

const sqsBody = JSON.stringify({ recipients: 'x'.repeat(1_000) });

/** SQS as sqs-client.ts builds it, without and with the SDK's `cacheMiddleware`. */
export const sqsVariants: ReadonlyArray<{ name: string; cacheMiddleware: boolean }> = [
  { name: 'SQS client as built before (stack resolved per call)', cacheMiddleware: false },
  { name: 'SQS client, cacheMiddleware: true', cacheMiddleware: true },
];

function sqsSender(endpoint: string, cacheMiddleware: boolean): { call: Call; destroy(): void } {
  const sqs = new SQSClient({ region: 'us-east-1', endpoint, credentials, cacheMiddleware });
  classifyStoreFaults(sqs);
  const QueueUrl = `${endpoint}/000000000000/bench`;
  return { call: () => sqs.send(new SendMessageCommand({ QueueUrl, MessageBody: sqsBody })), destroy: () => sqs.destroy() };
}

/** The stub: DynamoDB's JSON protocol, a fixed answer per operation, in its own process. */
const stubSource = `
const http = require('node:http');
const { createHash } = require('node:crypto');
const answers = {
  GetItem: '{"Item":{"pk":{"S":"RL#bench#1"},"requestCount":{"N":"3"}}}',
  PutItem: '{}',
  UpdateItem: '{"Attributes":{"requestCount":{"N":"4"},"t_1":{"N":"1"}}}',
};
let maxUserAgent = 0;
const server = http.createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    maxUserAgent = Math.max(maxUserAgent, String(request.headers['user-agent'] ?? '').length + String(request.headers['x-amz-user-agent'] ?? '').length);
    const operation = String(request.headers['x-amz-target'] ?? '').split('.')[1];
    const body = operation === 'SendMessage'
      ? JSON.stringify({ MessageId: 'm1', MD5OfMessageBody: createHash('md5').update(JSON.parse(Buffer.concat(chunks).toString()).MessageBody).digest('hex') })
      : answers[operation] ?? '{}';
    response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'content-length': Buffer.byteLength(body), 'x-amzn-requestid': 'bench' });
    response.end(body);
  });
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }));
process.on('message', (message) => {
  if (message === 'userAgent') { process.send({ maxUserAgent }); maxUserAgent = 0; }
  if (message === 'stop') server.close(() => process.exit(0));
});
`;

async function startStub(): Promise<{ endpoint: string; child: ChildProcess; maxUserAgent(): Promise<number> }> {
  const child = spawn(process.execPath, ['-e', stubSource], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('error', reject);
  });
  const maxUserAgent = () =>
    new Promise<number>((resolve) => {
      child.once('message', (message) => resolve((message as { maxUserAgent: number }).maxUserAgent));
      child.send('userAgent');
    });
  return { endpoint: `http://127.0.0.1:${port}`, child, maxUserAgent };
}

/** Client CPU per call in µs over `calls` calls, `concurrency` in flight. */
async function cpuPerCall(call: Call, operation: SdkOperation, calls: number, concurrency: number): Promise<number> {
  let next = 0;
  const worker = async () => {
    while (next < calls) await call(operation, next++);
  };
  const started = process.cpuUsage();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / calls;
}

export async function benchSdkCallOverhead(options: {
  calls: number;
  rounds: number;
  concurrency?: number;
  variantsNamed?: string;
}): Promise<SdkOverheadResult> {
  const concurrency = options.concurrency ?? 16;
  const stub = await startStub();
  const samples = new Map<string, Record<SdkOperation, number[]>>();
  const maxUserAgentBytes: Record<string, number> = {};
  // `--sdk-variants=<text>`: only the DynamoDB variants whose name contains it (a quicker comparison).
  const chosen = options.variantsNamed === undefined ? variants : variants.filter((variant) => variant.name.includes(options.variantsNamed!));
  const built = chosen.map((variant) => ({ variant, client: variant.build(stub.endpoint) }));
  const sqsBuilt = sqsVariants.map((variant) => ({ variant, client: sqsSender(stub.endpoint, variant.cacheMiddleware) }));
  const sqsSamples = new Map<string, number[]>(sqsVariants.map((variant) => [variant.name, []]));
  try {
    for (const { variant, client } of built) {
      // Warm-up: first resolution, sockets opened, JIT.
      for (const operation of operations) await cpuPerCall(client.call, operation, 200, concurrency);
      await stub.maxUserAgent();
      samples.set(variant.name, { PutItem: [], UpdateItem: [], GetItem: [] });
    }
    for (const { client } of sqsBuilt) await cpuPerCall(client.call, 'PutItem', 200, concurrency);
    for (let round = 0; round < options.rounds; round += 1) {
      for (const { variant, client } of built) {
        for (const operation of operations) samples.get(variant.name)![operation].push(await cpuPerCall(client.call, operation, options.calls, concurrency));
        maxUserAgentBytes[variant.name] = Math.max(maxUserAgentBytes[variant.name] ?? 0, await stub.maxUserAgent());
      }
      for (const { variant, client } of sqsBuilt) sqsSamples.get(variant.name)!.push(await cpuPerCall(client.call, 'PutItem', options.calls, concurrency));
    }
  } finally {
    for (const { client } of [...built, ...sqsBuilt]) client.destroy();
    stub.child.send('stop');
  }
  const microsPerCall: SdkOverheadResult['microsPerCall'] = {};
  for (const [name, byOperation] of samples) {
    microsPerCall[name] = { PutItem: median(byOperation.PutItem), UpdateItem: median(byOperation.UpdateItem), GetItem: median(byOperation.GetItem) };
  }
  const sqsMicrosPerSend = Object.fromEntries([...sqsSamples].map(([name, values]) => [name, median(values)]));
  return { calls: options.calls, rounds: options.rounds, concurrency, microsPerCall, sqsMicrosPerSend, maxUserAgentBytes };
}
