import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { PowertoolsIdempotencyGuard } from '../../../shared/adapters/idempotency/powertools-idempotency-guard';
import { IdempotencyKeyInProgressError, IdempotencyKeyReusedError } from '../../../shared/broadcast/errors';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;
let guard: PowertoolsIdempotencyGuard;
let counter = 0;
const uniqueKey = () => `broadcast#org_1#key-${(counter += 1)}`;
const options = { inProgressTimeoutMs: 20_000 };

beforeAll(async () => {
  dynamo = await startTestDynamo();
  guard = new PowertoolsIdempotencyGuard(dynamo.client, dynamo.tableNames.idempotency);
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

const deferred = <T>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
};

/** Records of the idempotency table (the key is hashed by Powertools, so find them by content). */
const storedRecords = async () => (await dynamo.documentClient.send(new ScanCommand({ TableName: dynamo.tableNames.idempotency }))).Items ?? [];

describe('PowertoolsIdempotencyGuard on dynalite', () => {
  it('runs the work once and replays its stored result', async () => {
    const key = uniqueKey();
    const result = { kind: 'job', jobId: `pub_${key}`, status: 'PROCESSING', totalRecipients: 1500, chunkSize: 1000, totalChunks: 2 };
    const work = jest.fn(async () => result);
    await expect(guard.run(key, 'hash-a', work, options)).resolves.toEqual(result);
    await expect(guard.run(key, 'hash-a', work, options)).resolves.toEqual(result);
    await expect(guard.run(key, 'hash-a', work, options)).resolves.toEqual(result);
    expect(work).toHaveBeenCalledTimes(1);
  });

  it('keeps the record for at least 24 hours', async () => {
    const key = uniqueKey();
    const jobId = `pub_expiry_${counter}`;
    const before = Math.floor(Date.now() / 1000);
    await guard.run(key, 'hash-e', async () => ({ kind: 'job', jobId }), options);
    const record = (await storedRecords()).find((item) => (item.data as { jobId?: string } | undefined)?.jobId === jobId);
    expect(record).toMatchObject({ status: 'COMPLETED', validation: expect.any(String) });
    expect(Number(record!.expiresAt)).toBeGreaterThanOrEqual(before + 24 * 3600);
    // Seconds, not milliseconds (a TTL in ms would never expire).
    expect(Number(record!.expiresAt)).toBeLessThan(before + 72 * 3600);
  });

  it('refuses the key with another payload, without running the work', async () => {
    const key = uniqueKey();
    await guard.run(key, 'hash-a', async () => ({ kind: 'queued', recipients: 3 }), options);
    const work = jest.fn(async () => ({ kind: 'queued', recipients: 4 }));
    await expect(guard.run(key, 'hash-b', work, options)).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    expect(work).not.toHaveBeenCalled();
  });

  it('answers in progress to a second call while the first one runs, then replays', async () => {
    const key = uniqueKey();
    const gate = deferred<void>();
    const started = deferred<void>();
    const first = guard.run(
      key,
      'hash-a',
      async () => {
        started.resolve();
        await gate.promise;
        return { kind: 'queued', recipients: 7 };
      },
      options,
    );
    await started.promise;
    const second = jest.fn(async () => ({ kind: 'queued', recipients: 99 }));
    await expect(guard.run(key, 'hash-a', second, options)).rejects.toBeInstanceOf(IdempotencyKeyInProgressError);
    // A different payload while in progress is still a reused key.
    await expect(guard.run(key, 'hash-z', second, options)).rejects.toBeInstanceOf(IdempotencyKeyReusedError);
    gate.resolve();
    await expect(first).resolves.toEqual({ kind: 'queued', recipients: 7 });
    await expect(guard.run(key, 'hash-a', second, options)).resolves.toEqual({ kind: 'queued', recipients: 7 });
    expect(second).not.toHaveBeenCalled();
  });

  it('lets a later call take over a claim whose in-progress time has passed', async () => {
    const key = uniqueKey();
    const crashed = deferred<void>();
    const started = deferred<void>();
    const abandoned = guard.run(
      key,
      'hash-a',
      async () => {
        started.resolve();
        await crashed.promise; // a request that never finishes (its Lambda died)
        return { kind: 'queued', recipients: 1 };
      },
      { inProgressTimeoutMs: 300 },
    );
    await started.promise;
    await expect(guard.run(key, 'hash-a', async () => ({ kind: 'queued', recipients: 2 }), options)).rejects.toBeInstanceOf(IdempotencyKeyInProgressError);
    await new Promise((resolve) => setTimeout(resolve, 450));
    const takeover = jest.fn(async () => ({ kind: 'queued', recipients: 2 }));
    await expect(guard.run(key, 'hash-a', takeover, options)).resolves.toEqual({ kind: 'queued', recipients: 2 });
    expect(takeover).toHaveBeenCalledTimes(1);
    crashed.resolve();
    await abandoned;
  });

  it('forgets a key whose work failed, so a retry runs it again', async () => {
    const key = uniqueKey();
    await expect(guard.run(key, 'hash-a', async () => Promise.reject(new Error('queue down')), options)).rejects.toThrow('queue down');
    const retry = jest.fn(async () => ({ kind: 'queued', recipients: 5 }));
    await expect(guard.run(key, 'hash-a', retry, options)).resolves.toEqual({ kind: 'queued', recipients: 5 });
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('keeps keys apart', async () => {
    const [a, b] = [uniqueKey(), uniqueKey()];
    await guard.run(a, 'same-hash', async () => ({ which: 'a' }), options);
    await expect(guard.run(b, 'same-hash', async () => ({ which: 'b' }), options)).resolves.toEqual({ which: 'b' });
  });
});
