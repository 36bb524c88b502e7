/**
 * Item operations sent directly (shared/adapters/sdk/direct-dynamodb-calls.ts): on dynalite, every
 * operation answers as through the SDK's path (values, sets, binary, pages, batches, conditional
 * failures as the SDK's classes); a middleware added to the stack sends calls back through the SDK;
 * against a stub server, the request is a signed JSON-protocol POST, a fault a retry can fix is
 * retried once, and timeouts and throttles end as the classifier's StoreUnavailableError.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConditionalCheckFailedException, DynamoDBClient, DynamoDBServiceException } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { classifyStoreFaults } from '../../../shared/adapters/dynamodb/dynamodb-errors';
import { DirectDynamoDbCalls, directCallPlan } from '../../../shared/adapters/sdk/direct-dynamodb-calls';
import { withResolvedHandlers } from '../../../shared/adapters/sdk/resolved-handlers';
import { withoutSdkLogging } from '../../../shared/adapters/sdk/without-sdk-logging';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { dynamoDbClients } from '../../../functions/composition/dynamodb-clients';
import { createCompositionContext } from '../../../functions/composition/composition-context';
import { parseAppConfig } from '../../../shared/config/app-config';
import { emulatorCredentials, emulatorRegion } from '../../../local/emulators';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;
let table: string;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${(counter += 1)}`;
const translateConfig = { marshallOptions: { removeUndefinedValues: true } };

beforeAll(async () => {
  dynamo = await startTestDynamo();
  table = dynamo.tableNames.messaging;
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

/** A client as the functions build one, sending directly; `sdk` is the same without the direct path. */
function clients(endpoint = dynamo.endpoint, settings: Partial<{ timeoutMs: number; maxAttempts: number; maxSockets: number }> = {}) {
  const base = withoutSdkLogging(new DynamoDBClient({ region: emulatorRegion, credentials: emulatorCredentials, endpoint, maxAttempts: 2 }));
  const direct = new DirectDynamoDbCalls(base.config as never, { timeoutMs: 2_000, maxAttempts: 2, maxSockets: 10, ...translateConfig, ...settings }, () => 0);
  const document = withResolvedHandlers(DynamoDBDocumentClient.from(base, translateConfig), direct);
  classifyStoreFaults(document);
  const sent = jest.spyOn(direct, 'send');
  const stop = () => {
    direct.destroy();
    base.destroy();
  };
  return { document, sent, stop };
}

describe('which commands go direct', () => {
  // Read from each command's operation schema: a new SDK that changed its format would send nothing direct, and this fails.
  it("takes the seven item operations by their schema, and leaves others and legacy parameters to the SDK's path", () => {
    const direct = new DirectDynamoDbCalls({} as never, { timeoutMs: 1, maxAttempts: 1, maxSockets: 1 });
    const Key = { pk: 'a' };
    const TableName = 't';
    const taken = [
      new GetCommand({ TableName, Key }),
      new PutCommand({ TableName, Item: Key }),
      new UpdateCommand({ TableName, Key, UpdateExpression: 'SET a = :a' }),
      new DeleteCommand({ TableName, Key }),
      new QueryCommand({ TableName, KeyConditionExpression: 'pk = :pk' }),
      new BatchWriteCommand({ RequestItems: {} }),
      new BatchGetCommand({ RequestItems: {} }),
    ];
    expect(taken.map((command) => direct.supports(command))).toEqual(taken.map(() => true));
    const left = [
      new ScanCommand({ TableName }),
      new TransactWriteCommand({ TransactItems: [] }),
      new UpdateCommand({ TableName, Key, AttributeUpdates: { a: { Action: 'PUT', Value: 1 } } }),
      new PutCommand({ TableName, Item: Key, Expected: { pk: { Exists: false } } }),
      { input: {}, clientCommand: { schema: ['com.amazonaws.dynamodb', 'GetItem'] } },
    ];
    expect(left.map((command) => direct.supports(command))).toEqual(left.map(() => false));
    direct.destroy();
  });
});

