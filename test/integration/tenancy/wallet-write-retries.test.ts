/**
 * Wallet debits and credits (top-ups, refunds) the table applied but answered with a timeout: the
 * SDK sends them again, and the wallet must still be charged or credited once, with the answer of
 * the write that applied. test/support/lost-write-client.ts loses the answer of every applied
 * conditional write once, below the SDK's retry loop (docs/DATA-MODEL.md "Wallet").
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbBillingStore } from '../../../shared/adapters/dynamodb/dynamodb-billing-store';
import { tenancyKeys } from '../../../shared/adapters/dynamodb/tenancy-table';
import { walletTokenRetentionMs } from '../../../shared/adapters/dynamodb/wallet-write-tokens';
import { InsufficientBalanceError } from '../../../shared/tenancy/errors';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';
import { clientLosingAppliedWrites, type LostWriteClient } from '../../support/lost-write-client';

jest.setTimeout(60_000);

let dynamo: TestDynamo;
let lossy: LostWriteClient;
let counter = 0;
const freshOrganization = () => `org_wallet_${(counter += 1)}`;
const at = '2026-03-01T09:00:00.000Z';

beforeAll(async () => {
  dynamo = await startTestDynamo();
  lossy = clientLosingAppliedWrites(dynamo.endpoint);
}, 20_000);

afterAll(async () => {
  lossy?.client.destroy();
  await dynamo?.stop();
});

const storedItem = async (organizationId: string) =>
  (await dynamo.documentClient.send(new GetCommand({ TableName: dynamo.tableNames.tenancy, Key: tenancyKeys.wallet(organizationId), ConsistentRead: true })))
    .Item!;
const tokensOf = (item: Record<string, unknown>) => Object.keys(item).filter((name) => name.startsWith('walletWrite_'));
/** A store on the lossy client, and the loss count of its calls only. */
const lossyStore = () => {
  const before = { ...lossy.faults };
  return {
    store: new DynamoDbBillingStore(lossy.documentClient, dynamo.tableNames.tenancy),
    lost: () => lossy.faults.lost - before.lost,
  };
};
/** Tops up through a reliable client, so only the write under test loses its answer. */
const fund = (organizationId: string, amountMicros: number) =>
  new DynamoDbBillingStore(dynamo.documentClient, dynamo.tableNames.tenancy).creditWallet(organizationId, amountMicros, at);

describe('a debit whose answer was lost', () => {
  it('control: the untokened debit of before is charged twice by the SDK retry', async () => {
    const organizationId = freshOrganization();
    await fund(organizationId, 10_000);
    const { lost } = lossyStore();
    // The update debitWallet sent before wallet writes carried tokens.
    await lossy.documentClient
      .send(
        new UpdateCommand({
          TableName: dynamo.tableNames.tenancy,
          Key: tenancyKeys.wallet(organizationId),
          UpdateExpression: 'SET balanceMicros = balanceMicros - :amount, updatedAt = :at',
          ConditionExpression: 'balanceMicros >= :amount',
          ExpressionAttributeValues: { ':amount': 1_000, ':at': at },
        }),
      )
      .catch(() => undefined);
    expect(lost()).toBeGreaterThanOrEqual(1);
    expect((await storedItem(organizationId)).balanceMicros).toBeLessThanOrEqual(8_000);
  });

  it('is charged once and answers the balance it left', async () => {
    const organizationId = freshOrganization();
    await fund(organizationId, 10_000);
    const { store, lost } = lossyStore();
    await expect(store.debitWallet(organizationId, 1_000, at)).resolves.toEqual({ organizationId, balanceMicros: 9_000, currency: 'USD', updatedAt: at });
    expect(lost()).toBe(1);
    expect((await storedItem(organizationId)).balanceMicros).toBe(9_000);
    await expect(store.getWallet(organizationId)).resolves.toEqual({ organizationId, balanceMicros: 9_000, currency: 'USD', updatedAt: at });
  });

  it('of the whole balance is the debit, not an insufficient balance', async () => {
    const organizationId = freshOrganization();
    await fund(organizationId, 2_500);
    const { store, lost } = lossyStore();
    await expect(store.debitWallet(organizationId, 2_500, at)).resolves.toMatchObject({ balanceMicros: 0 });
    expect(lost()).toBe(1);
    expect((await storedItem(organizationId)).balanceMicros).toBe(0);
  });

  it('an insufficient balance is still refused, and nothing is taken', async () => {
    const organizationId = freshOrganization();
    await fund(organizationId, 500);
    const { store, lost } = lossyStore();
    await expect(store.debitWallet(organizationId, 501, at)).rejects.toBeInstanceOf(InsufficientBalanceError);
    await expect(store.debitWallet(freshOrganization(), 1, at)).rejects.toBeInstanceOf(InsufficientBalanceError);
    expect(lost()).toBe(0);
    expect((await storedItem(organizationId)).balanceMicros).toBe(500);
  });

  it('under concurrency: with N prices in the wallet, exactly N of 2N debits succeed, each with its own balance', async () => {
    const organizationId = freshOrganization();
    const N = 6;
    await fund(organizationId, N * 1_000);
    const { store, lost } = lossyStore();
    const results = await Promise.allSettled(Array.from({ length: 2 * N }, () => store.debitWallet(organizationId, 1_000, at)));
    const charged = results
      .filter((result) => result.status === 'fulfilled')
      .map((result) => (result as PromiseFulfilledResult<{ balanceMicros: number }>).value.balanceMicros);
    expect(charged.sort((a, b) => a - b)).toEqual(Array.from({ length: N }, (_, index) => index * 1_000));
    for (const result of results.filter((each) => each.status === 'rejected'))
      expect((result as PromiseRejectedResult).reason).toBeInstanceOf(InsufficientBalanceError);
    expect(lost()).toBe(N);
    expect((await storedItem(organizationId)).balanceMicros).toBe(0);
  });
});

