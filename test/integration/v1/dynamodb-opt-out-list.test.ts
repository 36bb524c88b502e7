/**
 * The opt-out list's adapter on dynalite (shared/adapters/dynamodb/dynamodb-opt-out-list.ts):
 * concurrent STOP and START end as the latest by Meta's time with the counter exact, an SDK retry
 * of an applied write is recognised by its token, and entries stored under an older form of a
 * Mexican or Brazilian number (before the opt-out key) are still found and moved on first change.
 */
import { DynamoDBDocumentClient, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbOptOutList } from '../../../shared/adapters/dynamodb/dynamodb-opt-out-list';
import { InboxTable, inboxKeys } from '../../../shared/adapters/dynamodb/inbox-table';
import {
  addOptOut,
  applyOptOutKeyword,
  defaultOptInKeywords,
  defaultOptOutKeywords,
  optOutKeywordsOf,
  removeOptOut,
  type OptOutPorts,
} from '../../../shared/inbox/opt-outs';
import { fixedClock } from '../../../shared/ports/clock';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

jest.setTimeout(60_000);

let dynamo: TestDynamo;
let list: DynamoDbOptOutList;
let ports: OptOutPorts;
const keywords = optOutKeywordsOf(defaultOptOutKeywords, defaultOptInKeywords);
const at = (second: number) => new Date(Date.parse('2026-05-04T08:00:00.000Z') + second * 1000);

beforeAll(async () => {
  dynamo = await startTestDynamo();
  list = new DynamoDbOptOutList(new InboxTable(dynamo.documentClient, dynamo.tableNames.inbox));
  ports = { optOuts: list, clock: fixedClock('2026-05-04T09:00:00.000Z') };
});
afterAll(async () => {
  await dynamo.stop();
});

const optOutCount = async (organizationId: string) =>
  Number(
    (await dynamo.documentClient.send(new GetCommand({ TableName: dynamo.tableNames.inbox, Key: inboxKeys.counters(organizationId) }))).Item?.optOuts ?? 0,
  );
const items = async (organizationId: string) =>
  (
    await dynamo.documentClient.send(
      new QueryCommand({
        TableName: dynamo.tableNames.inbox,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': inboxKeys.optOut(organizationId, '').pk },
        ConsistentRead: true,
      }),
    )
  ).Items ?? [];
const keyword = (organizationId: string, phoneNumber: string, text: string, second: number) =>
  applyOptOutKeyword(ports, keywords, { organizationId, phoneNumber, text, sentAt: at(second) });

test('concurrent STOPs and STARTs end as the latest by Meta’s time, the counter exact', async () => {
  // Each round: keywords at distinct times all applied at once, in a shuffled order.
  const rounds = [
    ['STOP', 'START', 'STOP', 'START', 'STOP'],
    ['START', 'STOP', 'STOP', 'START'],
    ['STOP', 'STOP', 'STOP'],
  ];
  for (const [round, texts] of rounds.entries()) {
    const organizationId = `org_concurrent_${round}`;
    const phoneNumber = '447700900321';
    const events = texts.map((text, second) => ({ text, second }));
    const shuffled = [...events].sort(() => Math.random() - 0.5);
    await Promise.all(shuffled.map(({ text, second }) => keyword(organizationId, phoneNumber, text, second)));
    const latestIsStop = texts[texts.length - 1] === 'STOP';
    expect((await list.findSuppressed(organizationId, [phoneNumber])).size).toBe(latestIsStop ? 1 : 0);
    expect(await optOutCount(organizationId)).toBe(latestIsStop ? 1 : 0);
    expect(await items(organizationId)).toEqual([expect.objectContaining({ keywordAt: at(texts.length - 1).toISOString() })]);
  }
});

test('an SDK retry of an applied write (its condition then fails on our own token) counts as applied', async () => {
  const organizationId = 'org_retry';
  // The first Put is sent twice, as the SDK does after a timeout on an applied write: the second fails its condition.
  let retried = false;
  const retrying = Object.create(dynamo.documentClient) as DynamoDBDocumentClient;
  retrying.send = (async (command: unknown) => {
    if (command instanceof PutCommand && !retried) {
      retried = true;
      await dynamo.documentClient.send(command);
    }
    return dynamo.documentClient.send(command as PutCommand);
  }) as DynamoDBDocumentClient['send'];
  const retryingPorts = { optOuts: new DynamoDbOptOutList(new InboxTable(retrying, dynamo.tableNames.inbox)), clock: ports.clock };
  const result = await addOptOut(retryingPorts, { organizationId, phoneNumber: '447700900654', source: 'api' });
  expect(retried).toBe(true);
  expect(result.created).toBe(true);
  expect(await optOutCount(organizationId)).toBe(1);
});

