/**
 * The bench's per-item write counting (bench/lib/request-counter.ts `trackKeyWrites`, docs/SCALE.md
 * "Hottest items"): a real DynamoDBClient whose network is a middleware answering in place of the
 * table, so the counter sees exactly what the SDK would send.
 */
import { BatchWriteItemCommand, ConditionalCheckFailedException, DynamoDBClient, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { RequestCounter } from '../../../bench/lib/request-counter';
import { hottestByKind } from '../../../bench/lib/hot-items';

/** A client answering every call with `answer(input)` (or throwing what it throws). */
function standInClient(answer: (commandName: string, input: Record<string, any>) => Record<string, unknown>): DynamoDBClient {
  const client = new DynamoDBClient({ region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' }, maxAttempts: 1 });
  client.middlewareStack.add(
    (_next, context) => async (args) => ({
      output: { $metadata: {}, ...answer(String(context.commandName), args.input as Record<string, any>) },
      response: {},
    }),
    { step: 'finalizeRequest', name: 'tableStandIn' },
  );
  return client;
}

const put = (pk: string, sk: string) => new PutItemCommand({ TableName: 'local-messaging', Item: { pk: { S: pk }, sk: { S: sk }, n: { N: '1' } } });

describe('RequestCounter per-key writes', () => {
  test('counts writes per item and per partition key, each item of a batch, in the second they happened', async () => {
    const client = standInClient(() => ({ ConsumedCapacity: { TableName: 'local-messaging', CapacityUnits: 1 } }));
    const counter = new RequestCounter();
    counter.attachDynamoDb(client);
    counter.trackKeyWrites();

    await client.send(put('PACE#1', 'PACE'));
    await client.send(put('PACE#1', 'PACE'));
    await client.send(
      new BatchWriteItemCommand({
        RequestItems: { 'local-messaging': ['R#0', 'R#1', 'R#2'].map((sk) => ({ PutRequest: { Item: { pk: { S: 'LEDGER#j#0' }, sk: { S: sk } } } })) },
      }),
    );

    const keys = counter.hotKeys(Number.POSITIVE_INFINITY);
    const pacer = keys.find((key) => key.key === 'messaging PACE#1 | PACE')!;
    expect(pacer).toMatchObject({ partition: false, kind: 'messaging PACE/PACE', writes: 2, writeUnits: 2 });
    // Two writes within one test: the same calendar second unless the clock ticked between them.
    expect(pacer.peakWritesPerSecond).toBeGreaterThanOrEqual(1);
    expect(keys.find((key) => key.key === 'messaging LEDGER#j#0')).toMatchObject({ partition: true, writes: 3 });
    expect(keys.filter((key) => !key.partition && key.kind === 'messaging LEDGER/R')).toHaveLength(3);
  });

  test('a refused conditional write is counted against its key as refused; an update that leaves an index key writes the index partition too', async () => {
    const client = standInClient((name, input) => {
      if (name === 'PutItemCommand') throw new ConditionalCheckFailedException({ message: 'refused', $metadata: {} });
      // The counter asks an update for ALL_NEW to see index keys; the item carries gsi1.
      expect(input.ReturnValues).toBe('ALL_NEW');
      return {
        ConsumedCapacity: { CapacityUnits: 1 },
        Attributes: { pk: { S: 'JOB#j' }, sk: { S: 'JOB' }, gsi1pk: { S: 'ORG#o#JOBS' }, gsi1sk: { S: '2026' } },
      };
    });
    const counter = new RequestCounter();
    counter.attachDynamoDb(client);
    counter.trackKeyWrites();

    await expect(client.send(put('LEDGER#j#0', 'R#7'))).rejects.toBeInstanceOf(ConditionalCheckFailedException);
    const update = await client.send(
      new UpdateItemCommand({
        TableName: 'local-messaging',
        Key: { pk: { S: 'JOB#j' }, sk: { S: 'JOB' } },
        UpdateExpression: 'SET a = :a',
        ExpressionAttributeValues: { ':a': { N: '1' } },
      }),
    );
    // The caller asked for no attributes and gets none.
    expect(update.Attributes).toBeUndefined();

    const keys = counter.hotKeys(Number.POSITIVE_INFINITY);
    expect(keys.find((key) => key.key === 'messaging LEDGER#j#0 | R#7')).toMatchObject({ writes: 1, refused: 1 });
    expect(keys.find((key) => key.key === 'messaging/gsi1 ORG#o#JOBS')).toMatchObject({ partition: true, writes: 1 });
  });

  test('nothing is kept per key unless asked, and reset() clears what was', async () => {
    const client = standInClient(() => ({ ConsumedCapacity: { CapacityUnits: 1 } }));
    const counter = new RequestCounter();
    counter.attachDynamoDb(client);
    await client.send(put('PACE#1', 'PACE'));
    expect(counter.hotKeys()).toEqual([]);
    counter.trackKeyWrites();
    await client.send(put('PACE#1', 'PACE'));
    counter.reset();
    expect(counter.hotKeys()).toEqual([]);
  });
});

describe('hottestByKind', () => {
  test('keeps the most written key of each kind, per 1,000 messages, most written first', () => {
    const key = (name: string, kind: string, writes: number, partition = false) => ({
      key: name,
      kind,
      partition,
      writes,
      writeUnits: writes * 2,
      refused: 0,
      peakWritesPerSecond: writes,
      peakUnitsPerSecond: writes * 2,
      activeSeconds: 1,
    });
    const kinds = hottestByKind(
      [key('PACE#1 | PACE', 'PACE/PACE', 40), key('TALLY a', 'JOB/TALLY', 150), key('TALLY b', 'JOB/TALLY', 120), key('JOB#j', 'JOB', 400, true)],
      2_000,
    );
    expect(kinds.map((kind) => [kind.kind, kind.partition, kind.keys, kind.hottest.key, kind.writesPer1000Messages, kind.unitsPer1000Messages])).toEqual([
      ['JOB', true, 1, 'JOB#j', 200, 400],
      ['JOB/TALLY', false, 2, 'TALLY a', 75, 150],
      ['PACE/PACE', false, 1, 'PACE#1 | PACE', 20, 40],
    ]);
  });
});
