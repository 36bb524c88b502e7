/**
 * The ledger repair on dynalite (shared/broadcast/ledger-repair.ts, shared/adapters/dynamodb/
 * dynamodb-ledger-page-repair.ts): a chunk whose page holds an entry in the broken plain form of
 * issue 35 (an earlier send-bulk's refused recipient with an empty `to`) cannot be read; the repair
 * rewrites the entry under the refused recipient's safe key, settles the chunk as a chunk given up is
 * (never-claimed recipients FAILED WORKER_ERROR, a crashed claim UNKNOWN), the job reaches its final
 * state and job.completed goes out. A rerun changes nothing; a value of another form is named, not touched.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamoDbBroadcastStores, everyBroadcastStoreAdapter } from '../../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import { DynamoDbLedgerPageRepair } from '../../../shared/adapters/dynamodb/dynamodb-ledger-page-repair';
import { ledgerPageKey } from '../../../shared/adapters/dynamodb/ledger-page-items';
import { MalformedMessagingItemError } from '../../../shared/adapters/dynamodb/messaging-table';
import { runLedgerRepairAdminCommand } from '../../../shared/broadcast/ledger-repair-admin-commands';
import type { LedgerRepairPorts } from '../../../shared/broadcast/ledger-repair';
import type { JobRecipient } from '../../../shared/broadcast/ports';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { freshJobId, job, later, now, outcome } from '../../support/contracts/broadcast-contract-fixtures';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;
let ports: LedgerRepairPorts;
let published: CustomerEvent[];

beforeAll(async () => {
  dynamo = await startTestDynamo();
}, 20_000);
beforeEach(() => {
  published = [];
  ports = {
    broadcasts: dynamoDbBroadcastStores(dynamo.documentClient, dynamo.tableNames.messaging, everyBroadcastStoreAdapter),
    clock: { now: () => later },
    events: { publish: async (_organizationId: string, event: CustomerEvent) => void published.push(event) },
    pages: new DynamoDbLedgerPageRepair(dynamo.documentClient, dynamo.tableNames.messaging),
  };
});
afterAll(async () => {
  await dynamo?.stop();
});

const listed = (index: number, countryCode: string, toPhoneNumber: string): JobRecipient => ({ index, countryCode, toPhoneNumber });
/** What the earlier send-bulk wrote for a refused recipient with an empty number before issue 35. */
const brokenValue = `F${now.getTime().toString(36)}|0|||||INVALID_PHONE_NUMBER`;
const setEntry = (jobId: string, index: number, value: string) =>
  dynamo.documentClient.send(
    new UpdateCommand({
      TableName: dynamo.tableNames.messaging,
      Key: ledgerPageKey(jobId, 0, index),
      UpdateExpression: 'SET #e = :v',
      ExpressionAttributeNames: { '#e': `e${index % 8}` },
      ExpressionAttributeValues: { ':v': value },
    }),
  );

/** A job of 4 as the broken accept and a dead-lettered chunk left it: 0 sent, 1 refused (broken), 2 never claimed, 3 claimed by a crashed worker. */
async function stuckJob(): Promise<string> {
  const jobId = freshJobId();
  const { broadcasts } = ports;
  await broadcasts.createJob(
    job(jobId, 4, 1000),
    [4],
    [listed(0, '91', '9800000000'), listed(1, '', ''), listed(2, '91', '09800000002'), listed(3, '91', '9800000003')],
  );
  await broadcasts.markChunkStarted(jobId, 0, now);
  await broadcasts.claimRecipients(
    jobId,
    0,
    [
      { index: 0, to: '919800000000' },
      { index: 3, to: '919800000003' },
    ],
    now,
  );
  await broadcasts.recordOutcomes(jobId, 0, [outcome(0, 'SENT', { to: '919800000000', messageId: `wamid.${jobId}.0` })]);
  await setEntry(jobId, 1, brokenValue);
  return jobId;
}

