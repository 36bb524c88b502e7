/**
 * The embedded AWS stand-ins: dynalite (DynamoDB protocol) and fauxqs (SQS protocol), started
 * in this process. Tables and queues are created from the same definitions the CDK app uses.
 */
import { createServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { queues, tables, type QueueName, type TableName } from '../runtime-contract/resource-definitions';
import { alignFauxqsWithFairQueues, importFauxqsDist } from './fauxqs-fair-queues';
import { importNativeEsm } from './native-import';

/** Dummy credentials: the emulators accept any, and the SDK insists on having some. */
export const emulatorCredentials = { accessKeyId: 'local', secretAccessKey: 'local' };
export const emulatorRegion = 'us-east-1';

export interface RunningEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startDynalite(options: { port?: number; dataDirectory?: string }): Promise<RunningEmulator> {
  const dynalite = (await import('dynalite')).default;
  if (options.dataDirectory) mkdirSync(options.dataDirectory, { recursive: true });
  const server = dynalite({
    path: options.dataDirectory,
    createTableMs: 0,
    deleteTableMs: 0,
    updateTableMs: 0,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const inFlight = countRequestsInFlight(server);
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      // dynalite closes its store once no database operation is pending, but an item write is
      // several operations: one answered between them finds the store closed and throws out of
      // dynalite's callback (an uncaught "Database is closed" that ends the whole process). So
      // requests under way are let finish first (bounded), then the sockets are closed.
      await inFlight.drained(3_000);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets from SDK clients would hold close() open.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}

/** Counts a server's requests not yet answered; `drained` waits until there are none (or the time is up). */
function countRequestsInFlight(server: { on(event: 'request', listener: (request: unknown, response: import('node:http').ServerResponse) => void): unknown }): {
  drained(timeoutMs: number): Promise<void>;
} {
  let count = 0;
  server.on('request', (_request, response) => {
    count += 1;
    response.once('close', () => (count -= 1));
  });
  return {
    drained: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (count > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    },
  };
}

/**
 * Real SQS accepts #x9 | #xA | #xD | #x20-#xD7FF | #xE000-#xFFFD | #x10000-#x10FFFF. fauxqs 1.9.2
 * tests bodies with a regular expression without the `u` flag, so it sees every character above
 * U+FFFF (every emoji) as two refused surrogates. Its check is one exported RegExp object shared by
 * SendMessage and SendMessageBatch; giving that object AWS's check (by code point) makes the emulator
 * accept and refuse exactly what AWS does, and leaves the production code and wire format untouched.
 * Kept here (not an encoding of bodies in the SQS adapter) because only the emulator is wrong.
 */
// eslint-disable-next-line no-control-regex
const AWS_SQS_REFUSED_CHARACTER = /[^\x09\x0A\x0D\x20-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

async function alignFauxqsCharacterCheckWithAws(): Promise<void> {
  const types = await importFauxqsDist<{ INVALID_MESSAGE_BODY_CHAR?: RegExp }>(join('sqs', 'sqsTypes.js'));
  // Not `instanceof RegExp`: the module lives in Node's own realm, which differs from jest's.
  if (Object.prototype.toString.call(types.INVALID_MESSAGE_BODY_CHAR) !== '[object RegExp]') {
    throw new Error('fauxqs no longer exports INVALID_MESSAGE_BODY_CHAR: check whether its character check still needs aligning with AWS');
  }
  Object.defineProperty(types.INVALID_MESSAGE_BODY_CHAR!, 'test', { value: (body: string) => AWS_SQS_REFUSED_CHARACTER.test(body), configurable: true });
}

export async function startFauxqsEmulator(options: { port?: number }): Promise<RunningEmulator> {
  const { startFauxqs } = await importNativeEsm<typeof import('fauxqs')>('fauxqs');
  await alignFauxqsCharacterCheckWithAws();
  // Standard queues keep each message's group and serve the quietest tenant first (SQS fair queues).
  await alignFauxqsWithFairQueues();
  const server = await startFauxqs({ port: options.port ?? 0, logger: false });
  return { endpoint: server.address, stop: () => server.stop() };
}

/** Physical names the local runtime gives the logical tables and queues. */
export const localTableName = (name: TableName): string => `local-${name}`;
export const localQueueName = (name: QueueName): string => `local-${name}`;

export async function ensureTables(client: DynamoDBClient, nameOf: (name: TableName) => string = localTableName): Promise<Record<TableName, string>> {
  const existing = new Set((await client.send(new ListTablesCommand({}))).TableNames ?? []);
  const names = {} as Record<TableName, string>;
  for (const table of Object.values(tables)) {
    const tableName = nameOf(table.name);
    names[table.name] = tableName;
    if (existing.has(tableName)) {
      await requireIndexes(
        client,
        tableName,
        table.globalIndexes.map((index) => index.indexName),
      );
      continue;
    }
    const keyAttributes = new Set([table.partitionKey, table.sortKey, ...table.globalIndexes.flatMap((index) => [index.partitionKey, index.sortKey])]);
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...keyAttributes].filter(Boolean).map((name) => ({ AttributeName: name!, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: table.partitionKey, KeyType: 'HASH' },
          ...(table.sortKey ? [{ AttributeName: table.sortKey, KeyType: 'RANGE' as const }] : []),
        ],
        GlobalSecondaryIndexes: table.globalIndexes.length
          ? table.globalIndexes.map((index) => ({
              IndexName: index.indexName,
              KeySchema: [
                { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
                { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
              ],
              Projection: { ProjectionType: 'ALL' as const },
            }))
          : undefined,
      }),
    );
    // TTL is not configured here: dynalite has no UpdateTimeToLive, and the code checks expiry itself.
  }
  return names;
}

/**
 * A table kept on disk from an older version may lack an index added since, and dynalite cannot add
 * one to an existing table: say so at boot, with the way out, instead of failing on the first query.
 */
async function requireIndexes(client: DynamoDBClient, tableName: string, indexNames: readonly string[]): Promise<void> {
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const present = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  const missing = indexNames.filter((name) => !present.has(name));
  if (missing.length > 0) {
    throw new Error(
      `Local table ${tableName} was created by an older version and lacks index ${missing.join(', ')}; the local emulator cannot add one. ` +
        'Delete the local DynamoDB data (.local/dynamodb, or dynamodb/ under LOCAL_DATA_DIR) and start again: the demo tenant is seeded anew.',
    );
  }
}

export interface LocalQueue {
  url: string;
  arn: string;
  deadLetterUrl: string;
}

export async function ensureQueues(client: SQSClient, nameOf: (name: QueueName) => string = localQueueName): Promise<Record<QueueName, LocalQueue>> {
  const result = {} as Record<QueueName, LocalQueue>;
  for (const queue of Object.values(queues)) {
    // A dead-letter queue a function consumes gets its visibility timeout, as on AWS (6x the consumer's timeout).
    const deadLetterAttributes =
      queue.deadLetterVisibilityTimeoutSeconds === undefined ? undefined : { VisibilityTimeout: String(queue.deadLetterVisibilityTimeoutSeconds) };
    const deadLetter = await client.send(new CreateQueueCommand({ QueueName: `${nameOf(queue.name)}-dlq`, Attributes: deadLetterAttributes }));
    const deadLetterArn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: deadLetter.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes
      ?.QueueArn;
    const created = await client.send(
      new CreateQueueCommand({
        QueueName: nameOf(queue.name),
        Attributes: {
          VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: deadLetterArn, maxReceiveCount: queue.maxReceiveCount }),
        },
      }),
    );
    const arn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes?.QueueArn;
    result[queue.name] = { url: created.QueueUrl!, arn: arn!, deadLetterUrl: deadLetter.QueueUrl! };
  }
  return result;
}

/** A free TCP port on loopback, for emulators that need one chosen up front. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
