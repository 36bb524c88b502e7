/**
 * The ledger in pages on dynalite (shared/adapters/dynamodb/ledger-page-items.ts, ledger-pages.ts):
 * a group claim is one conditional write per page, recognised as ours after an SDK retry of an
 * applied write, skips recipients someone holds, and honours entries written before the pages; a
 * flush of outcomes writes the pages it holds whole in BatchWriteItem calls (items left unprocessed
 * offered again on the store-retry policy's pauses) and the others by an UpdateItem of their entries.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  chunkProgressAdapter,
  dynamoDbBroadcastStores,
  jobStoreAdapter,
  recipientLedgerAdapter,
} from '../../../shared/adapters/dynamodb/dynamodb-broadcast-stores';
import { DynamoDbRecipientLedger } from '../../../shared/adapters/dynamodb/dynamodb-recipient-ledger';
import { decodeLedgerPage, ledgerPageKey, LEDGER_PAGE_SIZE } from '../../../shared/adapters/dynamodb/ledger-page-items';
import { claimItem } from '../../../shared/adapters/dynamodb/messaging-ledger-items';
import { messagingKeys } from '../../../shared/adapters/dynamodb/messaging-table';
import type { ChunkProgressStore, JobStore, LedgerEntry, RecipientLedger } from '../../../shared/broadcast/ports';
import { freshJobId, job, later, now, outcome } from '../../support/contracts/broadcast-contract-fixtures';
import { chunkProgressOf } from '../../support/chunk-progress';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';
import { clientLosingAppliedWrites } from '../../support/lost-write-client';
import { countingClient } from '../../support/unprocessed-batch-client';
import { StoreUnavailableError } from '../../../shared/ports/errors';

let dynamo: TestDynamo;
let repository: JobStore & RecipientLedger & ChunkProgressStore;

beforeAll(async () => {
  dynamo = await startTestDynamo();
  repository = dynamoDbBroadcastStores(dynamo.documentClient, dynamo.tableNames.messaging, [jobStoreAdapter, recipientLedgerAdapter, chunkProgressAdapter]);
}, 20_000);

afterAll(async () => {
  await dynamo?.stop();
});

const to = (index: number) => `9198000000${index}`;
const claims = (indexes: number[]) => indexes.map((index) => ({ index, to: to(index) }));
const newJob = async (recipients: number): Promise<string> => {
  const jobId = freshJobId();
  await repository.createJob(job(jobId, recipients, 1000), [recipients]);
  return jobId;
};
const pageEntries = async (jobId: string, index: number) => {
  const page = await dynamo.documentClient.send(
    new GetCommand({ TableName: dynamo.tableNames.messaging, Key: ledgerPageKey(jobId, 0, index), ConsistentRead: true }),
  );
  return (page.Item ? decodeLedgerPage(page.Item) : []).sort((a, b) => a.entry.index - b.entry.index);
};

describe('ledger pages', () => {
  it('a group claim whose applied write timed out is recognised as ours on the SDK retry: every recipient claimed, once', async () => {
    const jobId = await newJob(6);
    const { documentClient, faults, client } = clientLosingAppliedWrites(dynamo.endpoint);
    const ledger = new DynamoDbRecipientLedger(documentClient, dynamo.tableNames.messaging);
    expect(await ledger.claimRecipients(jobId, 0, claims([0, 1, 2, 3]), now)).toEqual(Array(4).fill({ claimed: true }));
    // One write for the group (one page), lost once and retried: the retry's refusal read back as ours.
    expect(faults).toEqual({ lost: 1, attempts: 2 });
    const stored = await pageEntries(jobId, 0);
    expect(stored.map(({ entry }) => [entry.index, entry.status])).toEqual([
      [0, 'SENDING'],
      [1, 'SENDING'],
      [2, 'SENDING'],
      [3, 'SENDING'],
    ]);
    expect(new Set(stored.map(({ token }) => token)).size).toBe(1);
    // Another claimer of the same recipients gets them as someone's.
    expect(await repository.claimRecipients(jobId, 0, claims([2, 3]), later)).toEqual([
      { claimed: false, existing: expect.objectContaining({ index: 2, status: 'SENDING' }) },
      { claimed: false, existing: expect.objectContaining({ index: 3, status: 'SENDING' }) },
    ]);
    client.destroy();
  });

  it('a group where some recipients are already someone’s claims the free ones and returns the others’ entries', async () => {
    const jobId = await newJob(6);
    await repository.claimRecipient(jobId, 0, 1, to(1), now);
    await repository.claimRecipient(jobId, 0, 3, to(3), now, 'CANCELLED');
    const { documentClient, faults, client } = clientLosingAppliedWrites(dynamo.endpoint);
    const ledger = new DynamoDbRecipientLedger(documentClient, dynamo.tableNames.messaging);
    const results = await ledger.claimRecipients(jobId, 0, claims([0, 1, 2, 3, 4]), later);
    expect(results).toEqual([
      { claimed: true },
      { claimed: false, existing: { index: 1, to: to(1), status: 'SENDING', attempts: 0, updatedAt: now.toISOString() } },
      { claimed: true },
      { claimed: false, existing: { index: 3, to: to(3), status: 'CANCELLED', attempts: 0, updatedAt: now.toISOString() } },
      { claimed: true },
    ]);
    // The first write was refused (1 and 3 held), the second claimed 0, 2, 4 (lost once, its retry refused and read back).
    expect(faults.lost).toBe(1);
    const stored = new Map((await pageEntries(jobId, 0)).map(({ entry }) => [entry.index, entry]));
    expect(stored.get(1)?.updatedAt).toBe(now.toISOString());
    expect([0, 2, 4].map((index) => stored.get(index)?.updatedAt)).toEqual(Array(3).fill(later.toISOString()));
    client.destroy();
  });

  it('a group across two pages writes each page once; outcomes per page keep every field; release and UNKNOWN act on one entry', async () => {
    const jobId = await newJob(LEDGER_PAGE_SIZE * 2);
    const indexes = Array.from({ length: LEDGER_PAGE_SIZE + 2 }, (_, position) => position + 2);
    expect((await repository.claimRecipients(jobId, 0, claims(indexes), now)).every((result) => result.claimed)).toBe(true);
    const sent = outcome(2, 'SENT', { messageId: `wamid.${jobId}.2`, sentVia: 'marketing_messages', held: true });
    const failed = outcome(3, 'FAILED', { failureReasonCode: 'UNKNOWN_OUTCOME: a | in the reason', attempts: 3 });
    await repository.recordOutcomes(jobId, 0, [sent, failed]);
    expect(await repository.releaseClaim(jobId, 0, 4)).toBe(true);
    expect(await repository.releaseClaim(jobId, 0, 2)).toBe(false);
    expect(await repository.markStaleAsUnknown(jobId, 0, 5, later)).toBe(true);
    expect(await repository.markStaleAsUnknown(jobId, 0, 5, later)).toBe(false);
    const { ledger } = await repository.readChunkRecipients(jobId, 0);
    const entries = new Map(ledger.map(({ entry }) => [entry.index, entry]));
    expect(entries.get(2)).toEqual(sent);
    expect(entries.get(3)).toEqual(failed);
    expect(entries.has(4)).toBe(false);
    expect(entries.get(5)).toEqual({
      index: 5,
      to: to(5),
      status: 'UNKNOWN',
      failureReasonCode: 'UNKNOWN_OUTCOME: interrupted attempt',
      attempts: 0,
      updatedAt: later.toISOString(),
    });
    expect(entries.size).toBe(indexes.length - 1);
    await expect(repository.findByMessageId(`wamid.${jobId}.2`)).resolves.toEqual({ jobId, chunkIndex: 0, entry: sent });
  });

  it('honours and reads an entry written before the pages: claims skip it, stale resolution, reconcile and lists see it', async () => {
    const jobId = await newJob(3);
    // The previous version's claim of recipient 1 (one item per recipient), its worker since crashed.
    await dynamo.documentClient.send(new PutCommand({ TableName: dynamo.tableNames.messaging, Item: claimItem(jobId, 0, 1, to(1), now, 'older-token') }));
    const results = await repository.claimRecipients(jobId, 0, claims([0, 1, 2]), later);
    expect(results[1]).toEqual({ claimed: false, existing: expect.objectContaining({ index: 1, status: 'SENDING' }) });
    expect([results[0], results[2]]).toEqual([{ claimed: true }, { claimed: true }]);
    expect(await repository.markStaleAsUnknown(jobId, 0, 1, later)).toBe(true);
    const older = await dynamo.documentClient.send(
      new GetCommand({ TableName: dynamo.tableNames.messaging, Key: messagingKeys.ledger(jobId, 0, 1), ConsistentRead: true }),
    );
    expect(older.Item).toMatchObject({ status: 'UNKNOWN' });
    await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT', { messageId: `wamid.${jobId}.0` }), outcome(2, 'FAILED', { failureReasonCode: '131026' })]);
    const statuses = (await repository.readChunkRecipients(jobId, 0)).ledger.map(({ entry }: { entry: LedgerEntry }) => [entry.index, entry.status]);
    expect(statuses).toEqual([
      [0, 'SENT'],
      [1, 'UNKNOWN'],
      [2, 'FAILED'],
    ]);
    await expect(repository.reconcileChunk(jobId, 0, later)).resolves.toEqual({ done: true });
    expect((await chunkProgressOf(repository, jobId))[0]).toMatchObject({ sent: 1, failed: 1, unknown: 1, done: true });
  });

  it('a flush writes the pages it holds whole in one BatchWriteItem after the message id records, a page held in part by one UpdateItem; another claimer’s entry on it stays', async () => {
    const jobId = await newJob(LEDGER_PAGE_SIZE * 3);
    // Someone else's claim of 20 (page 2); ours: 0–19 and 21–23 (pages 0 and 1 whole, page 2 in part).
    await repository.claimRecipient(jobId, 0, 20, to(20), now);
    const ours = Array.from({ length: LEDGER_PAGE_SIZE * 3 }, (_, index) => index).filter((index) => index !== 20);
    expect((await repository.claimRecipients(jobId, 0, claims(ours), now)).every((result) => result.claimed)).toBe(true);
    const outcomes = ours.map((index) => outcome(index, 'SENT', { messageId: `wamid.${jobId}.${index}` }));
    const { documentClient, calls, client } = countingClient(dynamo.endpoint);
    await new DynamoDbRecipientLedger(documentClient, dynamo.tableNames.messaging).recordOutcomes(jobId, 0, outcomes);
    // 23 records (one batch), pages 0 and 1 (one batch); page 2's UpdateItem and the tally item's.
    expect(calls).toEqual({ BatchWriteItemCommand: 2, UpdateItemCommand: 2 });
    const stored = new Map<number, { entry: LedgerEntry; token?: string }>();
    for (const page of [0, 8, 16]) for (const { entry, token } of await pageEntries(jobId, page)) stored.set(entry.index, { entry, token });
    expect(ours.map((index) => stored.get(index))).toEqual(outcomes.map((entry) => ({ entry })));
    expect(stored.get(20)).toEqual({ entry: expect.objectContaining({ index: 20, status: 'SENDING' }), token: expect.any(String) });
    await expect(repository.findByMessageId(`wamid.${jobId}.9`)).resolves.toEqual({ jobId, chunkIndex: 0, entry: outcomes[9] });
    client.destroy();
  });

  it('items a BatchWriteItem leaves unprocessed are offered again; still unprocessed after the policy’s calls: StoreUnavailableError, and the call again writes them', async () => {
    const jobId = await newJob(LEDGER_PAGE_SIZE * 2);
    const indexes = Array.from({ length: LEDGER_PAGE_SIZE * 2 }, (_, index) => index);
    await repository.claimRecipients(jobId, 0, claims(indexes), now);
    const outcomes = indexes.map((index) => outcome(index, 'SENT', { messageId: `wamid.${jobId}.${index}` }));
    const policy = { maxAttempts: 3, baseDelayMs: 2, maxDelayMs: 4 };
    const throttled = countingClient(dynamo.endpoint, { unprocessedCalls: 1, unprocessedPerCall: 2 });
    await new DynamoDbRecipientLedger(throttled.documentClient, dynamo.tableNames.messaging, policy).recordOutcomes(jobId, 0, outcomes);
    // The records' batch held back two requests (offered again: two calls), then the pages' batch in one.
    expect(throttled.heldBack.requests).toBe(2);
    expect(throttled.calls.BatchWriteItemCommand).toBe(3);
    expect((await pageEntries(jobId, 8)).map(({ entry }) => entry)).toEqual(outcomes.slice(8));
    await expect(repository.findByMessageId(`wamid.${jobId}.15`)).resolves.toMatchObject({ entry: outcomes[15] });
    throttled.client.destroy();

    const next = await newJob(LEDGER_PAGE_SIZE);
    await repository.claimRecipients(next, 0, claims(indexes.slice(0, LEDGER_PAGE_SIZE)), now);
    const nextOutcomes = outcomes.slice(0, LEDGER_PAGE_SIZE).map((entry) => ({ ...entry, messageId: `wamid.${next}.${entry.index}` }));
    const down = countingClient(dynamo.endpoint, { unprocessedCalls: Infinity, unprocessedPerCall: 1 });
    const failing = new DynamoDbRecipientLedger(down.documentClient, dynamo.tableNames.messaging, policy).recordOutcomes(next, 0, nextOutcomes);
    await expect(failing).rejects.toThrow(StoreUnavailableError);
    expect(down.calls.BatchWriteItemCommand).toBe(policy.maxAttempts);
    down.client.destroy();
    // The store retry calls recordOutcomes again: every write is a Put or a SET of the same values.
    await repository.recordOutcomes(next, 0, nextOutcomes);
    expect((await pageEntries(next, 0)).map(({ entry }) => entry)).toEqual(nextOutcomes);
  });
});
