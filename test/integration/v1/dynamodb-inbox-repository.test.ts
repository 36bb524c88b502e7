/** The inbox adapter on dynalite: conditional claims and take-overs, counters, and the use cases' crash repairs on real DynamoDB semantics. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { DynamoDbInboxRepository } from '../../../shared/adapters/dynamodb/dynamodb-inbox-repository';
import { inboxKeys } from '../../../shared/adapters/dynamodb/inbox-table';
import { abandonedClaimAfterMs } from '../../../shared/inbox/contact-use-cases';
import { ContactAlreadyExistsError, InboxStoreUnavailableError, OptOutNotFoundError } from '../../../shared/inbox/errors';
import { addOptOut, removeOptOut } from '../../../shared/inbox/opt-outs';
import { bindInboxServices } from '../../../shared/inbox/inbox-services';
import { fixedClock } from '../../../shared/ports/clock';
import { randomIdGenerator } from '../../../shared/ports/id-generator';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;
let repository: DynamoDbInboxRepository;
const clock = fixedClock('2026-05-04T08:00:00.000Z');

beforeAll(async () => {
  dynamo = await startTestDynamo();
  repository = new DynamoDbInboxRepository(dynamo.documentClient, dynamo.tableNames.inbox);
});
afterAll(async () => {
  await dynamo.stop();
});

const services = () =>
  bindInboxServices({
    inbox: repository,
    optOuts: repository,
    clock,
    ids: randomIdGenerator,
    senders: { listSenderPhoneNumbers: async () => ['15550001111'] },
  });
const counters = async (organizationId: string) =>
  (await dynamo.documentClient.send(new GetCommand({ TableName: dynamo.tableNames.inbox, Key: inboxKeys.counters(organizationId) }))).Item;

test('phone claims: first wins, a take-over needs the named holder, and the holder is reported', async () => {
  const claim = { organizationId: 'org_x', phoneNumber: '15551110000', contactId: 'ct_A', claimedAt: '2026-05-04T08:00:00.000Z' };
  expect(await repository.claimContactPhoneNumber(claim)).toEqual({ claimed: true });
  expect(await repository.claimContactPhoneNumber({ ...claim, contactId: 'ct_B' })).toEqual({ claimed: false, holder: claim });
  expect(await repository.claimContactPhoneNumber({ ...claim, contactId: 'ct_B' }, 'ct_wrong')).toEqual({ claimed: false, holder: claim });
  expect(await repository.claimContactPhoneNumber({ ...claim, contactId: 'ct_B' }, 'ct_A')).toEqual({ claimed: true });
  // Another organization has its own claims.
  expect(await repository.claimContactPhoneNumber({ ...claim, organizationId: 'org_y' })).toEqual({ claimed: true });
});

test('pair claims: release only by the holder; a take-over of a vanished claim claims afresh', async () => {
  const claim = { organizationId: 'org_x', senderPhoneNumber: '15550001111', contactId: 'ct_A', conversationId: 'cv_1', claimedAt: '2026-05-04T08:00:00.000Z' };
  expect(await repository.claimOpenConversation(claim)).toEqual({ claimed: true });
  await repository.releaseOpenConversation({ ...claim, conversationId: 'cv_other' });
  expect(await repository.claimOpenConversation({ ...claim, conversationId: 'cv_2' })).toMatchObject({ claimed: false, holder: { conversationId: 'cv_1' } });
  await repository.releaseOpenConversation(claim);
  expect(await repository.claimOpenConversation({ ...claim, conversationId: 'cv_3' }, 'cv_1')).toEqual({ claimed: true });
});

test('use cases on DynamoDB: counters follow create, close and reopen; an abandoned contact claim is taken over', async () => {
  const inbox = services();
  const organizationId = 'org_counted';
  const contact = await inbox.createContact({ organizationId, phoneNumber: '15552220000', name: 'Counted' });
  const { conversation } = await inbox.createConversation({ organizationId, contactId: contact.contactId, senderPhoneNumber: '15550001111' });
  expect(await counters(organizationId)).toMatchObject({ contacts: 1, openConversations: 1 });
  await inbox.setConversationStatus({ organizationId, conversationId: conversation.conversationId, status: 'closed' });
  expect(await counters(organizationId)).toMatchObject({ openConversations: 0, closedConversations: 1 });
  await inbox.setConversationStatus({ organizationId, conversationId: conversation.conversationId, status: 'open' });
  expect(await counters(organizationId)).toMatchObject({ openConversations: 1, closedConversations: 0 });
  expect(await inbox.listConversations({ organizationId, filter: { contactId: contact.contactId, status: 'open' }, page: 1, pageSize: 5 })).toMatchObject({
    total: 1,
    items: [{ conversationId: conversation.conversationId, status: 'open' }],
  });

  // A create that died after claiming the number: blocked, then taken over once abandoned.
  await repository.claimContactPhoneNumber({ organizationId, phoneNumber: '15553330000', contactId: 'ct_dead', claimedAt: clock.now().toISOString() });
  await expect(inbox.createContact({ organizationId, phoneNumber: '15553330000', name: 'Late' })).rejects.toEqual(
    new ContactAlreadyExistsError('15553330000', 'ct_dead'),
  );
  clock.advanceBy(abandonedClaimAfterMs);
  const late = await inbox.createContact({ organizationId, phoneNumber: '15553330000', name: 'Late' });
  expect(await inbox.listContacts({ organizationId, filter: {}, page: 1, pageSize: 10 })).toMatchObject({
    total: 2,
    items: [{ contactId: late.contactId }, { contactId: contact.contactId }],
  });
});

test('an unreachable store is InboxStoreUnavailableError (503), not a 500', async () => {
  const client = new DynamoDBClient({
    region: 'us-east-1',
    endpoint: 'http://127.0.0.1:9',
    credentials: { accessKeyId: 'x', secretAccessKey: 'x' },
    maxAttempts: 1,
  });
  const unreachable = new DynamoDbInboxRepository(DynamoDBDocumentClient.from(client), 'inbox');
  await expect(unreachable.getContact('org_x', 'ct_1')).rejects.toBeInstanceOf(InboxStoreUnavailableError);
  client.destroy();
});

test('opt-outs: added once with its counter, ascending list, per-organization BatchGet of more than 100 numbers, removed only if on the list', async () => {
  const org = 'org_optouts';
  const numbers = Array.from({ length: 250 }, (_, index) => `4477009${String(index).padStart(5, '0')}`);
  const ports = { optOuts: repository, clock: fixedClock('2026-05-04T08:00:00.000Z') };
  const added = await Promise.all(
    numbers.filter((_, index) => index % 2 === 1).map((phoneNumber) => addOptOut(ports, { organizationId: org, phoneNumber, source: 'api' })),
  );
  expect(added.every(({ created }) => created)).toBe(true);
  const repeat = await addOptOut(
    { optOuts: repository, clock: fixedClock('2026-05-04T09:00:00.000Z') },
    { organizationId: org, phoneNumber: numbers[1]!, source: 'keyword' },
  );
  expect(repeat).toEqual({ created: false, optOut: { phoneNumber: numbers[1], source: 'api', createdAt: '2026-05-04T08:00:00.000Z' } });
  expect((await counters(org))?.optOuts).toBe(125);

  const suppressed = await repository.findSuppressed(org, [...numbers, numbers[1]!]);
  expect([...suppressed].sort()).toEqual(numbers.filter((_, index) => index % 2 === 1));
  expect((await repository.findSuppressed('org_other', numbers)).size).toBe(0);
  // A list longer than the numbers asked (125 > 101): read by BatchGet instead of the list, same answer.
  const fewer = numbers.slice(0, 101);
  expect([...(await repository.findSuppressed(org, fewer))].sort()).toEqual(fewer.filter((_, index) => index % 2 === 1));
  // Exactly as long as the numbers asked (125 of 125 asked): the list is read whole.
  const asked = numbers.filter((_, index) => index % 2 === 1);
  expect((await repository.findSuppressed(org, asked)).size).toBe(125);

  const page = await repository.listOptOuts(org, { offset: 100, limit: 50 });
  expect(page.total).toBe(125);
  expect(page.items.map((entry) => entry.phoneNumber)).toEqual(numbers.filter((_, index) => index % 2 === 1).slice(100, 150));

  await removeOptOut(ports, org, numbers[1]!);
  await expect(removeOptOut(ports, org, numbers[1]!)).rejects.toBeInstanceOf(OptOutNotFoundError);
  await expect(removeOptOut(ports, org, numbers[0]!)).rejects.toBeInstanceOf(OptOutNotFoundError);
  expect((await counters(org))?.optOuts).toBe(124);
  // Off the list, the removed number is neither listed nor suppressed.
  expect((await repository.listOptOuts(org, { offset: 0, limit: 1 })).items.map((entry) => entry.phoneNumber)).toEqual([numbers[3]]);
  expect((await repository.findSuppressed(org, [numbers[1]!])).size).toBe(0);
}, 30_000);
