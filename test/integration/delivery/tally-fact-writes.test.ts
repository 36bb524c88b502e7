/**
 * The event path's writes on a real table (dynalite): one read and at most one write per tally item
 * per batch, none for events that add nothing, a failed item write mended by applying the batch
 * again, the size of a full item, and facts older versions kept on the ledger entry still read.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbLedgerDeliveryStore } from '../../../shared/adapters/dynamodb/dynamodb-ledger-delivery-store';
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

/** Every recipient's tally code as the summary reads it (the outcome's or its facts', the higher). */
const tallyOf = async (jobId: string): Promise<Record<string, string>> =>
  Object.fromEntries((await repository.getJobProgress(jobId)).tally.map(([index, code]) => [messagingKeys.tallyAttribute(index), code]));
/** A recipient's facts as the recipients list reads them. */
const factsOf = async (jobId: string, index: number) =>
  (await repository.readChunkRecipients(jobId, 0)).ledger.find(({ entry }) => entry.index === index)?.facts;
const apply = (jobId: string, index: number, applied: StatusEvent) =>
  store.applyEvents(jobId, [{ location: { jobId, chunkIndex: 0, index }, event: applied }]).then(([result]) => result);

describe('one write per tally item per batch', () => {
  /** The store over a client that counts commands by name and fails the n-th UpdateItem once when asked. */
  function countingStore(failUpdate?: number) {
    const counts: Record<string, number> = {};
    let updates = 0;
    const client = new Proxy(dynamo.documentClient, {
      get(target, property, receiver) {
        if (property !== 'send') return Reflect.get(target, property, receiver);
        return async (command: { constructor: { name: string } }) => {
          const name = command.constructor.name;
          counts[name] = (counts[name] ?? 0) + 1;
          if (name === 'UpdateCommand' && (updates += 1) === failUpdate) throw Object.assign(new Error('injected timeout'), { name: 'TimeoutError' });
          return target.send(command as never);
        };
      },
    });
    return { store: new DynamoDbLedgerDeliveryStore(client, dynamo.tableNames.messaging), counts };
  }
  const located = (jobId: string, events: StatusEvent[], index: (position: number) => number) =>
    events.map((applied, position) => ({ location: { jobId, chunkIndex: 0, index: index(position) }, event: applied }));
  const marketing = { category: 'marketing', type: 'regular', billable: true, pricingModel: 'PMP' };

  it('reads the batch’s tally items once, writes each item that gains anything once, and a batch of duplicates writes nothing', async () => {
    const jobId = await newJob(100);
    const events = Array.from({ length: 100 }, (_, index) => event(index, 'sent', 1, { pricing: marketing }));
    const { store: counted, counts } = countingStore();
    const results = await counted.applyEvents(
      jobId,
      located(jobId, events, (position) => position),
    );
    expect(results.every((result) => result === 'applied')).toBe(true);
    expect(counts).toEqual({ BatchGetCommand: 1, UpdateCommand: 2 });

    const again = countingStore();
    await expect(
      again.store.applyEvents(
        jobId,
        located(jobId, events, (position) => position),
      ),
    ).resolves.toEqual(events.map(() => 'unchanged'));
    expect(again.counts).toEqual({ BatchGetCommand: 1 });
    const { summary } = summarizeJob((await repository.getJob(jobId))!, (await repository.getJobProgress(jobId)).chunks, {
      codes: (await repository.getJobProgress(jobId)).tally,
      now,
      unconfirmedAfterMs: 3600_000,
    });
    expect(summary.pricing).toEqual({ billable: 100, byCategory: { marketing: 100 } });
  });

  it('a failed item write fails the call; applying the batch again completes it without counting anyone twice', async () => {
    const jobId = await newJob(100);
    const events = [0, 1, 2].flatMap((stage) =>
      Array.from({ length: 100 }, (_, index) => event(index, (['sent', 'delivered', 'read'] as const)[stage]!, stage)),
    );
    const failing = countingStore(2);
    await expect(
      failing.store.applyEvents(
        jobId,
        located(jobId, events, (position) => position % 100),
      ),
    ).rejects.toThrow('injected timeout');
    // The other item was written: half the recipients read, the rest not counted at all yet.
    expect(Object.keys(await tallyOf(jobId))).toHaveLength(50);
    await store.applyEvents(
      jobId,
      located(jobId, events, (position) => position % 100),
    );
    const codes = Object.values(await tallyOf(jobId));
    expect(codes).toHaveLength(100);
    expect(new Set(codes)).toEqual(new Set([tallyCodes.read]));
  });

  it('keeps a full item of 50 recipients (three stages, two priced, outcome codes) under 2.4 KB', async () => {
    const jobId = await newJob(50);
    const indexes = Array.from({ length: 50 }, (_, index) => index);
    for (const index of indexes) await repository.claimRecipient(jobId, 0, index, to(index), now);
    await repository.recordOutcomes(
      jobId,
      0,
      indexes.map((index) => outcome(index, 'SENT')),
    );
    const events = [
      ...indexes.map((index) => event(index, 'sent', 100_000 + index, { pricing: marketing })),
      ...indexes.map((index) => event(index, 'delivered', 100_050 + index, { pricing: marketing })),
      ...indexes.map((index) => event(index, 'read', 100_100 + index)),
    ];
    await store.applyEvents(
      jobId,
      located(jobId, events, (position) => position % 50),
    );
    const item = (
      await dynamo.documentClient.send(new GetCommand({ TableName: dynamo.tableNames.messaging, Key: messagingKeys.tally(jobId, 0), ConsistentRead: true }))
    ).Item!;
    expect(itemBytes(item)).toBeLessThan(2_400);
  });
});

