/**
 * The embedded AWS stand-ins: dynalite (DynamoDB protocol) and fauxqs (SQS protocol), started
 * in this process. Tables and queues are created from the same definitions the CDK app uses.
 */
import { createServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { queues, tables, type QueueName, type TableName } from '../runtime-contract/resource-definitions';
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
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive sockets from SDK clients would hold close() open.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}

export async function startFauxqsEmulator(options: { port?: number }): Promise<RunningEmulator> {
  const { startFauxqs } = await importNativeEsm<typeof import('fauxqs')>('fauxqs');
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
    if (existing.has(tableName)) continue;
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

export interface LocalQueue {
  url: string;
  arn: string;
  deadLetterUrl: string;
}

export async function ensureQueues(client: SQSClient, nameOf: (name: QueueName) => string = localQueueName): Promise<Record<QueueName, LocalQueue>> {
  const result = {} as Record<QueueName, LocalQueue>;
  for (const queue of Object.values(queues)) {
    const deadLetter = await client.send(new CreateQueueCommand({ QueueName: `${nameOf(queue.name)}-dlq` }));
    const deadLetterArn = (
      await client.send(new GetQueueAttributesCommand({ QueueUrl: deadLetter.QueueUrl, AttributeNames: ['QueueArn'] }))
    ).Attributes?.QueueArn;
    const created = await client.send(
      new CreateQueueCommand({
        QueueName: nameOf(queue.name),
        Attributes: {
          VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({ deadLetterTargetArn: deadLetterArn, maxReceiveCount: queue.maxReceiveCount }),
        },
      }),
    );
    const arn = (await client.send(new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ['QueueArn'] }))).Attributes
      ?.QueueArn;
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