describe('repair-ledger-pages', () => {
  it('rewrites the broken entry under its safe key and settles the chunk: the job finishes and its ledger reads', async () => {
    const jobId = await stuckJob();
    await expect(ports.broadcasts.readChunkRecipients(jobId, 0)).rejects.toThrow(MalformedMessagingItemError);

    const report = await runLedgerRepairAdminCommand(ports, 'repair-ledger-pages', { job: jobId });
    expect(report).toEqual({
      jobId,
      statusBefore: 'PROCESSING',
      status: 'COMPLETED_WITH_FAILURES',
      chunks: [{ chunkIndex: 0, rewritten: [1], unrepairable: [], settled: 1, unknown: 1, done: true }],
    });
    const { ledger } = await ports.broadcasts.readChunkRecipients(jobId, 0);
    expect(ledger.map(({ entry }) => [entry.index, entry.to, entry.status, entry.failureReasonCode])).toEqual([
      [0, '919800000000', 'SENT', undefined],
      [1, 'invalid:1', 'FAILED', 'INVALID_PHONE_NUMBER'],
      [2, '919800000002', 'FAILED', 'WORKER_ERROR'],
      [3, '919800000003', 'UNKNOWN', 'UNKNOWN_OUTCOME: interrupted attempt'],
    ]);
    // The refused entry keeps its time; the page still holds one attribute per recipient.
    expect(ledger[1]!.entry.updatedAt).toBe(now.toISOString());
    expect(published.map((event) => [event.type, (event.data as { status: string }).status])).toEqual([['job.completed', 'COMPLETED_WITH_FAILURES']]);

    // A rerun finds nothing to do.
    expect(await runLedgerRepairAdminCommand(ports, 'repair-ledger-pages', { job: jobId })).toMatchObject({
      statusBefore: 'COMPLETED_WITH_FAILURES',
      chunks: [{ chunkIndex: 0, rewritten: [], unrepairable: [], settled: 0, done: true }],
    });
  });

  it('names a value of another form and leaves it and its chunk alone; an unknown job or flag is refused', async () => {
    const jobId = await stuckJob();
    await setEntry(jobId, 1, 'not an entry');
    const report = await runLedgerRepairAdminCommand(ports, 'repair-ledger-pages', { job: jobId });
    expect(report).toMatchObject({ statusBefore: 'PROCESSING', status: 'PROCESSING', chunks: [{ rewritten: [], unrepairable: [1], settled: 0, done: false }] });
    const page = await dynamo.documentClient.send(
      new GetCommand({ TableName: dynamo.tableNames.messaging, Key: ledgerPageKey(jobId, 0, 1), ConsistentRead: true }),
    );
    expect(page.Item?.e1).toBe('not an entry');
    await expect(runLedgerRepairAdminCommand(ports, 'repair-ledger-pages', { job: 'pub_none' })).rejects.toThrow('Job pub_none does not exist');
    await expect(runLedgerRepairAdminCommand(ports, 'repair-ledger-pages', { job: jobId, force: 'true' })).rejects.toThrow(
      'Unknown flag(s) for repair-ledger-pages: --force',
    );
  });

  it('settles an unfinished chunk without broken entries only when told to (a rerun after a fault)', async () => {
    const jobId = freshJobId();
    await ports.broadcasts.createJob(job(jobId, 2, 1000), [2], [listed(0, '91', '9800000000'), listed(1, '91', '9800000001')]);
    await ports.broadcasts.markChunkStarted(jobId, 0, now);
    expect(await runLedgerRepairAdminCommand(ports, 'repair-ledger-pages', { job: jobId })).toMatchObject({
      status: 'PROCESSING',
      chunks: [{ settled: 0, done: false }],
    });
    expect(await runLedgerRepairAdminCommand(ports, 'repair-ledger-pages', { job: jobId, 'settle-unfinished': 'true' })).toMatchObject({
      status: 'FAILED',
      chunks: [{ rewritten: [], settled: 2, done: true }],
    });
  });
});
