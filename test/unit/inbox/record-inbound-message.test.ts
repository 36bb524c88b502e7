import { InboxRecordPendingError } from '../../../shared/inbox/errors';
import { pendingClaimWaitsMs, recordInboundMessage, type InboundMessageRecord, type RecordInboundPorts } from '../../../shared/inbox/record-inbound-message';
import { lastInboundAtOf } from '../../../shared/inbox/service-window';
import { InboxInboundMessageSink } from '../../../shared/module-bridges/inbox-inbound-sink';
import { createInboxTestKit, senderA, senderB } from './inbox-test-kit';

const customer = '447700900123';

function setup() {
  const kit = createInboxTestKit();
  const waits: number[] = [];
  const ports: RecordInboundPorts = { ...kit.ports, sleep: async (ms) => void waits.push(ms) };
  const message = (overrides: Partial<InboundMessageRecord> = {}): InboundMessageRecord => ({
    organizationId: 'org_a',
    senderPhoneNumber: senderA,
    customerPhoneNumber: customer,
    profileName: 'Grace Hopper',
    sentAt: new Date('2026-03-02T08:59:00.000Z'),
    ...overrides,
  });
  const record = (overrides: Partial<InboundMessageRecord> = {}) => recordInboundMessage(ports, message(overrides));
  const lists = async () => ({
    contacts: await kit.services.listContacts({ organizationId: 'org_a', filter: {}, page: 1, pageSize: 100 }),
    conversations: await kit.services.listConversations({ organizationId: 'org_a', filter: {}, page: 1, pageSize: 100 }),
  });
  return { ...kit, ports, waits, record, lists };
}

