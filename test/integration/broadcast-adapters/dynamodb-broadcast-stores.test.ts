import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  chunkProgressAdapter,
  dynamoDbBroadcastStores,
  jobStoreAdapter,
  recipientLedgerAdapter,
} from '../../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import { decodeLedgerPage, ledgerPageKey } from '../../../shared/adapters/dynamodb/ledger-page-items';
import type { BroadcastJob } from '../../../shared/broadcast/broadcast-job';
import type { ChunkProgressStore, JobStore, LedgerEntry, RecipientLedger } from '../../../shared/broadcast/ports';
import { chunkProgressOf } from '../../support/chunk-progress';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;
let repository: JobStore & RecipientLedger & ChunkProgressStore;
let jobCounter = 0;

beforeAll(async () => {
  dynamo = await startTestDynamo();
  repository = dynamoDbBroadcastStores(dynamo.documentClient, dynamo.tableNames.messaging, [jobStoreAdapter, recipientLedgerAdapter, chunkProgressAdapter]);
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

const now = new Date('2026-03-01T09:00:00.000Z');

const newJob = (chunkSizes: number[]): Extract<BroadcastJob, { kind: 'template' }> => ({
  kind: 'template',
  jobId: `pub_test${(jobCounter += 1)}`,
  organizationId: 'org_1',
  broadcastName: 'integration',
  exposed: true,
  wabaId: 'waba_1',
  phoneNumberId: 'pn_1',
  fromPhoneNumber: '919800000001',
  template: { name: 'order_update', language: 'en_US', category: 'UTILITY', id: 'tpl_1' },
  totalRecipients: chunkSizes.reduce((sum, size) => sum + size, 0),
  totalChunks: chunkSizes.length,
  chunkSize: 1000,
  createdAt: now.toISOString(),
});

const to = (index: number) => `9198${String(index).padStart(8, '0')}`;
const outcome = (index: number, status: LedgerEntry['status'], extra: Partial<LedgerEntry> = {}): LedgerEntry => ({
  index,
  to: to(index),
  status,
  attempts: 1,
  updatedAt: now.toISOString(),
  ...(status === 'SENT' ? { messageId: `wamid.${index}` } : {}),
  ...extra,
});

const claimAll = async (jobId: string, chunkIndex: number, indexes: number[]) => {
  for (const index of indexes) expect(await repository.claimRecipient(jobId, chunkIndex, index, to(index), now)).toEqual({ claimed: true });
};

describe('DynamoDB broadcast stores', () => {
  it('creates a job with its chunks and reads them back', async () => {
    const job = newJob([1000, 1000, 5]);
    await repository.createJob(job, [1000, 1000, 5]);
    await expect(repository.getJob(job.jobId)).resolves.toEqual(job);
    const progress = await chunkProgressOf(repository, job.jobId);
    expect(progress).toEqual(
      [1000, 1000, 5].map((recipientCount, chunkIndex) => ({
        chunkIndex,
        recipientCount,
        sent: 0,
        failed: 0,
        unknown: 0,
        failuresByReason: {},
        started: false,
        done: false,
      })),
    );
    await expect(repository.getJob('pub_missing')).resolves.toBeUndefined();
    await expect(chunkProgressOf(repository, 'pub_missing')).resolves.toEqual([]);
  });

  it('keeps the first job and its progress when created again (idempotent create)', async () => {
    const job = newJob([3, 2]);
    await repository.createJob(job, [3, 2]);
    await repository.markChunkStarted(job.jobId, 0, now);
    await repository.addChunkProgress(job.jobId, 0, { sent: 2, failed: 1, unknown: 0, failuresByReason: { INVALID_PHONE_NUMBER: 1 } });

    await repository.createJob({ ...job, broadcastName: 'second attempt' }, [3, 2]);
    await expect(repository.getJob(job.jobId)).resolves.toMatchObject({ broadcastName: 'integration' });
    const [first, second] = await chunkProgressOf(repository, job.jobId);
    expect(first).toMatchObject({ recipientCount: 3, sent: 2, failed: 1, failuresByReason: { INVALID_PHONE_NUMBER: 1 }, started: true });
    expect(second).toMatchObject({ recipientCount: 2, sent: 0, started: false });
  });

  it('writes a new job with its chunks and recipient lists, listed per chunk in request order', async () => {
    const job = newJob([1000, 2]);
    const listed = Array.from({ length: 1002 }, (_, index) => ({ index, countryCode: '91', toPhoneNumber: `98${String(index).padStart(8, '0')}` }));
    await expect(repository.createJob(job, [1000, 2], listed)).resolves.toEqual({ created: true });
    expect((await repository.readChunkRecipients(job.jobId, 0)).listed).toEqual(listed.slice(0, 1000));
    expect((await repository.readChunkRecipients(job.jobId, 1)).listed).toEqual(listed.slice(1000));
    expect((await chunkProgressOf(repository, job.jobId)).map((chunk) => chunk.recipientCount)).toEqual([1000, 2]);
  });

  it('completes a create that stopped after the job item on the retry, keeping the items written', async () => {
    const job = newJob([3, 2]);
    await repository.createJob(job, [3, 2]);
    await repository.addChunkProgress(job.jobId, 0, { sent: 1, failed: 0, unknown: 0, failuresByReason: {} });
    await dynamo.documentClient.send(new DeleteCommand({ TableName: dynamo.tableNames.messaging, Key: { pk: `JOB#${job.jobId}`, sk: 'CHUNK#0001' } }));

    const listed = [0, 1, 2, 3, 4].map((index) => ({ index, countryCode: '91', toPhoneNumber: `98${String(index).padStart(8, '0')}` }));
    await expect(repository.createJob(job, [3, 2], listed)).resolves.toEqual({ created: false });
    const [first, second] = await chunkProgressOf(repository, job.jobId);
    expect(first).toMatchObject({ recipientCount: 3, sent: 1 });
    expect(second).toMatchObject({ recipientCount: 2, sent: 0, started: false });
    // The first attempt wrote no recipient list (chunk size 1000: all five are in chunk 0): the retry adds it.
    expect((await repository.readChunkRecipients(job.jobId, 0)).listed).toEqual(listed);
  });

  it('marks a chunk started once, keeping the first time', async () => {
    const job = newJob([1]);
    await repository.createJob(job, [1]);
    await repository.markChunkStarted(job.jobId, 0, now);
    await repository.markChunkStarted(job.jobId, 0, new Date(now.getTime() + 60_000));
    const item = await dynamo.documentClient.send(
      new GetCommand({ TableName: dynamo.tableNames.messaging, Key: { pk: `JOB#${job.jobId}`, sk: 'CHUNK#0000' } }),
    );
    expect(item.Item?.startedAt).toBe(now.toISOString());
  });

  it('lets exactly one of 50 concurrent claims of a recipient win; the others see the claim', async () => {
    const job = newJob([1]);
    await repository.createJob(job, [1]);
    const results = await Promise.all(Array.from({ length: 50 }, () => repository.claimRecipient(job.jobId, 0, 7, to(7), now)));
    expect(results.filter((result) => result.claimed)).toHaveLength(1);
    const losers = results.filter((result) => !result.claimed);
    expect(losers).toHaveLength(49);
    for (const loser of losers) {
      expect(loser).toMatchObject({ claimed: false, existing: { index: 7, to: to(7), status: 'SENDING', attempts: 0 } });
    }
  });

  it('keeps claims of different recipients, chunks and jobs apart', async () => {
    const job = newJob([2, 2]);
    const other = newJob([2]);
    await Promise.all([repository.createJob(job, [2, 2]), repository.createJob(other, [2])]);
    const results = await Promise.all([
      repository.claimRecipient(job.jobId, 0, 0, to(0), now),
      repository.claimRecipient(job.jobId, 0, 1, to(1), now),
      repository.claimRecipient(job.jobId, 1, 0, to(0), now),
      repository.claimRecipient(other.jobId, 0, 0, to(0), now),
    ]);
    expect(results.every((result) => result.claimed)).toBe(true);
  });

  it('reconciles a chunk only when every recipient is accounted for, then sets the exact counts', async () => {
    const job = newJob([6]);
    await repository.createJob(job, [6]);
    await repository.markChunkStarted(job.jobId, 0, now);
    await claimAll(job.jobId, 0, [0, 1, 2, 3, 4, 5]);
    await repository.recordOutcomes(job.jobId, 0, [
      outcome(0, 'SENT'),
      outcome(1, 'SENT'),
      outcome(2, 'FAILED', { failureReasonCode: 'INVALID_PHONE_NUMBER' }),
    ]);
    // Live counters that ran ahead (a duplicate delivery counted twice) and a reason that will vanish.
    await repository.addChunkProgress(job.jobId, 0, { sent: 4, failed: 2, unknown: 0, failuresByReason: { INVALID_PHONE_NUMBER: 1, '131000': 1 } });

    // 3 of 6 accounted for (the rest are still SENDING): not done, live counters untouched.
    await expect(repository.reconcileChunk(job.jobId, 0, now)).resolves.toEqual({ done: false });
    expect((await chunkProgressOf(repository, job.jobId))[0]).toMatchObject({ sent: 4, failed: 2, done: false });

    await repository.recordOutcomes(job.jobId, 0, [
      outcome(3, 'FAILED', { failureReasonCode: 'INVALID_PHONE_NUMBER' }),
      outcome(4, 'FAILED', { failureReasonCode: '132001' }),
    ]);
    await expect(repository.reconcileChunk(job.jobId, 0, now)).resolves.toEqual({ done: false });
    await repository.recordOutcomes(job.jobId, 0, [outcome(5, 'UNKNOWN', { failureReasonCode: 'UNKNOWN_OUTCOME: timeout' })]);

    const doneAt = new Date(now.getTime() + 5000);
    await expect(repository.reconcileChunk(job.jobId, 0, doneAt)).resolves.toEqual({ done: true });
    const [progress] = await chunkProgressOf(repository, job.jobId);
    expect(progress).toEqual({
      chunkIndex: 0,
      recipientCount: 6,
      sent: 2,
      failed: 3,
      unknown: 1,
      failuresByReason: { INVALID_PHONE_NUMBER: 2, '132001': 1 },
      started: true,
      done: true,
      doneAt: doneAt.toISOString(),
    });
    // A second reconcile keeps the first doneAt.
    await repository.reconcileChunk(job.jobId, 0, new Date(now.getTime() + 60_000));
    const item = await dynamo.documentClient.send(
      new GetCommand({ TableName: dynamo.tableNames.messaging, Key: { pk: `JOB#${job.jobId}`, sk: 'CHUNK#0000' } }),
    );
    expect(item.Item?.doneAt).toBe(doneAt.toISOString());
  });

  it('records outcomes in batches beyond 25 and indexes sent ones by message id', async () => {
    const job = newJob([60]);
    await repository.createJob(job, [60]);
    const indexes = Array.from({ length: 60 }, (_, index) => index);
    await Promise.all(indexes.map((index) => repository.claimRecipient(job.jobId, 0, index, to(index), now)));
    await repository.recordOutcomes(
      job.jobId,
      0,
      indexes.map((index) => (index % 10 === 9 ? outcome(index, 'FAILED', { failureReasonCode: '131049', attempts: 3 }) : outcome(index, 'SENT'))),
    );
    await expect(repository.reconcileChunk(job.jobId, 0, now)).resolves.toEqual({ done: true });
    const [progress] = await chunkProgressOf(repository, job.jobId);
    expect(progress).toMatchObject({ sent: 54, failed: 6, unknown: 0, failuresByReason: { '131049': 6 }, done: true });

    // Recipients 8 and 9 share a ledger page: one item, one attribute each, no claim token left.
    const stored = await dynamo.documentClient.send(new GetCommand({ TableName: dynamo.tableNames.messaging, Key: ledgerPageKey(job.jobId, 0, 8) }));
    expect(stored.Item).toMatchObject({ sk: 'P#00001', expiresAt: expect.any(Number) });
    // The message id has its own record (no gsi1 copy of the entry, which every event would rewrite).
    expect(stored.Item?.gsi1pk).toBeUndefined();
    const paged = new Map(decodeLedgerPage(stored.Item!).map(({ entry, token }) => [entry.index, { entry, token }]));
    expect(paged.get(8)).toEqual({ entry: expect.objectContaining({ status: 'SENT', messageId: 'wamid.8' }), token: undefined });
    const record = await dynamo.documentClient.send(new GetCommand({ TableName: dynamo.tableNames.messaging, Key: { pk: 'WAMID#wamid.8', sk: 'LEDGER' } }));
    expect(record.Item).toMatchObject({ jobId: job.jobId, chunkIndex: 0, index: 8, expiresAt: expect.any(Number) });
    expect(paged.get(9)?.entry).toMatchObject({ status: 'FAILED', failureReasonCode: '131049', attempts: 3 });
  });

  it('turns a claim UNKNOWN only while it is SENDING', async () => {
    const job = newJob([3]);
    await repository.createJob(job, [3]);
    await claimAll(job.jobId, 0, [0, 1]);
    await repository.recordOutcomes(job.jobId, 0, [outcome(1, 'SENT')]);

    const later = new Date(now.getTime() + 1000);
    await expect(repository.markStaleAsUnknown(job.jobId, 0, 0, later)).resolves.toBe(true);
    await expect(repository.markStaleAsUnknown(job.jobId, 0, 0, later)).resolves.toBe(false);
    await expect(repository.markStaleAsUnknown(job.jobId, 0, 1, later)).resolves.toBe(false);
    await expect(repository.markStaleAsUnknown(job.jobId, 0, 2, later)).resolves.toBe(false);

    const claimOf = async (index: number) => {
      const result = await repository.claimRecipient(job.jobId, 0, index, to(index), later);
      return result.claimed ? undefined : result.existing;
    };
    expect(await claimOf(0)).toMatchObject({ status: 'UNKNOWN', failureReasonCode: 'UNKNOWN_OUTCOME: interrupted attempt', updatedAt: later.toISOString() });
    expect(await claimOf(1)).toMatchObject({ status: 'SENT', messageId: 'wamid.1' });
    // Index 2 was never claimed: the failed condition must not have created it.
    await expect(repository.claimRecipient(job.jobId, 0, 2, to(2), later)).resolves.toEqual({ claimed: true });
  });

  it('adds live progress per reason and reports only reasons with a count', async () => {
    const job = newJob([10, 10]);
    await repository.createJob(job, [10, 10]);
    await repository.addChunkProgress(job.jobId, 1, { sent: 3, failed: 2, unknown: 1, failuresByReason: { INVALID_PHONE_NUMBER: 1, '130429': 1 } });
    await repository.addChunkProgress(job.jobId, 1, { sent: 1, failed: 1, unknown: 0, failuresByReason: { INVALID_PHONE_NUMBER: 1 } });
    await repository.addChunkProgress(job.jobId, 1, { sent: 0, failed: 0, unknown: 0, failuresByReason: { '131000': 0 } });
    const progress = await chunkProgressOf(repository, job.jobId);
    expect(progress[0]).toMatchObject({ sent: 0, failuresByReason: {} });
    expect(progress[1]).toMatchObject({ sent: 4, failed: 3, unknown: 1, failuresByReason: { INVALID_PHONE_NUMBER: 2, '130429': 1 } });
  });

  describe('read side', () => {
    const listedOf = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ index, countryCode: '91', toPhoneNumber: `98${String(index).padStart(8, '0')}` }));

    it('stores the recipients in one small item per chunk and reads them back with the ledger and its delivery facts', async () => {
      const job = newJob([1000, 2]);
      await repository.createJob(job, [1000, 2], [...listedOf(1002).slice(0, 1001), { index: 1001, countryCode: '1\t2', toPhoneNumber: 'x'.repeat(100) }]);
      const stored = await dynamo.documentClient.send(
        new GetCommand({ TableName: dynamo.tableNames.messaging, Key: { pk: `JOB#${job.jobId}`, sk: 'RECIPIENTS#0000' } }),
      );
      // About 14 bytes a recipient deflated to ~4: one write of a few KB for a chunk of 1,000.
      expect(stored.Item?.recipients).toBeUndefined();
      expect(stored.Item?.recipientsDeflated).toBeInstanceOf(Uint8Array);
      expect((stored.Item?.recipientsDeflated as Uint8Array).byteLength).toBeLessThan(6_000);

      await repository.recordOutcomes(job.jobId, 0, [outcome(0, 'SENT'), outcome(1, 'FAILED', { failureReasonCode: 'INVALID_PHONE_NUMBER' })]);
      await dynamo.documentClient.send(
        new UpdateCommand({
          TableName: dynamo.tableNames.messaging,
          Key: { pk: `LEDGER#${job.jobId}#0`, sk: 'R#00000' },
          UpdateExpression: 'SET deliveredAt = :at',
          ExpressionAttributeValues: { ':at': '2026-03-01T09:01:00.000Z' },
        }),
      );
      const first = await repository.readChunkRecipients(job.jobId, 0);
      expect(first.listed).toHaveLength(1000);
      expect(first.listed![999]).toEqual({ index: 999, countryCode: '91', toPhoneNumber: '9800000999' });
      expect(first.ledger.map(({ entry, facts }) => [entry.index, entry.status, facts])).toEqual([
        [0, 'SENT', { deliveredAt: '2026-03-01T09:01:00.000Z' }],
        [1, 'FAILED', {}],
      ]);
      const second = await repository.readChunkRecipients(job.jobId, 1);
      // An unvalidated value of the earlier operations is kept on one line and cut, so no request can outgrow the item.
      expect(second.listed).toEqual([
        { index: 1000, countryCode: '91', toPhoneNumber: '9800001000' },
        { index: 1001, countryCode: '1 2', toPhoneNumber: 'x'.repeat(32) },
      ]);
      expect((await repository.readChunkRecipients('pub_never', 0)).listed).toBeUndefined();
    });

    it('reads a recipient list stored as text (before lists were deflated) as it reads a deflated one', async () => {
      const job = newJob([3]);
      await repository.createJob(job, [3]);
      await dynamo.documentClient.send(
        new PutCommand({
          TableName: dynamo.tableNames.messaging,
          Item: { pk: `JOB#${job.jobId}`, sk: 'RECIPIENTS#0000', firstIndex: 0, recipients: '91\t9800000000\n91\t9800000001\n44\t7700900123' },
        }),
      );
      expect((await repository.readChunkRecipients(job.jobId, 0)).listed).toEqual([
        ...listedOf(2),
        { index: 2, countryCode: '44', toPhoneNumber: '7700900123' },
      ]);
    });

    it('reads chunks and tally codes in one progress read; discarding the job deletes its recipients and tallies too', async () => {
      const job = newJob([60]);
      await repository.createJob(job, [60], listedOf(60));
      for (const [bucket, codes] of [
        [0, { r00000: '3D', r00049: '1S' }],
        [1, { r00050: '2F:131049' }],
      ] as const) {
        await dynamo.documentClient.send(
          new PutCommand({ TableName: dynamo.tableNames.messaging, Item: { pk: `JOB#${job.jobId}`, sk: `TALLY#000${bucket}`, ...codes } }),
        );
      }
      const progress = await repository.getJobProgress(job.jobId);
      expect(progress.chunks).toEqual([expect.objectContaining({ chunkIndex: 0, recipientCount: 60 })]);
      expect(progress.tally.sort((a, b) => a[0] - b[0])).toEqual([
        [0, '3D'],
        [49, '1S'],
        [50, '2F:131049'],
      ]);

      await repository.discardJob(job.jobId);
      const left = await dynamo.documentClient.send(
        new QueryCommand({
          TableName: dynamo.tableNames.messaging,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': `JOB#${job.jobId}` },
          ConsistentRead: true,
        }),
      );
      expect(left.Items).toEqual([]);
    });
  });
});