describe('a credit (top-up or refund) whose answer was lost', () => {
  it('creates the wallet once', async () => {
    const organizationId = freshOrganization();
    const { store, lost } = lossyStore();
    await expect(store.creditWallet(organizationId, 4_000, at)).resolves.toEqual({ organizationId, balanceMicros: 4_000, currency: 'USD', updatedAt: at });
    expect(lost()).toBe(1);
    expect((await storedItem(organizationId)).balanceMicros).toBe(4_000);
  });

  it('refunds once', async () => {
    const organizationId = freshOrganization();
    await fund(organizationId, 1_000);
    const { store, lost } = lossyStore();
    await store.debitWallet(organizationId, 700, at);
    await expect(store.creditWallet(organizationId, 700, at)).resolves.toMatchObject({ balanceMicros: 1_000 });
    expect(lost()).toBe(2);
    expect((await storedItem(organizationId)).balanceMicros).toBe(1_000);
  });
});

describe('write tokens', () => {
  it('never reach the wallet record, and a busy wallet keeps a bounded number of them', async () => {
    const organizationId = freshOrganization();
    const store = new DynamoDbBillingStore(dynamo.documentClient, dynamo.tableNames.tenancy);
    await store.creditWallet(organizationId, 1_000_000, at);
    for (let write = 0; write < 90; write += 1) await store.debitWallet(organizationId, 1, at);
    expect(tokensOf(await storedItem(organizationId)).length).toBeLessThanOrEqual(64);
    expect((await storedItem(organizationId)).balanceMicros).toBe(1_000_000 - 90);
    expect(Object.keys((await store.getWallet(organizationId))!).sort()).toEqual(['balanceMicros', 'currency', 'organizationId', 'updatedAt']);
  });

  it('older than the retention are pruned once a wallet holds more than a few', async () => {
    const organizationId = freshOrganization();
    const store = new DynamoDbBillingStore(dynamo.documentClient, dynamo.tableNames.tenancy);
    for (let write = 0; write < 17; write += 1) await store.creditWallet(organizationId, 1, at);
    expect(tokensOf(await storedItem(organizationId))).toHaveLength(17);
    const muchLater = new Date(Date.parse(at) + walletTokenRetentionMs + 1_000).toISOString();
    await store.creditWallet(organizationId, 1, muchLater);
    expect(tokensOf(await storedItem(organizationId))).toHaveLength(1);
    expect((await storedItem(organizationId)).balanceMicros).toBe(18);
  });
});
