/**
 * Conditional writes the table applied but answered with a timeout: the SDK sends them again,
 * the retry fails its own condition, and that failure must not be read as someone else's write.
 * test/support/lost-write-client.ts lets the first attempt reach dynalite, then throws the SDK's
 * TimeoutError in place of the answer, as a lost response does. The wallet's writes: test/integration/tenancy/wallet-write-retries.test.ts.
 */
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { IdempotencyAlreadyInProgressError, IdempotencyConfig, makeIdempotent } from '@aws-lambda-powertools/idempotency';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import type { Context } from 'aws-lambda';
import { DynamoDbRateLimiter } from '../../../shared/adapters/dynamodb/dynamodb-rate-limiter';
import { PowertoolsIdempotencyGuard } from '../../../shared/adapters/idempotency/powertools-idempotency-guard';
import { IdempotencyKeyInProgressError } from '../../../shared/broadcast/errors';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';
import { clientLosingAppliedWrites } from '../../support/lost-write-client';

let dynamo: TestDynamo;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${(counter += 1)}`;

beforeAll(async () => {
  dynamo = await startTestDynamo();
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

describe('rate-limit counter: an applied increment that timed out', () => {
  const now = new Date('2026-03-01T09:15:20.000Z');

  it("is the request's own admission, counted once, not a refusal", async () => {
    const { documentClient, faults, client } = clientLosingAppliedWrites(dynamo.endpoint);
    const limiter = new DynamoDbRateLimiter(documentClient, dynamo.tableNames.rateLimits);
    const bucket = unique('send#key');
    const decisions = [];
    for (let request = 0; request < 3; request += 1) decisions.push(await limiter.consume(bucket, 3, now));
    expect(decisions).toEqual([
      { allowed: true, retryAfterSeconds: 0, remaining: 2 },
      { allowed: true, retryAfterSeconds: 0, remaining: 1 },
      { allowed: true, retryAfterSeconds: 0, remaining: 0 },
    ]);
    // Every admission was lost once and retried: each retry was refused by its own token.
    expect(faults.lost).toBe(3);
    expect(faults.attempts).toBe(6);
    const item = await dynamo.documentClient.send(
      new GetCommand({ TableName: dynamo.tableNames.rateLimits, Key: { pk: `RL#${bucket}#${Math.floor(now.getTime() / 60_000) * 60}` } }),
    );
    expect(item.Item?.requestCount).toBe(3);
    await expect(limiter.consume(bucket, 3, now)).resolves.toMatchObject({ allowed: false, retryAfterSeconds: 60 }); // 3 admitted 20 s in: free again at 1:20
    client.destroy();
  });

  it('under concurrency still lets exactly the limit through', async () => {
    const { documentClient, faults, client } = clientLosingAppliedWrites(dynamo.endpoint);
    const limiter = new DynamoDbRateLimiter(documentClient, dynamo.tableNames.rateLimits);
    const bucket = unique('send#key');
    const decisions = await Promise.all(Array.from({ length: 12 }, () => limiter.consume(bucket, 5, now)));
    expect(decisions.filter((decision) => decision.allowed)).toHaveLength(5);
    expect(faults.lost).toBe(5);
    const item = await dynamo.documentClient.send(
      new GetCommand({ TableName: dynamo.tableNames.rateLimits, Key: { pk: `RL#${bucket}#${Math.floor(now.getTime() / 60_000) * 60}` } }),
    );
    expect(item.Item?.requestCount).toBe(5);
    client.destroy();
  });
});

describe('idempotency claim: an applied in-progress put that timed out', () => {
  const options = { inProgressTimeoutMs: 20_000 };

  it('control: the library alone reads its own retried claim as another request in progress', async () => {
    const { client, faults } = clientLosingAppliedWrites(dynamo.endpoint);
    const persistenceStore = new DynamoDBPersistenceLayer({
      tableName: dynamo.tableNames.idempotency,
      awsSdkV3Client: client,
      keyAttr: 'pk',
      expiryAttr: 'expiresAt',
    });
    const config = new IdempotencyConfig({ eventKeyJmesPath: 'key' });
    config.registerLambdaContext({ getRemainingTimeInMillis: () => 20_000 } as Context);
    const work = jest.fn(async () => ({ ok: true }));
    const guarded = makeIdempotent(async (_call: { key: string }) => work(), { persistenceStore, config });
    await expect(guarded({ key: unique('control') })).rejects.toBeInstanceOf(IdempotencyAlreadyInProgressError);
    expect(faults.lost).toBe(1);
    expect(work).not.toHaveBeenCalled();
    client.destroy();
  });

  it('runs the work exactly once, answers its result (no 409), and replays it', async () => {
    const { client, faults } = clientLosingAppliedWrites(dynamo.endpoint);
    const guard = new PowertoolsIdempotencyGuard(client, dynamo.tableNames.idempotency);
    const key = unique('broadcast#org_1#key');
    const jobId = unique('pub_retried');
    const work = jest.fn(async () => ({ kind: 'job', jobId }));
    await expect(guard.run(key, 'hash-a', work, options)).resolves.toEqual({ kind: 'job', jobId });
    expect(faults.lost).toBe(1);
    expect(work).toHaveBeenCalledTimes(1);
    await expect(guard.run(key, 'hash-a', work, options)).resolves.toEqual({ kind: 'job', jobId });
    expect(work).toHaveBeenCalledTimes(1);
    const records = (await dynamo.documentClient.send(new ScanCommand({ TableName: dynamo.tableNames.idempotency }))).Items ?? [];
    expect(records.filter((record) => (record.data as { jobId?: string } | undefined)?.jobId === jobId)).toEqual([
      expect.objectContaining({ status: 'COMPLETED', claimToken: expect.any(String) }),
    ]);
    client.destroy();
  });

  it("still refuses a claim that is really another request's", async () => {
    const { client } = clientLosingAppliedWrites(dynamo.endpoint);
    const guard = new PowertoolsIdempotencyGuard(client, dynamo.tableNames.idempotency);
    const key = unique('broadcast#org_1#key');
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    const first = guard.run(
      key,
      'hash-a',
      async () => {
        started();
        await new Promise<void>((done) => (release = done));
        return { kind: 'queued', recipients: 1 };
      },
      options,
    );
    await running;
    const second = jest.fn(async () => ({ kind: 'queued', recipients: 2 }));
    await expect(guard.run(key, 'hash-a', second, options)).rejects.toBeInstanceOf(IdempotencyKeyInProgressError);
    expect(second).not.toHaveBeenCalled();
    release();
    await expect(first).resolves.toEqual({ kind: 'queued', recipients: 1 });
    client.destroy();
  });
});
