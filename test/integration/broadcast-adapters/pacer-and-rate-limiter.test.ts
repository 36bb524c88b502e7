import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDbRateLimiter } from '../../../shared/adapters/dynamodb/dynamodb-rate-limiter';
import { DynamoDbSendPacer } from '../../../shared/adapters/dynamodb/dynamodb-send-pacer';
import { RateLimitStoreUnavailableError } from '../../../shared/rate-limiting/errors';
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { messagingKeys } from '../../../shared/adapters/dynamodb/messaging-table';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';
import { countingClient } from '../../support/unprocessed-batch-client';

let dynamo: TestDynamo;
let pacer: DynamoDbSendPacer;
let limiter: DynamoDbRateLimiter;
let counter = 0;
const unique = (prefix: string) => `${prefix}-${(counter += 1)}`;

beforeAll(async () => {
  dynamo = await startTestDynamo();
  pacer = new DynamoDbSendPacer(dynamo.documentClient, dynamo.tableNames.messaging);
  limiter = new DynamoDbRateLimiter(dynamo.documentClient, dynamo.tableNames.rateLimits);
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

describe('DynamoDbSendPacer', () => {
  const nowMs = Date.parse('2026-03-01T09:00:00.000Z');

  it('gives 4 concurrent workers disjoint, back-to-back blocks: total time = sends / rate', async () => {
    const account = unique('waba');
    const rate = 50;
    const blockSize = 5; // 100 ms per block
    const blocksPerWorker = 10;
    const workers = await Promise.all(
      Array.from({ length: 4 }, async () => {
        const starts: number[] = [];
        for (let block = 0; block < blocksPerWorker; block += 1) starts.push(await pacer.reserve(account, blockSize, rate, nowMs));
        return starts;
      }),
    );
    const blockMs = (blockSize * 1000) / rate;
    const intervals = workers
      .flat()
      .map((start) => ({ start, end: start + blockMs }))
      .sort((a, b) => a.start - b.start);
    expect(intervals).toHaveLength(40);
    expect(intervals[0]!.start).toBe(nowMs);
    intervals.slice(1).forEach((interval, position) => {
      // No overlap, and no gap either: the next block starts where the previous one ends.
      expect(interval.start).toBeCloseTo(intervals[position]!.end, 6);
    });
    const totalSends = 4 * blocksPerWorker * blockSize;
    expect(intervals[intervals.length - 1]!.end - nowMs).toBeCloseTo((totalSends * 1000) / rate, 6);
    // Each worker's own blocks are in increasing order.
    for (const starts of workers) expect([...starts].sort((a, b) => a - b)).toEqual(starts);
  });

  it('starts a new block at "now" once the schedule has run out', async () => {
    const account = unique('waba');
    expect(await pacer.reserve(account, 10, 20, nowMs)).toBe(nowMs); // until nowMs + 500
    expect(await pacer.reserve(account, 10, 20, nowMs + 100)).toBe(nowMs + 500);
    expect(await pacer.reserve(account, 10, 20, nowMs + 5000)).toBe(nowMs + 5000);
  });

  it('pushes the schedule out with holdUntil, and never pulls it back', async () => {
    const account = unique('waba');
    await pacer.reserve(account, 10, 10, nowMs); // busy until nowMs + 1000
    await pacer.holdUntil(account, nowMs + 5000);
    expect(await pacer.reserve(account, 1, 10, nowMs + 10)).toBe(nowMs + 5000);
    // An earlier hold is ignored: the schedule stays at nowMs + 5100.
    await pacer.holdUntil(account, nowMs + 2000);
    expect(await pacer.reserve(account, 1, 10, nowMs + 20)).toBe(nowMs + 5100);
    // A hold on an account without a schedule creates one.
    const fresh = unique('waba');
    await pacer.holdUntil(fresh, nowMs + 3000);
    expect(await pacer.reserve(fresh, 1, 10, nowMs)).toBe(nowMs + 3000);
  });

  it('appends to a schedule it knows is booked in one call, and writes no hold its schedule already covers', async () => {
    const counted = countingClient(dynamo.endpoint);
    const own = new DynamoDbSendPacer(counted.documentClient, dynamo.tableNames.messaging);
    const account = unique('waba');
    const updates = () => counted.calls.UpdateItemCommand ?? 0;
    expect(await own.reserve(account, 10, 100, nowMs)).toBe(nowMs); // idle: one write, booked to nowMs + 100
    const starts: number[] = [];
    for (let block = 0; block < 5; block += 1) starts.push(await own.reserve(account, 10, 100, nowMs + 5));
    expect(starts).toEqual([100, 200, 300, 400, 500].map((offset) => nowMs + offset));
    // Before: each append came after the idle write's refused condition (two calls, one exception).
    expect(updates()).toBe(6);
    await own.holdUntil(account, nowMs + 5_000);
    await own.holdUntil(account, nowMs + 3_000);
    await own.holdUntil(account, nowMs + 600);
    expect(updates()).toBe(7);
    // A burst of holds (a run of 130429 answers): those the one being written covers wait for it.
    await Promise.all([own.holdUntil(account, nowMs + 9_000), own.holdUntil(account, nowMs + 8_000), own.holdUntil(account, nowMs + 8_500)]);
    expect(updates()).toBe(8);
    // Another instance knows nothing, and still gets the slot after the hold.
    expect(await pacer.reserve(account, 1, 10, nowMs)).toBe(nowMs + 9_000);
    // A schedule gone (the item deleted behind its back): the append is refused, the idle write starts it now.
    await dynamo.documentClient.send(new DeleteCommand({ TableName: dynamo.tableNames.messaging, Key: messagingKeys.pacer(account) }));
    expect(await own.reserve(account, 1, 10, nowMs + 10)).toBe(nowMs + 10);
    counted.client.destroy();
  });

  it('keeps accounts independent', async () => {
    const busy = unique('waba');
    const idle = unique('waba');
    await pacer.reserve(busy, 1000, 10, nowMs); // 100 s ahead
    await pacer.holdUntil(busy, nowMs + 200_000);
    const [a, b] = await Promise.all([pacer.reserve(idle, 5, 10, nowMs), pacer.reserve(idle, 5, 10, nowMs)]);
    expect([a, b].sort((x, y) => x - y)).toEqual([nowMs, nowMs + 500]);
  });
});

describe('DynamoDbRateLimiter (sliding window)', () => {
  const windowStart = new Date('2026-03-01T09:15:00.000Z');
  const at = (ms: number) => new Date(windowStart.getTime() + ms);

  it('lets exactly N of 30 concurrent requests through and tells the others the exact wait', async () => {
    const bucket = unique('send#key');
    const now = at(20_300);
    const decisions = await Promise.all(Array.from({ length: 30 }, () => limiter.consume(bucket, 10, now)));
    const allowed = decisions.filter((decision) => decision.allowed);
    expect(allowed).toHaveLength(10);
    expect(allowed.map((decision) => decision.remaining).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(allowed.every((decision) => decision.retryAfterSeconds === 0)).toBe(true);
    const refused = decisions.filter((decision) => !decision.allowed);
    expect(refused).toHaveLength(20);
    // The 10 stay in the window until one of them has slid out: 6 s into the next minute, 45.7 s away → 46.
    expect(refused.every((decision) => decision.retryAfterSeconds === 46 && decision.remaining === 0)).toBe(true);
  });

  it('refuses 10 more at 1:00 after 10 at 0:59 (limit 10), then admits one per 6 s', async () => {
    const bucket = unique('send#key');
    const first = await Promise.all(Array.from({ length: 10 }, () => limiter.consume(bucket, 10, at(59_000))));
    expect(first.every((decision) => decision.allowed)).toBe(true);
    const second = await Promise.all(Array.from({ length: 10 }, () => limiter.consume(bucket, 10, at(60_000))));
    expect(second.filter((decision) => decision.allowed)).toHaveLength(0);
    expect(second.every((decision) => decision.retryAfterSeconds === 6)).toBe(true);
    await expect(limiter.consume(bucket, 10, at(65_999))).resolves.toEqual({ allowed: false, retryAfterSeconds: 1, remaining: 0 });
    await expect(limiter.consume(bucket, 10, at(66_000))).resolves.toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 0 });
    await expect(limiter.consume(bucket, 10, at(66_000))).resolves.toEqual({ allowed: false, retryAfterSeconds: 6, remaining: 0 });
  });

  it('says at least 1 second, and a lone request at the end of a minute weighs on all of the next (limit 1)', async () => {
    const bucket = unique('send#key');
    await expect(limiter.consume(bucket, 1, at(59_500))).resolves.toMatchObject({ allowed: true });
    // Admitted again only once the minute holding it has fully slid out: at 2:00, 60.5 s later.
    await expect(limiter.consume(bucket, 1, at(59_500))).resolves.toEqual({ allowed: false, retryAfterSeconds: 61, remaining: 0 });
    await expect(limiter.consume(bucket, 1, at(119_999))).resolves.toEqual({ allowed: false, retryAfterSeconds: 1, remaining: 0 });
    await expect(limiter.consume(bucket, 1, at(120_000))).resolves.toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 0 });
  });

  it('gives back the previous minute as it slides out, counts buckets apart, and forgets a quiet minute', async () => {
    const bucket = unique('send#key');
    for (let request = 0; request < 3; request += 1) await limiter.consume(bucket, 3, at(10_000));
    await expect(limiter.consume(bucket, 3, at(59_999))).resolves.toMatchObject({ allowed: false });
    await expect(limiter.consume(unique('send#key'), 3, at(59_999))).resolves.toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 2 });
    // 20 s into the next minute two thirds of the previous one still count: 3 × 2/3 = 2, so one fits.
    await expect(limiter.consume(bucket, 3, at(80_000))).resolves.toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 0 });
    await expect(limiter.consume(bucket, 3, at(80_000))).resolves.toMatchObject({ allowed: false });
    await expect(limiter.consume(bucket, 3, at(180_000))).resolves.toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 2 });
  });

  it('reports an unreachable store as RateLimitStoreUnavailableError (a retry can help: 503)', async () => {
    const unreachable = DynamoDBDocumentClient.from(
      new DynamoDBClient({ endpoint: 'http://127.0.0.1:1', region: 'us-east-1', maxAttempts: 1, credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }),
    );
    const broken = new DynamoDbRateLimiter(unreachable, dynamo.tableNames.rateLimits);
    await expect(broken.consume('b', 10, at(0))).rejects.toBeInstanceOf(RateLimitStoreUnavailableError);
    unreachable.destroy();
  });

  it('reports a missing table as it is, not as unavailable (no retry can help: 500)', async () => {
    const broken = new DynamoDbRateLimiter(dynamo.documentClient, 'no-such-table');
    await expect(broken.consume('b', 10, at(0))).rejects.toMatchObject({ name: 'ResourceNotFoundException' });
  });
});