describe('recording an inbound message', () => {
  test('a new customer: creates the contact (named by the profile), opens the conversation, records the time', async () => {
    const { record, lists } = setup();
    const outcome = await record();
    expect(outcome.recorded).toBe(true);
    expect(outcome.contact).toMatchObject({ organizationId: 'org_a', phoneNumber: customer, name: 'Grace Hopper', tags: [], attributes: {} });
    const { contacts, conversations } = await lists();
    expect(contacts.items).toEqual([outcome.contact]);
    expect(conversations.items).toEqual([
      expect.objectContaining({
        contactId: outcome.contact.contactId,
        senderPhoneNumber: senderA,
        status: 'open',
        lastInboundAt: '2026-03-02T08:59:00.000Z',
        lastMessageAt: '2026-03-02T08:59:00.000Z',
      }),
    ]);
  });

  test('without a profile name the contact is named by its number (the v1 API requires a name)', async () => {
    const { record } = setup();
    expect((await record({ profileName: '   ' })).contact.name).toBe(customer);
    expect((await record({ customerPhoneNumber: '447700900124', profileName: undefined })).contact.name).toBe('447700900124');
  });

  test('an existing contact and open conversation are reused, not duplicated', async () => {
    const { record, services, lists } = setup();
    const contact = await services.createContact({ organizationId: 'org_a', phoneNumber: customer, name: 'Known Name' });
    const { conversation } = await services.createConversation({ organizationId: 'org_a', contactId: contact.contactId, senderPhoneNumber: senderA });
    const outcome = await record();
    expect(outcome.contact).toEqual(contact);
    expect(outcome.conversation?.conversationId).toBe(conversation.conversationId);
    const after = await lists();
    expect([after.contacts.total, after.conversations.total]).toEqual([1, 1]);
    expect(after.conversations.items[0]).toMatchObject({ conversationId: conversation.conversationId, lastInboundAt: '2026-03-02T08:59:00.000Z' });
  });

  test('another sender of the organization gets its own conversation with the same contact', async () => {
    const { record, lists } = setup();
    await record();
    await record({ senderPhoneNumber: senderB });
    const { contacts, conversations } = await lists();
    expect(contacts.total).toBe(1);
    expect(conversations.items.map((item) => item.senderPhoneNumber).sort()).toEqual([senderA, senderB].sort());
  });

  test('redelivery is idempotent: no second contact or conversation, the counts stay exact', async () => {
    const { record, lists, repository } = setup();
    const first = await record();
    const before = await lists();
    const again = await record();
    expect(again).toEqual({
      contact: first.contact,
      conversation: expect.objectContaining({ conversationId: first.conversation!.conversationId }),
      recorded: false,
    });
    expect(await lists()).toEqual(before);
    expect([repository.contacts.size, repository.conversations.size, repository.phoneClaims.size, repository.openClaims.size]).toEqual([1, 1, 1, 1]);
  });

  test('an older message (out of order) does not move lastInboundAt back; a newer one moves it forward', async () => {
    const { record, lists } = setup();
    await record({ sentAt: new Date('2026-03-02T08:59:00.000Z') });
    expect((await record({ sentAt: new Date('2026-03-02T08:00:00.000Z') })).recorded).toBe(false);
    expect((await lists()).conversations.items[0]!.lastInboundAt).toBe('2026-03-02T08:59:00.000Z');
    expect((await record({ sentAt: new Date('2026-03-02T09:30:00.000Z') })).recorded).toBe(true);
    expect((await lists()).conversations.items[0]!.lastInboundAt).toBe('2026-03-02T09:30:00.000Z');
  });

  test('after the conversation was closed, a redelivered message opens nothing; a new message opens a new conversation', async () => {
    const { record, services, lists } = setup();
    const first = await record();
    await services.setConversationStatus({ organizationId: 'org_a', conversationId: first.conversation!.conversationId, status: 'closed' });
    expect(await record()).toEqual({ contact: first.contact, recorded: false });
    expect((await lists()).conversations.total).toBe(1);
    const next = await record({ sentAt: new Date('2026-03-03T10:00:00.000Z') });
    expect(next.conversation?.conversationId).not.toBe(first.conversation!.conversationId);
    expect((await lists()).conversations.items.map((item) => [item.status, item.lastInboundAt])).toEqual([
      ['open', '2026-03-03T10:00:00.000Z'],
      ['closed', '2026-03-02T08:59:00.000Z'],
    ]);
  });

  test('a contact claimed by a concurrent writer is waited for, then used', async () => {
    const { record, repository, waits, ports } = setup();
    // Another writer claimed the number and writes its contact while we wait.
    await repository.claimContactPhoneNumber({
      organizationId: 'org_a',
      phoneNumber: customer,
      contactId: 'ct_other',
      claimedAt: ports.clock.now().toISOString(),
    });
    ports.sleep = async (ms) => {
      waits.push(ms);
      await repository.insertContact({
        contactId: 'ct_other',
        organizationId: 'org_a',
        phoneNumber: customer,
        name: 'Other',
        tags: [],
        attributes: {},
        createdAt: 'x',
        updatedAt: 'x',
      });
    };
    const outcome = await record();
    expect(outcome.contact.contactId).toBe('ct_other');
    expect(waits).toEqual([pendingClaimWaitsMs[0]]);
    expect(repository.contacts.size).toBe(1);
  });

  test('a claim whose contact never appears: InboxRecordPendingError after the waits (the batch is redelivered), nothing written', async () => {
    const { record, repository, waits, ports } = setup();
    await repository.claimContactPhoneNumber({
      organizationId: 'org_a',
      phoneNumber: customer,
      contactId: 'ct_other',
      claimedAt: ports.clock.now().toISOString(),
    });
    await expect(record()).rejects.toBeInstanceOf(InboxRecordPendingError);
    expect(waits).toEqual([...pendingClaimWaitsMs]);
    expect([repository.contacts.size, repository.conversations.size]).toEqual([0, 0]);
  });

  test('a crash after the contact was written is repaired by the redelivery', async () => {
    const { record, repository, lists } = setup();
    repository.failOnce('claimOpenConversation');
    await expect(record()).rejects.toThrow('claimOpenConversation crashed');
    await record();
    const { contacts, conversations } = await lists();
    expect([contacts.total, conversations.total]).toEqual([1, 1]);
    expect(conversations.items[0]!.lastInboundAt).toBe('2026-03-02T08:59:00.000Z');
  });
});