describe('where direct calls go', () => {
  const directFor = (config: ConstructorParameters<typeof DynamoDBClient>[0]) => {
    const base = new DynamoDBClient({ credentials: emulatorCredentials, ...config });
    return { direct: new DirectDynamoDbCalls(base.config as never, { timeoutMs: 1, maxAttempts: 1, maxSockets: 1 }), base };
  };

  it("posts where the SDK would: the region's endpoint, one configured for the service, or none (the SDK's path) for FIPS", async () => {
    const regional = directFor({ region: 'eu-west-1' });
    expect((await regional.direct.ready())?.url).toBe('https://dynamodb.eu-west-1.amazonaws.com/');
    const previous = process.env.AWS_ENDPOINT_URL_DYNAMODB;
    process.env.AWS_ENDPOINT_URL_DYNAMODB = 'http://127.0.0.1:4567';
    try {
      const configured = directFor({ region: 'eu-west-1' });
      expect(await configured.direct.ready()).toMatchObject({ url: 'http://127.0.0.1:4567/', hostname: '127.0.0.1', port: 4567 });
    } finally {
      if (previous === undefined) delete process.env.AWS_ENDPOINT_URL_DYNAMODB;
      else process.env.AWS_ENDPOINT_URL_DYNAMODB = previous;
    }
    const fips = directFor({ region: 'us-east-1', useFipsEndpoint: true });
    expect(await fips.direct.ready()).toBeUndefined();
  });
});