test('the records of many keys in BatchGets of 100: numbers and BSUIDs, on the list or not, none for keys never seen', async () => {
  const organizationId = 'org_records';
  const numbers = Array.from({ length: 150 }, (_, index) => `4477008${String(index).padStart(5, '0')}`);
  await keyword(organizationId, numbers[0]!, 'STOP', 1);
  await keyword(organizationId, numbers[149]!, 'STOP', 2);
  await keyword(organizationId, numbers[149]!, 'START', 3);
  await addOptOut(ports, { organizationId, phoneNumber: 'GB.13491208655302741918', source: 'api' });
  const records = await list.recordsOf(organizationId, [...numbers, 'GB.13491208655302741918', 'GB.2']);
  expect(records.size).toBe(3);
  expect(records.get(numbers[0]!)).toMatchObject({ state: 'opted-out', source: 'keyword', keywordAt: at(1).toISOString() });
  expect(records.get(numbers[149]!)).toEqual({ state: 'opted-in', phoneNumber: numbers[149], keywordAt: at(3).toISOString() });
  expect(records.get('GB.13491208655302741918')).toMatchObject({ state: 'opted-out', source: 'api' });
});

test('entries stored under an older form before the key existed are found, listed once, and moved to the key on first change', async () => {
  const organizationId = 'org_legacy';
  const legacy = (phoneNumber: string, source: string) =>
    dynamo.documentClient.send(
      new PutCommand({
        TableName: dynamo.tableNames.inbox,
        Item: { ...inboxKeys.optOut(organizationId, phoneNumber), entity: 'opt-out', phoneNumber, source, createdAt: '2026-01-01T00:00:00.000Z' },
      }),
    );
  await legacy('5215512345678', 'api'); // Mexico, dialled with the old mobile 1
  await legacy('558188887777', 'keyword'); // Brazil, a wa_id without the ninth digit
  await dynamo.documentClient.send(
    new PutCommand({ TableName: dynamo.tableNames.inbox, Item: { ...inboxKeys.counters(organizationId), entity: 'inbox-counters', optOuts: 2 } }),
  );

  const asked = ['525512345678', '5581988887777', '447700900000'];
  expect(await list.findSuppressed(organizationId, asked)).toEqual(new Set(['525512345678', '5581988887777']));
  // The records as a pair's alignment reads them: found under the older forms, by the keys as given, without moving them.
  const records = await list.recordsOf(organizationId, [...asked, 'MX.1349']);
  expect([...records.keys()].sort()).toEqual(['525512345678', '5581988887777']);
  expect(records.get('525512345678')).toEqual({ state: 'opted-out', phoneNumber: '5215512345678', source: 'api', createdAt: '2026-01-01T00:00:00.000Z' });
  expect((await items(organizationId)).map((item) => item.sk)).toEqual(['PHONE#5215512345678', 'PHONE#558188887777']);
  // Over 100 numbers: the list itself is read, with the same answer.
  const many = [...asked, ...Array.from({ length: 120 }, (_, index) => `4477009${String(index).padStart(5, '0')}`)];
  expect(await list.findSuppressed(organizationId, many)).toEqual(new Set(['525512345678', '5581988887777']));
  expect((await list.listOptOuts(organizationId, { offset: 0, limit: 10 })).items.map((entry) => entry.phoneNumber).sort()).toEqual([
    '5215512345678',
    '558188887777',
  ]);

  // A START under the dialled Brazilian form takes the older keyword entry off the list; the Mexican API entry is removed by the API under its new form.
  await keyword(organizationId, '5581988887777', 'START', 10);
  await removeOptOut(ports, organizationId, '525512345678');
  expect((await list.findSuppressed(organizationId, asked)).size).toBe(0);
  expect(await optOutCount(organizationId)).toBe(0);
  // Moved: only records under the keys remain (off the list, with their times).
  expect((await items(organizationId)).map((item) => [item.sk, item.state])).toEqual([
    ['PHONE#525512345678', 'opted-in'],
    ['PHONE#5581988887777', 'opted-in'],
  ]);
  expect((await list.listOptOuts(organizationId, { offset: 0, limit: 10 })).items).toEqual([]);
});