describe('the recorded window (lastInboundAtOf)', () => {
  test('is the latest inbound time over the pair’s conversations, open or closed; undefined when nothing is recorded', async () => {
    const { record, services, repository } = setup();
    const window = (sender = senderA, customerPhoneNumber = customer) =>
      lastInboundAtOf(repository, { organizationId: 'org_a', senderPhoneNumber: sender, customerKey: customerPhoneNumber });
    expect(await window()).toBeUndefined();
    // A contact with a conversation but no inbound message: still nothing recorded.
    const contact = await services.createContact({ organizationId: 'org_a', phoneNumber: customer, name: 'Ada' });
    const opened = await services.createConversation({ organizationId: 'org_a', contactId: contact.contactId, senderPhoneNumber: senderA });
    expect(await window()).toBeUndefined();
    await record({ sentAt: new Date('2026-03-02T07:00:00.000Z') });
    expect(await window()).toEqual(new Date('2026-03-02T07:00:00.000Z'));
    // Closed, and a new conversation opened through the API without inbound: the closed one still counts.
    await services.setConversationStatus({ organizationId: 'org_a', conversationId: opened.conversation.conversationId, status: 'closed' });
    await services.createConversation({ organizationId: 'org_a', contactId: contact.contactId, senderPhoneNumber: senderA });
    expect(await window()).toEqual(new Date('2026-03-02T07:00:00.000Z'));
    // Another sender, another organization: nothing recorded.
    expect(await window(senderB)).toBeUndefined();
    expect(await lastInboundAtOf(repository, { organizationId: 'org_b', senderPhoneNumber: senderA, customerKey: customer })).toBeUndefined();
  });
});

describe('the delivery processor’s sink (InboxInboundMessageSink)', () => {
  test('records against the sender number registered for the phone number id, else the display number', async () => {
    const { ports, services } = setup();
    const sink = new InboxInboundMessageSink(ports, { senderPhoneNumberOf: async (_org, id) => (id === 'pn_b' ? senderB : undefined) });
    const inbound = { messageId: 'wamid.1', from: customer, profileName: 'Grace', timestamp: new Date('2026-03-02T08:00:00.000Z'), type: 'text', text: 'hi' };
    await sink.recordInbound('org_a', { ...inbound, phoneNumberId: 'pn_b', businessPhoneNumber: '999' });
    await sink.recordInbound('org_a', { ...inbound, messageId: 'wamid.2', phoneNumberId: 'pn_unknown', businessPhoneNumber: senderA });
    const conversations = await services.listConversations({ organizationId: 'org_a', filter: {}, page: 1, pageSize: 10 });
    expect(conversations.items.map((item) => [item.senderPhoneNumber, item.lastInboundAt]).sort()).toEqual([
      [senderA, '2026-03-02T08:00:00.000Z'],
      [senderB, '2026-03-02T08:00:00.000Z'],
    ]);
  });

  test('takes the sender number the owner lookup already read, without reading it again', async () => {
    const { ports, services } = setup();
    const lookups: string[] = [];
    const sink = new InboxInboundMessageSink(ports, { senderPhoneNumberOf: async (_org, id) => (lookups.push(id), senderA) });
    const inbound = { messageId: 'wamid.3', from: customer, timestamp: new Date('2026-03-02T08:00:00.000Z'), type: 'text', text: 'hi' };
    await sink.recordInbound('org_a', { ...inbound, phoneNumberId: 'pn_b', businessPhoneNumber: '999' }, senderB);
    expect(lookups).toEqual([]);
    const conversations = await services.listConversations({ organizationId: 'org_a', filter: {}, page: 1, pageSize: 10 });
    expect(conversations.items.map((item) => item.senderPhoneNumber)).toEqual([senderB]);
  });
});