describe('item operations sent directly, on dynalite', () => {
  it('answers every operation as the SDK path does: sets, binary, nested maps, pages, batches', async () => {
    const { document, sent, stop } = clients();
    const pk = unique('DIRECT#item');
    const blob = new Uint8Array([0, 1, 2, 250, 251, 252]);
    const item = {
      pk,
      sk: 'A',
      count: 3,
      tags: new Set(['a', 'b']),
      blob,
      blobs: new Set([new Uint8Array([1]), new Uint8Array([2, 3])]),
      nested: { list: [1, 'two', { deep: true }] },
      gone: undefined,
    };
    await document.send(new PutCommand({ TableName: table, Item: item }));
    const updated = await document.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk, sk: 'A' },
        UpdateExpression: 'ADD #count :one SET #more = :more',
        ExpressionAttributeNames: { '#count': 'count', '#more': 'more' },
        ExpressionAttributeValues: { ':one': 1, ':more': Buffer.from('more') },
        ReturnValues: 'ALL_NEW',
      }),
    );
    const { gone: _gone, ...stored } = item;
    expect(updated.Attributes).toEqual({ ...stored, count: 4, more: new Uint8Array(Buffer.from('more')) });
    expect(updated.$metadata.httpStatusCode).toBe(200);

    await document.send(
      new BatchWriteCommand({
        RequestItems: {
          [table]: [1, 2, 3].map((n) => ({ PutRequest: { Item: { pk, sk: `B${n}`, n } } })).concat([{ DeleteRequest: { Key: { pk, sk: 'B9' } } }] as never),
        },
      }),
    );
    const page = await document.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :b)',
        ExpressionAttributeValues: { ':pk': pk, ':b': 'B' },
        Limit: 2,
      }),
    );
    expect(page.Items).toEqual([
      { pk, sk: 'B1', n: 1 },
      { pk, sk: 'B2', n: 2 },
    ]);
    const rest = await document.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :b)',
        ExpressionAttributeValues: { ':pk': pk, ':b': 'B' },
        ExclusiveStartKey: page.LastEvaluatedKey,
      }),
    );
    expect(rest.Items).toEqual([{ pk, sk: 'B3', n: 3 }]);
    const batch = await document.send(
      new BatchGetCommand({
        RequestItems: {
          [table]: {
            Keys: [
              { pk, sk: 'A' },
              { pk, sk: 'B2' },
            ],
            ProjectionExpression: 'sk',
          },
        },
      }),
    );
    expect(batch.Responses?.[table]?.map((found) => found.sk).sort()).toEqual(['A', 'B2']);
    const removed = await document.send(new DeleteCommand({ TableName: table, Key: { pk, sk: 'B3' }, ReturnValues: 'ALL_OLD' }));
    expect(removed.Attributes).toEqual({ pk, sk: 'B3', n: 3 });
    expect((await document.send(new GetCommand({ TableName: table, Key: { pk, sk: 'B3' } }))).Item).toBeUndefined();
    expect(sent).toHaveBeenCalledTimes(8);

    // The same item read through the SDK's path: the same values of the same classes (a blob is a Uint8Array).
    const sdkBase = new DynamoDBClient({ region: emulatorRegion, credentials: emulatorCredentials, endpoint: dynamo.endpoint });
    const read = (client: DynamoDBDocumentClient) => client.send(new GetCommand({ TableName: table, Key: { pk, sk: 'A' }, ConsistentRead: true }));
    const [direct, viaSdk] = await Promise.all([read(document), read(DynamoDBDocumentClient.from(sdkBase, translateConfig))]);
    expect(direct.Item).toStrictEqual(viaSdk.Item);
    expect(Object.getPrototypeOf(direct.Item?.blob)).toBe(Uint8Array.prototype);
    sdkBase.destroy();
    stop();
  });

  it("fails a refused condition with the SDK's class, and an invalid request as a client error, not a retryable one", async () => {
    const { document, stop } = clients();
    const key = { pk: unique('DIRECT#cond'), sk: 'A' };
    await document.send(new PutCommand({ TableName: table, Item: key }));
    const refused = await document
      .send(new PutCommand({ TableName: table, Item: key, ConditionExpression: 'attribute_not_exists(pk)' }))
      .catch((error) => error);
    expect(refused).toBeInstanceOf(ConditionalCheckFailedException);
    expect(refused).toMatchObject({ name: 'ConditionalCheckFailedException', $fault: 'client', $metadata: { httpStatusCode: 400, attempts: 1 } });
    const invalid = await document.send(new UpdateCommand({ TableName: table, Key: key, UpdateExpression: 'SET #a = :missing' })).catch((error) => error);
    expect(invalid).toBeInstanceOf(DynamoDBServiceException);
    expect(invalid).not.toBeInstanceOf(StoreUnavailableError);
    expect(invalid.name).toBe('ValidationException');
    stop();
  });

  it('sends through the SDK while the stack holds a middleware it would skip, and directly again once it is gone', async () => {
    const { document, sent, stop } = clients();
    const key = { pk: unique('DIRECT#stack'), sk: 'A' };
    await document.send(new PutCommand({ TableName: table, Item: key }));
    const seen: string[] = [];
    document.middlewareStack.add(
      (next, context) => async (args) => {
        seen.push(context.commandName!);
        return next(args);
      },
      { step: 'build', name: 'testCounter' },
    );
    await document.send(new GetCommand({ TableName: table, Key: key }));
    expect(seen).toEqual(['GetItemCommand']);
    expect(sent).toHaveBeenCalledTimes(1);
    document.middlewareStack.remove('testCounter');
    expect((await document.send(new GetCommand({ TableName: table, Key: key }))).Item).toEqual(key);
    expect(seen).toHaveLength(1);
    expect(sent).toHaveBeenCalledTimes(2);
    stop();
  });

  it("takes the functions' own DynamoDB client (a new SDK middleware would turn the path off, and this fails)", () => {
    const context = createCompositionContext(parseAppConfig({ ...process.env, DYNAMODB_ENDPOINT: dynamo.endpoint }));
    const { document } = dynamoDbClients(context);
    classifyStoreFaults(document);
    expect(directCallPlan(document.middlewareStack)).toEqual({ classifyFaults: true });
    context.destroy();
  });
});

