/**
 * SDK clients whose middleware stack is resolved once per command class
 * (shared/adapters/sdk/resolved-handlers.ts), on dynalite: every call still carries its own input
 * and gets its own answer, a middleware added or removed after the first call takes effect on the
 * next one (the store-fault classifier, the bench's request counter, a test's fault injection), and
 * the conditional writes that must recognise an SDK retry of their own applied write still do.
 */
import { DynamoDBClient, GetItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { classifyStoreFaults } from '../../../shared/adapters/dynamodb/dynamodb-errors';
import { DynamoDbRateLimiter } from '../../../shared/adapters/dynamodb/dynamodb-rate-limiter';
import { withResolvedHandlers, withStackCacheReset } from '../../../shared/adapters/sdk/resolved-handlers';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { emulatorCredentials, emulatorRegion } from '../../../local/emulators';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';
import { clientLosingAppliedWrites } from '../../support/lost-write-client';

let dynamo: TestDynamo;
let table: string;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${(counter += 1)}`;

beforeAll(async () => {
  dynamo = await startTestDynamo();
  table = dynamo.tableNames.rateLimits;
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

function documentClient() {
  const base = new DynamoDBClient({ region: emulatorRegion, credentials: emulatorCredentials, endpoint: dynamo.endpoint });
  const document = withResolvedHandlers(DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } }));
  return { base, document };
}

describe('document client with handlers resolved once per command class', () => {
  it('sends each call with its own input, concurrently, and unmarshals each answer', async () => {
    const { base, document } = documentClient();
    const keys = Array.from({ length: 40 }, () => unique('RH#item'));
    await Promise.all(
      keys.map((pk, index) => document.send(new PutCommand({ TableName: table, Item: { pk, index, skipped: undefined, tags: new Set([`t${index}`]) } }))),
    );
    const updated = await Promise.all(
      keys.map((pk, index) =>
        document.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk },
            UpdateExpression: 'ADD requestCount :n',
            ExpressionAttributeValues: { ':n': index + 1 },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      ),
    );
    expect(updated.map((answer) => answer.Attributes)).toEqual(keys.map((pk, index) => ({ pk, index, tags: new Set([`t${index}`]), requestCount: index + 1 })));
    const read = await Promise.all(keys.map((pk) => document.send(new GetCommand({ TableName: table, Key: { pk }, ConsistentRead: true }))));
    expect(read.map((answer) => answer.Item?.index)).toEqual(keys.map((_, index) => index));
    base.destroy();
  });

  it('resolves the middleware stack once per command class, not once per call', async () => {
    const { base, document } = documentClient();
    const resolve = jest.spyOn(GetItemCommand.prototype, 'resolveMiddleware');
    try {
      for (let call = 0; call < 5; call += 1) await document.send(new GetCommand({ TableName: table, Key: { pk: unique('RH#absent') } }));
      expect(resolve).toHaveBeenCalledTimes(1);
    } finally {
      resolve.mockRestore();
      base.destroy();
    }
  });

  it('sees a middleware added after the first call, and stops calling one removed', async () => {
    const { base, document } = documentClient();
    const pk = unique('RH#counted');
    await document.send(new PutCommand({ TableName: table, Item: { pk } }));
    const seen: string[] = [];
    document.middlewareStack.add(
      (next, context) => async (args) => {
        seen.push(`${context.commandName} ${JSON.stringify((args.input as { Key?: unknown; Item?: unknown }).Key ?? (args.input as { Item?: unknown }).Item)}`);
        return next(args);
      },
      { step: 'build', name: 'testCounter' },
    );
    await document.send(new PutCommand({ TableName: table, Item: { pk, second: true } }));
    await document.send(new GetCommand({ TableName: table, Key: { pk } }));
    // Marshalled by then: the build step sees AttributeValues, as the bench's request counter expects.
    expect(seen).toEqual([`PutItemCommand {"pk":{"S":"${pk}"},"second":{"BOOL":true}}`, `GetItemCommand {"pk":{"S":"${pk}"}}`]);
    document.middlewareStack.remove('testCounter');
    await document.send(new GetCommand({ TableName: table, Key: { pk } }));
    expect(seen).toHaveLength(2);
    base.destroy();
  });

  it('lets the store-fault classifier installed after the first call see every failure', async () => {
    const { base, document } = documentClient();
    await document.send(new GetCommand({ TableName: table, Key: { pk: unique('RH#ok') } }));
    document.middlewareStack.add(
      () => async () => {
        throw Object.assign(new Error('a request has exceeded the configured requestTimeout'), { name: 'TimeoutError' });
      },
      { step: 'finalizeRequest', name: 'testTimeout' },
    );
    classifyStoreFaults(document);
    await expect(document.send(new GetCommand({ TableName: table, Key: { pk: 'x' } }))).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(
      document.send(new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'x' } })),
    ).rejects.toBeInstanceOf(StoreUnavailableError);
    base.destroy();
  });

  it('keeps the rate limit exact when applied increments lose their answer (SDK retries)', async () => {
    const { documentClient: lossy, faults, client } = clientLosingAppliedWrites(dynamo.endpoint);
    const limiter = new DynamoDbRateLimiter(withResolvedHandlers(lossy), table);
    const bucket = unique('send#key');
    const now = new Date('2026-03-01T09:15:20.000Z');
    const decisions = await Promise.all(Array.from({ length: 12 }, () => limiter.consume(bucket, 5, now)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(5);
    expect(faults.lost).toBe(5);
    const item = await dynamo.documentClient.send(new GetCommand({ TableName: table, Key: { pk: `RL#${bucket}#${Math.floor(now.getTime() / 60_000) * 60}` } }));
    expect(item.Item?.requestCount).toBe(5);
    client.destroy();
  });
});

describe('base client with cacheMiddleware and withStackCacheReset', () => {
  it('sees a middleware added after the first call', async () => {
    const base = withStackCacheReset(
      new DynamoDBClient({ region: emulatorRegion, credentials: emulatorCredentials, endpoint: dynamo.endpoint, cacheMiddleware: true }),
    );
    const pk = unique('RH#base');
    const update = () =>
      base.send(
        new UpdateItemCommand({
          TableName: table,
          Key: { pk: { S: pk } },
          UpdateExpression: 'ADD requestCount :one',
          ExpressionAttributeValues: { ':one': { N: '1' } },
        }),
      );
    await update();
    let calls = 0;
    base.middlewareStack.add(
      (next) => async (args) => {
        calls += 1;
        return next(args);
      },
      { step: 'initialize', name: 'testCounter' },
    );
    await update();
    await update();
    expect(calls).toBe(2);
    const item = await base.send(new GetItemCommand({ TableName: table, Key: { pk: { S: pk } }, ConsistentRead: true }));
    expect(item.Item?.requestCount).toEqual({ N: '3' });
    base.destroy();
  });
});
