/**
 * The contact book's number forms on dynalite (shared/adapters/dynamodb/dynamodb-contact-book.ts): a
 * direction stored before the opt-out key, under Meta's older Mexican form (`PHONE#521…`), is found
 * by either form (so an opt-out added or removed in the other form reaches the BSUID), and is moved
 * under the key when a webhook shows the pair again; a newer pair under an older form is kept.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbInboxRepository } from '../../../shared/adapters/dynamodb/dynamodb-inbox-repository';
import { inboxKeys } from '../../../shared/adapters/dynamodb/inbox-table';
import { learnPairs } from '../../../shared/inbox/identity-pairs';
import { addOptOut, removeOptOut } from '../../../shared/inbox/opt-outs';
import { fixedClock } from '../../../shared/ports/clock';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

jest.setTimeout(60_000);

let dynamo: TestDynamo;
let repository: DynamoDbInboxRepository;
const clock = fixedClock('2026-05-04T09:00:00.000Z');
const t1 = '2026-05-04T08:00:00.000Z';
const t2 = '2026-05-04T08:30:00.000Z';

beforeAll(async () => {
  dynamo = await startTestDynamo();
  repository = new DynamoDbInboxRepository(dynamo.documentClient, dynamo.tableNames.inbox);
});
afterAll(async () => {
  await dynamo.stop();
});

/** Both directions of a pair as an earlier version wrote them: the number under Meta's digits as given. */
async function legacyPair(organizationId: string, phoneNumber: string, userId: string, at: string): Promise<void> {
  for (const key of [phoneNumber, userId]) {
    await dynamo.documentClient.send(
      new PutCommand({
        TableName: dynamo.tableNames.inbox,
        Item: { ...inboxKeys.identityPair(organizationId, key), entity: 'identity-pair', phoneNumber, userId, at },
      }),
    );
  }
}
const itemUnder = async (organizationId: string, key: string) =>
  (
    await dynamo.documentClient.send(
      new GetCommand({ TableName: dynamo.tableNames.inbox, Key: inboxKeys.identityPair(organizationId, key), ConsistentRead: true }),
    )
  ).Item;

test('a pair stored under the older Mexican form is found by the other form, and an opt-out in either form reaches the BSUID and back', async () => {
  const organizationId = 'org_forms_optout';
  await legacyPair(organizationId, '5215511112222', 'MX.legacy1', t1);
  expect(await repository.pairOf(organizationId, '525511112222')).toEqual({ phoneNumber: '5215511112222', userId: 'MX.legacy1', at: t1, olderForm: true });
  const ports = { optOuts: repository, contactBook: repository, clock };

  await addOptOut(ports, { organizationId, phoneNumber: '525511112222', source: 'api' });
  expect(await repository.findSuppressed(organizationId, ['MX.legacy1', '5215511112222'])).toEqual(new Set(['MX.legacy1', '5215511112222']));
  await removeOptOut(ports, organizationId, '5215511112222');
  expect((await repository.findSuppressed(organizationId, ['MX.legacy1', '525511112222'])).size).toBe(0);
});

test('a webhook showing the pair again moves it under the key; a newer pair under the older form is kept', async () => {
  const organizationId = 'org_forms_move';
  await legacyPair(organizationId, '5215511113333', 'MX.legacy2', t2);
  const ports = { optOuts: repository, contactBook: repository, clock };
  // Shown again by an older event (a late batch): moved with the newest time it was shown at.
  await expect(learnPairs(ports, organizationId, [{ phoneNumber: '5215511113333', userId: 'MX.legacy2', at: t1 }])).resolves.toBe(1);
  expect(await itemUnder(organizationId, '5215511113333')).toBeUndefined();
  expect(await itemUnder(organizationId, '525511113333')).toMatchObject({ phoneNumber: '5215511113333', userId: 'MX.legacy2', at: t2 });
  expect(await repository.pairOf(organizationId, '5215511113333')).toEqual({ phoneNumber: '5215511113333', userId: 'MX.legacy2', at: t2 });
  // Known now: no write.
  await expect(learnPairs(ports, organizationId, [{ phoneNumber: '525511113333', userId: 'MX.legacy2', at: t2 }])).resolves.toBe(0);

  const other = 'org_forms_newer';
  await legacyPair(other, '5215511114444', 'MX.new', t2);
  // An older pair of the other form is stale against the newer one still under the older form.
  await expect(learnPairs(ports, other, [{ phoneNumber: '525511114444', userId: 'MX.old', at: t1 }])).resolves.toBe(0);
  expect((await repository.pairOf(other, '525511114444'))?.userId).toBe('MX.new');
  expect(await itemUnder(other, '5215511114444')).toBeDefined();
});
