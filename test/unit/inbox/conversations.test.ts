import { abandonedClaimAfterMs } from '../../../shared/inbox/contact-use-cases';
import { ContactNotFoundError, ConversationAlreadyOpenError, ConversationNotFoundError, SenderNotFoundError } from '../../../shared/inbox/errors';
import { createInboxTestKit, senderA, senderB } from './inbox-test-kit';

async function withContact() {
  const kit = createInboxTestKit();
  const contact = await kit.services.createContact({ organizationId: 'org_a', phoneNumber: '447700900001', name: 'Ada' });
  const open = (sender = senderA) => kit.services.createConversation({ organizationId: 'org_a', contactId: contact.contactId, senderPhoneNumber: sender });
  return { ...kit, contact, open };
}

describe('opening conversations', () => {
  test('opens one between a sender of the organization and its contact, then returns that one again', async () => {
    const { open, contact } = await withContact();
    const first = await open();
    expect(first).toEqual({
      created: true,
      conversation: {
        conversationId: 'cv_0002',
        organizationId: 'org_a',
        contactId: contact.contactId,
        senderPhoneNumber: senderA,
        status: 'open',
        createdAt: '2026-03-02T09:00:00.000Z',
        updatedAt: '2026-03-02T09:00:00.000Z',
        lastMessageAt: null,
      },
    });
    expect(await open()).toEqual({ created: false, conversation: first.conversation });
    // Another sender of the organization is another conversation.
    expect(await open(senderB)).toMatchObject({ created: true, conversation: { senderPhoneNumber: senderB } });
  });

  test('refuses senders and contacts that are not the organization’s', async () => {
    const { services, contact, open } = await withContact();
    await expect(open('15550200001')).rejects.toBeInstanceOf(SenderNotFoundError);
    await expect(
      services.createConversation({ organizationId: 'org_b', contactId: contact.contactId, senderPhoneNumber: '15550200001' }),
    ).rejects.toBeInstanceOf(ContactNotFoundError);
    await expect(services.getConversation('org_b', (await open()).conversation.conversationId)).rejects.toBeInstanceOf(ConversationNotFoundError);
  });

  test('closing releases the pair: the next open is a new conversation; reopening the old one then conflicts', async () => {
    const { services, open } = await withContact();
    const first = (await open()).conversation;
    const closed = await services.setConversationStatus({ organizationId: 'org_a', conversationId: first.conversationId, status: 'closed' });
    expect(closed).toMatchObject({ status: 'closed', closedAt: '2026-03-02T09:00:00.000Z' });
    expect(await services.setConversationStatus({ organizationId: 'org_a', conversationId: first.conversationId, status: 'closed' })).toEqual(closed);

    const second = await open();
    expect(second).toMatchObject({ created: true, conversation: { status: 'open' } });
    await expect(services.setConversationStatus({ organizationId: 'org_a', conversationId: first.conversationId, status: 'open' })).rejects.toEqual(
      new ConversationAlreadyOpenError(second.conversation.conversationId),
    );

    await services.setConversationStatus({ organizationId: 'org_a', conversationId: second.conversation.conversationId, status: 'closed' });
    const reopened = await services.setConversationStatus({ organizationId: 'org_a', conversationId: first.conversationId, status: 'open' });
    expect(reopened).toMatchObject({ status: 'open' });
    expect(reopened.closedAt).toBeUndefined();
    expect(await open()).toEqual({ created: false, conversation: reopened });
  });

  test('a close that died before releasing the pair: the next open takes the claim over at once', async () => {
    const { services, repository, open } = await withContact();
    const first = (await open()).conversation;
    repository.failOnce('releaseOpenConversation');
    await expect(services.setConversationStatus({ organizationId: 'org_a', conversationId: first.conversationId, status: 'closed' })).rejects.toThrow();
    expect(await open()).toMatchObject({ created: true, conversation: { status: 'open' } });
  });

  test('an open that died before writing its conversation blocks the pair only until the claim is abandoned', async () => {
    const { repository, clock, open } = await withContact();
    repository.failOnce('insertConversation');
    await expect(open()).rejects.toThrow('insertConversation crashed');
    await expect(open()).rejects.toBeInstanceOf(ConversationAlreadyOpenError);
    clock.advanceBy(abandonedClaimAfterMs);
    expect(await open()).toMatchObject({ created: true });
  });

  test('a reopen that died after claiming: reopening again succeeds (the claim is its own)', async () => {
    const { services, repository, open } = await withContact();
    const first = (await open()).conversation;
    await services.setConversationStatus({ organizationId: 'org_a', conversationId: first.conversationId, status: 'closed' });
    repository.failOnce('changeConversationStatus');
    await expect(services.setConversationStatus({ organizationId: 'org_a', conversationId: first.conversationId, status: 'open' })).rejects.toThrow();
    await expect(services.setConversationStatus({ organizationId: 'org_a', conversationId: first.conversationId, status: 'open' })).resolves.toMatchObject({
      status: 'open',
    });
  });
});

describe('listing conversations', () => {
  test('newest first, filtered by status and contact, with totals; a contact of another organization is 404', async () => {
    const { services, contact, open, clock } = await withContact();
    const other = await services.createContact({ organizationId: 'org_a', phoneNumber: '447700900002', name: 'Bob' });
    const a = (await open()).conversation;
    clock.advanceBy(1000);
    const b = (await open(senderB)).conversation;
    clock.advanceBy(1000);
    const c = (await services.createConversation({ organizationId: 'org_a', contactId: other.contactId, senderPhoneNumber: senderA })).conversation;
    await services.setConversationStatus({ organizationId: 'org_a', conversationId: a.conversationId, status: 'closed' });

    const ids = (filter: object, page = 1, pageSize = 10) =>
      services
        .listConversations({ organizationId: 'org_a', filter, page, pageSize })
        .then((result) => [result.total, result.items.map((item) => item.conversationId)]);
    expect(await ids({})).toEqual([3, [c.conversationId, b.conversationId, a.conversationId]]);
    expect(await ids({}, 2, 2)).toEqual([3, [a.conversationId]]);
    expect(await ids({ status: 'open' })).toEqual([2, [c.conversationId, b.conversationId]]);
    expect(await ids({ status: 'closed' })).toEqual([1, [a.conversationId]]);
    expect(await ids({ contactId: contact.contactId })).toEqual([2, [b.conversationId, a.conversationId]]);
    expect(await ids({ contactId: contact.contactId, status: 'open' })).toEqual([1, [b.conversationId]]);
    await expect(
      services.listConversations({ organizationId: 'org_b', filter: { contactId: contact.contactId }, page: 1, pageSize: 10 }),
    ).rejects.toBeInstanceOf(ContactNotFoundError);
  });
});