describe('facts of earlier versions on the ledger entry', () => {
  it('are still read, merged with the tally’s: the earliest time of each stage wins', async () => {
    const jobId = await newJob(1);
    await repository.claimRecipient(jobId, 0, 0, to(0), now);
    await repository.recordOutcomes(jobId, 0, [outcome(0, 'SENT')]);
    // The shape the old event path wrote: ISO times (and pricing maps) on the entry itself.
    await dynamo.documentClient.send(
      new UpdateCommand({
        TableName: dynamo.tableNames.messaging,
        Key: messagingKeys.ledger(jobId, 0, 0),
        UpdateExpression: 'SET sentAt = :sent, deliveredAt = :delivered, sentPricing = :pricing',
        ExpressionAttributeValues: {
          ':sent': at(1).toISOString(),
          ':delivered': at(9).toISOString(),
          ':pricing': { category: 'utility', type: 'regular', billable: true, pricingModel: 'PMP' },
        },
      }),
    );
    await apply(jobId, 0, event(0, 'sent', 3));
    await apply(jobId, 0, event(0, 'delivered', 5));
    await apply(jobId, 0, event(0, 'read', 7));
    expect(await factsOf(jobId, 0)).toEqual({
      sentAt: at(1).toISOString(),
      sentPricing: { category: 'utility', type: 'regular', billable: true, pricingModel: 'PMP' },
      deliveredAt: at(5).toISOString(),
      readAt: at(7).toISOString(),
    });
  });
});

/** DynamoDB's item size: attribute names plus values (strings as UTF-8, numbers ~1 byte per 2 digits + 1, sets their members). */
function itemBytes(item: Record<string, unknown>): number {
  const valueBytes = (value: unknown): number => {
    if (typeof value === 'string') return Buffer.byteLength(value);
    if (typeof value === 'number')
      return (
        Math.ceil(
          String(Math.abs(value))
            .replace('.', '')
            .replace(/^0+|0+$/g, '').length / 2,
        ) + 1
      );
    if (typeof value === 'boolean') return 1;
    if (value instanceof Set) return [...value].reduce((total: number, member) => total + valueBytes(member), 0);
    if (value && typeof value === 'object')
      return 3 + Object.entries(value).reduce((total, [name, inner]) => total + Buffer.byteLength(name) + valueBytes(inner) + 1, 0);
    return 1;
  };
  return Object.entries(item).reduce((total, [name, value]) => total + Buffer.byteLength(name) + valueBytes(value), 0);
}
