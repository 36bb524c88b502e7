/**
 * Meta's facts in the tally items on a real table (dynalite): events and the worker's outcome writes
 * never overwrite each other, whatever their order, every recipient counts exactly once, one write
 * per tally item per batch and none for events that add nothing.
 */
import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { claimItem } from '../../../shared/adapters/dynamodb/messaging-ledger-items';
import { decodeLedgerPage, encodePageEntry, ledgerPageKey, pageEntriesUpdate } from '../../../shared/adapters/dynamodb/ledger-page-items';
import { messagingKeys } from '../../../shared/adapters/dynamodb/messaging-table';
import { summarizeJob } from '../../../shared/broadcast/broadcast-job';
import type { StatusEvent } from '../../../shared/delivery/ports';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { useDeliveryStores, newJob as newJobIn, now, at, to, outcome, event, type DeliveryStores } from '../../support/delivery-store-kit';
import type { TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;
let repository: DeliveryStores['repository'];
let store: DeliveryStores['store'];

useDeliveryStores((started) => ({ dynamo, repository, store } = started));

const newJob = (recipients: number) => newJobIn(repository, recipients);

const ledgerItem = async (jobId: string, index: number) =>
  (
    await dynamo.documentClient.send(
      new GetCommand({ TableName: dynamo.tableNames.messaging, Key: messagingKeys.ledger(jobId, 0, index), ConsistentRead: true }),
    )
  ).Item!;
/** Every recipient's tally code as the summary reads it (the outcome's or its facts', the higher). */
const tallyOf = async (jobId: string): Promise<Record<string, string>> =>
  Object.fromEntries((await repository.getJobProgress(jobId)).tally.map(([index, code]) => [messagingKeys.tallyAttribute(index), code]));
/** A recipient's facts as the recipients list reads them. */
const factsOf = async (jobId: string, index: number) =>
  (await repository.readChunkRecipients(jobId, 0)).ledger.find(({ entry }) => entry.index === index)?.facts;
const apply = (jobId: string, index: number, applied: StatusEvent) =>
  store.applyEvents(jobId, [{ location: { jobId, chunkIndex: 0, index }, event: applied }]).then(([result]) => result);
const pageItem = async (jobId: string, index: number) =>
  (await dynamo.documentClient.send(new GetCommand({ TableName: dynamo.tableNames.messaging, Key: ledgerPageKey(jobId, 0, index), ConsistentRead: true })))
    .Item!;

describe('DynamoDbLedgerDeliveryStore', () => {
  it('answers the job’s owner and locates a recorded message id', async () => {
    const jobId = await newJob(2);
    await repository.claimRecipient(jobId, 0, 1, to(1), now);
    await repository.recordOutcomes(jobId, 0, [outcome(1, 'SENT')]);
    await expect(store.jobOwner(jobId)).resolves.toEqual({ organizationId: 'org_1', phoneNumberId: 'pn_1', recipientCount: 2 });
    await expect(store.jobOwner('pub_none')).resolves.toBeUndefined();
    await expect(store.locateMessage('wamid.1')).resolves.toEqual({ jobId, chunkIndex: 0, index: 1 });
    await expect(store.locateMessage('wamid.nobody')).resolves.toBeUndefined();
  });

  it('keeps the first timestamp of each stage and the highest tally code, in any order and however often', async () => {
    const jobId = await newJob(3);
    for (const index of [0, 1]) await repository.claimRecipient(jobId, 0, index, to(index), now);
    await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT'), outcome(1, 'SENT')]);

    // A later copy of a known stage adds nothing (the earliest time is the fact): unchanged, nothing written.
    const expected = [
      [event(0, 'read', 30), 'applied'],
      [event(0, 'delivered', 20), 'applied'],
      [event(0, 'sent', 10), 'applied'],
      [event(0, 'delivered', 25), 'unchanged'],
      [event(0, 'read', 31), 'unchanged'],
      [event(0, 'read', 30), 'unchanged'],
    ] as const;
    for (const [applied, result] of expected) await expect(apply(jobId, 0, applied)).resolves.toBe(result);
    await apply(jobId, 1, event(1, 'delivered', 5));
    await apply(jobId, 1, event(1, 'failed', 6, { error: { code: 131026, title: 'Message undeliverable: a title: with colons' } }));

    expect(await factsOf(jobId, 0)).toEqual({ sentAt: at(10).toISOString(), deliveredAt: at(20).toISOString(), readAt: at(30).toISOString() });
    expect(await factsOf(jobId, 1)).toEqual({
      deliveredAt: at(5).toISOString(),
      failedAt: at(6).toISOString(),
      metaErrorCode: 131026,
      metaErrorTitle: 'Message undeliverable: a title: with colons',
    });
    expect(await tallyOf(jobId)).toEqual({ r00000: tallyCodes.read, r00001: tallyCodes.delivered });
  });

  it('tells a `read` added after a known delivery (the delivery keeps the touch), in the same call too', async () => {
    const jobId = await newJob(3);
    await expect(apply(jobId, 0, event(0, 'delivered', 20))).resolves.toBe('applied');
    await expect(apply(jobId, 0, event(0, 'read', 30))).resolves.toBe('applied-after-delivery');
    const together = [event(1, 'delivered', 20), event(1, 'read', 30)].map((applied) => ({ location: { jobId, chunkIndex: 0, index: 1 }, event: applied }));
    await expect(store.applyEvents(jobId, together)).resolves.toEqual(['applied', 'applied-after-delivery']);
    // Meta skipped `delivered`: the read is the touch.
    await expect(apply(jobId, 2, event(2, 'read', 30))).resolves.toBe('applied');
  });

  it('never creates a ledger entry: an event for a recipient not claimed yet keeps its facts in the tally only', async () => {
    const jobId = await newJob(3);
    await expect(apply(jobId, 2, event(2, 'delivered', 1))).resolves.toBe('applied');
    expect(await ledgerItem(jobId, 2)).toBeUndefined();
    expect(await tallyOf(jobId)).toEqual({ r00002: tallyCodes.delivered });
  });

  it('an event that arrives before the worker’s outcome survives the outcome write (no clobbering)', async () => {
    const jobId = await newJob(2);
    await repository.claimRecipient(jobId, 0, 0, to(0), now);
    await apply(jobId, 0, event(0, 'delivered', 3));
    await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT')]);

    // The entry on its ledger page, Meta's facts beside it (read as the recipients list reads them).
    const [record] = (await repository.readChunkRecipients(jobId, 0)).ledger;
    expect(record).toEqual({ entry: outcome(0, 'SENT'), facts: { deliveredAt: at(3).toISOString() } });
    expect(decodeLedgerPage(await pageItem(jobId, 0))[0]?.token).toBeUndefined();
    expect(await tallyOf(jobId)).toEqual({ r00000: tallyCodes.delivered });
  });

  it('a message id an event put in the tally before the outcome leaves with the SENT outcome that names it; an UNKNOWN outcome keeps it', async () => {
    const jobId = await newJob(3);
    const tallyItem = async () =>
      (await dynamo.documentClient.send(new GetCommand({ TableName: dynamo.tableNames.messaging, Key: messagingKeys.tally(jobId, 0), ConsistentRead: true })))
        .Item!;
    for (const index of [0, 1, 2]) await repository.claimRecipient(jobId, 0, index, to(index), now);
    for (const index of [0, 1]) await apply(jobId, index, event(index, 'sent', 2));
    expect([...((await tallyItem()).em as Set<string>)].sort()).toEqual(['0:wamid.0', '1:wamid.1']);

    // Recipient 2 has no member: a DELETE of an absent member is harmless.
    await repository.recordOutcomes(jobId, 0, [
      outcome(0, 'SENT'),
      outcome(1, 'UNKNOWN', { failureReasonCode: 'UNKNOWN_OUTCOME: timeout' }),
      outcome(2, 'SENT'),
    ]);
    expect([...((await tallyItem()).em as Set<string>)]).toEqual(['1:wamid.1']);
    const listed = new Map((await repository.readChunkRecipients(jobId, 0)).ledger.map(({ entry }) => [entry.index, entry.messageId]));
    expect([listed.get(0), listed.get(1), listed.get(2)]).toEqual(['wamid.0', 'wamid.1', 'wamid.2']);
    expect(await tallyOf(jobId)).toEqual({ r00000: tallyCodes.sent, r00001: tallyCodes.sent, r00002: tallyCodes.sent });
  });

  it('reconciles an UNKNOWN outcome by callback location: message id and its record written, tally raised', async () => {
    const jobId = await newJob(2);
    await repository.claimRecipient(jobId, 0, 1, to(1), now);
    await repository.recordOutcomes(jobId, 0, [outcome(1, 'UNKNOWN', { failureReasonCode: 'UNKNOWN_OUTCOME: timeout' })]);
    expect(await tallyOf(jobId)).toEqual({ r00001: tallyCodes.unknown(now) });

    await apply(jobId, 1, event(1, 'sent', 2, { messageId: 'wamid.late' }));
    // The list reads it from the tally item (the entry is the worker's to write).
    expect((await repository.readChunkRecipients(jobId, 0)).ledger.find(({ entry }) => entry.index === 1)!.entry.messageId).toBe('wamid.late');
    await expect(store.locateMessage('wamid.late')).resolves.toEqual({ jobId, chunkIndex: 0, index: 1 });
    expect(await tallyOf(jobId)).toEqual({ r00001: tallyCodes.sent });
  });

  it('finds a message id of an entry written before the WAMID records by its gsi1 keys', async () => {
    const jobId = await newJob(3);
    // An entry in the per-recipient shape written before the ledger pages.
    await dynamo.documentClient.send(new PutCommand({ TableName: dynamo.tableNames.messaging, Item: claimItem(jobId, 0, 2, to(2), now, 'older-claim') }));
    await dynamo.documentClient.send(
      new UpdateCommand({
        TableName: dynamo.tableNames.messaging,
        Key: messagingKeys.ledger(jobId, 0, 2),
        UpdateExpression: 'SET #status = :sent, messageId = :id, gsi1pk = :pk, gsi1sk = :sk',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':sent': 'SENT',
          ':id': 'wamid.older',
          ...Object.fromEntries(Object.entries(messagingKeys.messageId('wamid.older')).map(([name, value]) => [`:${name.slice(4)}`, value])),
        },
      }),
    );
    await expect(store.locateMessage('wamid.older')).resolves.toEqual({ jobId, chunkIndex: 0, index: 2 });
    await expect(repository.findByMessageId('wamid.older')).resolves.toMatchObject({
      jobId,
      chunkIndex: 0,
      entry: { status: 'SENT', messageId: 'wamid.older' },
    });
  });

  it('keeps each stage’s pricing in the fact write and counts the recipient once under its latest, in any order', async () => {
    const lite = { category: 'marketing_lite', type: 'regular', billable: true, pricingModel: 'PMP' };
    const marketing = { ...lite, category: 'marketing' };
    const jobId = await newJob(2);
    for (const index of [0, 1]) await repository.claimRecipient(jobId, 0, index, to(index), now);
    await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT'), outcome(1, 'SENT')]);
    // Recipient 0: read (no pricing), then delivered with marketing, then sent with marketing_lite, each twice.
    for (const applied of [event(0, 'read', 30), event(0, 'delivered', 20, { pricing: marketing }), event(0, 'sent', 10, { pricing: lite })]) {
      for (const _ of [1, 2]) await apply(jobId, 0, applied);
    }
    // Recipient 1: a priced sent on a SENT entry raises the worker's plain 1S.
    await apply(jobId, 1, event(1, 'sent', 10, { pricing: lite }));
    expect(await factsOf(jobId, 0)).toMatchObject({ sentPricing: lite, deliveredPricing: marketing });
    // The recipient's calling code (91) follows the pricing, from Meta's recipient id (docs/BROADCAST.md "Cost per campaign").
    expect(await tallyOf(jobId)).toEqual({ r00000: '4R~3marketing~1~91', r00001: '1S~1marketing_lite~1~91' });
    // The reconcile's outcome code (1S) never lowers a priced code.
    await repository.reconcileChunk(jobId, 0, now);
    expect((await tallyOf(jobId)).r00001).toBe('1S~1marketing_lite~1~91');
    const { summary } = summarizeJob((await repository.getJob(jobId))!, (await repository.getJobProgress(jobId)).chunks, {
      codes: (await repository.getJobProgress(jobId)).tally,
      now,
      unconfirmedAfterMs: 3600_000,
    });
    expect(summary.pricing).toEqual({ billable: 2, byCategory: { marketing: 1, marketing_lite: 1 } });
  });

  it('a held send (SENT + held) counts 1H until Meta’s sent raises it; the reconcile keeps 1H', async () => {
    const jobId = await newJob(2);
    for (const index of [0, 1]) await repository.claimRecipient(jobId, 0, index, to(index), now);
    await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT', { held: true }), outcome(1, 'SENT', { held: true })]);
    expect((await repository.readChunkRecipients(jobId, 0)).ledger[0]?.entry).toMatchObject({ status: 'SENT', held: true });
    expect(await tallyOf(jobId)).toEqual({ r00000: tallyCodes.held, r00001: tallyCodes.held });
    await repository.reconcileChunk(jobId, 0, now);
    expect(await tallyOf(jobId)).toEqual({ r00000: tallyCodes.held, r00001: tallyCodes.held });
    await apply(jobId, 0, event(0, 'sent', 10));
    await apply(jobId, 1, event(1, 'failed', 11, { error: { code: 132015, title: 'Template paused' } }));
    expect(await tallyOf(jobId)).toEqual({ r00000: tallyCodes.sent, r00001: tallyCodes.failedByWebhook(132015) });
  });

  it('a crash between an outcome and its code: the sent fact already counts the recipient, the reconcile writes the outcome code', async () => {
    const jobId = await newJob(1);
    await repository.claimRecipient(jobId, 0, 0, to(0), now);
    // The worker wrote the outcome and crashed before its tally code.
    await dynamo.documentClient.send(
      new UpdateCommand({
        TableName: dynamo.tableNames.messaging,
        Key: ledgerPageKey(jobId, 0, 0),
        ...pageEntriesUpdate(new Map([[0, encodePageEntry(outcome(0, 'SENT'))]]), 1, false),
      }),
    );
    await apply(jobId, 0, event(0, 'sent', 2));
    expect(await tallyOf(jobId)).toEqual({ r00000: tallyCodes.sent });
    await repository.reconcileChunk(jobId, 0, now);
    expect(await tallyOf(jobId)).toEqual({ r00000: tallyCodes.sent });
    await apply(jobId, 0, event(0, 'read', 4));
    expect(await tallyOf(jobId)).toEqual({ r00000: tallyCodes.read });
  });

  it('writes tally codes for outcomes, stale claims and synchronous failures, never over an event’s code', async () => {
    const jobId = await newJob(120);
    for (const index of [0, 1, 2, 60, 119]) await repository.claimRecipient(jobId, 0, index, to(index), now);
    await apply(jobId, 0, event(0, 'read', 1));
    await repository.recordOutcomes(jobId, 0, [
      outcome(0, 'SENT'),
      outcome(1, 'FAILED', { failureReasonCode: 'INVALID_PHONE_NUMBER' }),
      outcome(60, 'SENT'),
      outcome(119, 'FAILED'),
    ]);
    await expect(repository.markStaleAsUnknown(jobId, 0, 2, now)).resolves.toBe(true);
    // A failed event cannot lower a synchronous failure's code either.
    await apply(jobId, 1, event(1, 'delivered', 1));

    expect(await tallyOf(jobId)).toEqual({
      r00000: tallyCodes.read,
      r00001: tallyCodes.failedOnSend('INVALID_PHONE_NUMBER'),
      r00002: tallyCodes.unknown(now),
      r00060: tallyCodes.sent,
      r00119: tallyCodes.failedOnSend('TEMPLATE_SEND_FAILED'),
    });
  });

  it('reconcile writes the codes a crash left unwritten (outcome stored, tally not)', async () => {
    const jobId = await newJob(2);
    for (const index of [0, 1]) await repository.claimRecipient(jobId, 0, index, to(index), now);
    await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT'), outcome(1, 'FAILED', { failureReasonCode: '131049' })]);
    // The crash: tally items lost (as if their write never happened).
    await dynamo.documentClient.send(
      new (await import('@aws-sdk/lib-dynamodb')).DeleteCommand({ TableName: dynamo.tableNames.messaging, Key: messagingKeys.tally(jobId, 0) }),
    );
    await expect(repository.reconcileChunk(jobId, 0, now)).resolves.toEqual({ done: true });
    expect(await tallyOf(jobId)).toEqual({ r00000: tallyCodes.sent, r00001: tallyCodes.failedOnSend('131049') });
  });
});