describe('item operations sent directly, against a stub server', () => {
  let server: http.Server;
  let endpoint: string;
  let answers: Array<(response: http.ServerResponse) => void>;
  const requests: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];

  const error = (status: number, type: string) => (response: http.ServerResponse) => {
    response.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
    response.end(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: `${type} for the test` }));
  };
  const ok = (body: object) => (response: http.ServerResponse) => {
    response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0', 'x-amzn-requestid': 'stub-request' });
    response.end(JSON.stringify(body));
  };
  const silent = () => undefined;

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString() });
        (answers.shift() ?? ok({}))(response);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  beforeEach(() => {
    requests.length = 0;
  });

  it('posts the operation in the JSON protocol, signed with SigV4 for dynamodb in the client region', async () => {
    answers = [ok({ Attributes: { n: { N: '7' } } })];
    const { document, stop } = clients(endpoint);
    const answer = await document.send(
      new UpdateCommand({ TableName: 't', Key: { pk: 'a' }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': 1 } }),
    );
    expect(answer).toMatchObject({ Attributes: { n: 7 }, $metadata: { httpStatusCode: 200, requestId: 'stub-request', attempts: 1 } });
    expect(requests).toHaveLength(1);
    const [{ headers, body }] = requests as [(typeof requests)[number]];
    expect(headers['x-amz-target']).toBe('DynamoDB_20120810.UpdateItem');
    expect(headers['content-type']).toBe('application/x-amz-json-1.0');
    expect(headers.authorization).toMatch(
      new RegExp(
        `^AWS4-HMAC-SHA256 Credential=${emulatorCredentials.accessKeyId}/\\d{8}/${emulatorRegion}/dynamodb/aws4_request, SignedHeaders=\\S*x-amz-target\\S*, Signature=[0-9a-f]{64}$`,
      ),
    );
    expect(JSON.parse(body)).toEqual({
      TableName: 't',
      Key: { pk: { S: 'a' } },
      UpdateExpression: 'ADD n :one',
      ExpressionAttributeValues: { ':one': { N: '1' } },
    });
    stop();
  });

  it('reads a refusal that is not JSON (a proxy page) by its status: a 502 is retried, then unavailable', async () => {
    const page = (response: http.ServerResponse) => {
      response.writeHead(502, { 'content-type': 'text/html' });
      response.end('<html>Bad Gateway</html>');
    };
    answers = [page, page];
    const { document, stop } = clients(endpoint);
    const failure = await document.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } })).catch((error) => error);
    expect(failure).toBeInstanceOf(StoreUnavailableError);
    expect(failure.cause).toMatchObject({ name: 'UnknownError', $fault: 'server', $metadata: { httpStatusCode: 502, attempts: 2 } });
    expect(requests).toHaveLength(2);
    stop();
  });

  it('counts its time limit from the socket: a call queued behind the socket limit is not timed out', async () => {
    const slow = (response: http.ServerResponse) => setTimeout(() => ok({})(response), 250);
    answers = [slow, slow];
    const { document, stop } = clients(endpoint, { timeoutMs: 400, maxSockets: 1 });
    // The second waits ~250 ms for the one socket, then ~250 ms for its answer: 500 ms from the call.
    const answered = await Promise.all([1, 2].map(() => document.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }))));
    expect(answered.map((answer) => answer.$metadata.attempts)).toEqual([1, 1]);
    expect(requests).toHaveLength(2);
    stop();
  });

  it('retries a server error once and answers with the second attempt', async () => {
    answers = [error(500, 'InternalServerError'), ok({ Item: { pk: { S: 'a' } } })];
    const { document, stop } = clients(endpoint);
    const answer = await document.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } }));
    expect(answer).toMatchObject({ Item: { pk: 'a' }, $metadata: { attempts: 2 } });
    expect(requests).toHaveLength(2);
    stop();
  });

  it('ends a throttle that lasts, and an answer that never comes, as StoreUnavailableError after two attempts', async () => {
    answers = [error(400, 'ProvisionedThroughputExceededException'), error(400, 'ProvisionedThroughputExceededException')];
    const { document, stop } = clients(endpoint, { timeoutMs: 200 });
    const throttled = await document.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } })).catch((failure) => failure);
    expect(throttled).toBeInstanceOf(StoreUnavailableError);
    expect(throttled.cause.name).toBe('ProvisionedThroughputExceededException');
    expect(requests).toHaveLength(2);

    answers = [silent, silent];
    const timedOut = await document.send(new GetCommand({ TableName: 't', Key: { pk: 'a' } })).catch((failure) => failure);
    expect(timedOut).toBeInstanceOf(StoreUnavailableError);
    expect(timedOut.cause.name).toBe('TimeoutError');
    expect(requests).toHaveLength(4);
    stop();
  });
});
