/**
 * What every InboxRepository does, as observed through the port: run against the in-memory fake
 * (test/unit/contracts) and the DynamoDB adapter on dynalite (test/integration/contracts). The
 * adapter is the truth. One repository serves the whole run, so each test uses its own organization.
 */
import type { Contact, Conversation } from '../../../shared/inbox/inbox-entities';
import type { InboxRepository } from '../../../shared/inbox/ports';

const at = '2026-05-04T08:00:00.000Z';
const later = '2026-05-04T09:00:00.000Z';
let sequence = 0;
const freshOrganization = () => `org_${process.pid}x${Date.now().toString(36)}x${(sequence += 1)}`;

const contact = (organizationId: string, contactId: string, overrides: Partial<Contact> = {}): Contact => ({
  contactId,
  organizationId,
  phoneNumber: `1555${contactId.replace(/\D/g, '').padStart(7, '0')}`,
  name: `Name ${contactId}`,
  tags: [],
  attributes: { tier: 'gold', visits: 3, vip: true },
  createdAt: at,
  updatedAt: at,
  ...overrides,
});

const conversation = (organizationId: string, conversationId: string, contactId: string, overrides: Partial<Conversation> = {}): Conversation => ({
  conversationId,
  organizationId,
  contactId,
  senderPhoneNumber: '15550001111',
  status: 'open',
  createdAt: at,
  updatedAt: at,
  lastMessageAt: null,
  ...overrides,
});

export function describeInboxRepositoryContract(name: string, makeRepository: () => InboxRepository | Promise<InboxRepository>): void {
  describe(`InboxRepository contract: ${name}`, () => {
    let repository: InboxRepository;
    beforeAll(async () => {
      repository = await makeRepository();
    });

    describe('claims', () => {
      it('a phone number: first wins, the holder is reported, a take-over needs the named holder', async () => {
        const organizationId = freshOrganization();
        const claim = { organizationId, phoneNumber: '15551110000', contactId: 'ct_A', claimedAt: at };
        expect(await repository.claimContactPhoneNumber(claim)).toEqual({ claimed: true });
        expect(await repository.claimContactPhoneNumber({ ...claim, contactId: 'ct_B' })).toEqual({ claimed: false, holder: claim });
        expect(await repository.claimContactPhoneNumber({ ...claim, contactId: 'ct_B' }, 'ct_wrong')).toEqual({ claimed: false, holder: claim });
        expect(await repository.claimContactPhoneNumber({ ...claim, contactId: 'ct_B', claimedAt: later }, 'ct_A')).toEqual({ claimed: true });
        expect(await repository.claimContactPhoneNumber({ ...claim, contactId: 'ct_C' })).toEqual({
          claimed: false,
          holder: { ...claim, contactId: 'ct_B', claimedAt: later },
        });
        // Another organization has its own claims.
        expect(await repository.claimContactPhoneNumber({ ...claim, organizationId: freshOrganization() })).toEqual({ claimed: true });
      });

      it('a contact known only by BSUID: no number (null), found again by id and in lists; filled once, never replaced', async () => {
        const organizationId = freshOrganization();
        const bsuidOnly = contact(organizationId, 'ct_900', { phoneNumber: null, userId: 'US.900', username: 'ana.r' });
        await repository.insertContact(bsuidOnly);
        expect(await repository.getContact(organizationId, 'ct_900')).toEqual(bsuidOnly);
        expect((await repository.listContacts(organizationId, {}, { offset: 0, limit: 10 })).items).toEqual([bsuidOnly]);
        expect((await repository.listContacts(organizationId, { search: '1555' }, { offset: 0, limit: 10 })).items).toEqual([]);

        const filled = await repository.addContactIdentity(
          organizationId,
          'ct_900',
          { phoneNumber: '15550009000', userId: 'US.other', username: 'ana.rr' },
          later,
        );
        expect(filled).toEqual({ ...bsuidOnly, phoneNumber: '15550009000', userId: 'US.900', username: 'ana.rr', updatedAt: later });
        const again = await repository.addContactIdentity(organizationId, 'ct_900', { phoneNumber: '15550009999' }, later);
        expect(again?.phoneNumber).toBe('15550009000');
        expect(await repository.getContact(organizationId, 'ct_900')).toEqual(again);
        expect(await repository.addContactIdentity(organizationId, 'ct_missing', { userId: 'US.1' }, later)).toBeUndefined();
        // A change of number: the new ids replace the old (the username as it was).
        const rekeyed = await repository.addContactIdentity(organizationId, 'ct_900', { phoneNumber: '15550007777', userId: 'US.new', replace: true }, later);
        expect(rekeyed).toEqual({ ...again, phoneNumber: '15550007777', userId: 'US.new' });
        expect(await repository.getContact(organizationId, 'ct_900')).toEqual(rekeyed);
      });

      it('an open conversation: released only by its holder; a take-over of a vanished claim claims afresh', async () => {
        const organizationId = freshOrganization();
        const claim = { organizationId, senderPhoneNumber: '15550001111', contactId: 'ct_A', conversationId: 'cv_1', claimedAt: at };
        expect(await repository.claimOpenConversation(claim)).toEqual({ claimed: true });
        await repository.releaseOpenConversation({ ...claim, conversationId: 'cv_other' });
        expect(await repository.claimOpenConversation({ ...claim, conversationId: 'cv_2' })).toEqual({ claimed: false, holder: claim });
        // Another sender, or another contact, is another pair.
        expect(await repository.claimOpenConversation({ ...claim, senderPhoneNumber: '15550002222', conversationId: 'cv_3' })).toEqual({ claimed: true });
        expect(await repository.claimOpenConversation({ ...claim, contactId: 'ct_B', conversationId: 'cv_4' })).toEqual({ claimed: true });
        await repository.releaseOpenConversation(claim);
        await repository.releaseOpenConversation(claim);
        expect(await repository.claimOpenConversation({ ...claim, conversationId: 'cv_5' }, 'cv_1')).toEqual({ claimed: true });
        expect(await repository.claimOpenConversation({ ...claim, conversationId: 'cv_6' })).toMatchObject({
          claimed: false,
          holder: { conversationId: 'cv_5' },
        });
      });

      it('claims are read back strongly consistent, per organization', async () => {
        const organizationId = freshOrganization();
        const phoneClaim = { organizationId, phoneNumber: '15551112222', contactId: 'ct_A', claimedAt: at };
        expect(await repository.getContactPhoneNumberClaim(organizationId, phoneClaim.phoneNumber)).toBeUndefined();
        await repository.claimContactPhoneNumber(phoneClaim);
        expect(await repository.getContactPhoneNumberClaim(organizationId, phoneClaim.phoneNumber)).toEqual(phoneClaim);
        expect(await repository.getContactPhoneNumberClaim(freshOrganization(), phoneClaim.phoneNumber)).toBeUndefined();

        const pairClaim = { organizationId, senderPhoneNumber: '15550001111', contactId: 'ct_A', conversationId: 'cv_1', claimedAt: at };
        expect(await repository.getOpenConversationClaim(organizationId, pairClaim.senderPhoneNumber, 'ct_A')).toBeUndefined();
        await repository.claimOpenConversation(pairClaim);
        expect(await repository.getOpenConversationClaim(organizationId, pairClaim.senderPhoneNumber, 'ct_A')).toEqual(pairClaim);
        expect(await repository.getOpenConversationClaim(organizationId, '15550002222', 'ct_A')).toBeUndefined();
        await repository.releaseOpenConversation(pairClaim);
        expect(await repository.getOpenConversationClaim(organizationId, pairClaim.senderPhoneNumber, 'ct_A')).toBeUndefined();
      });
    });

    describe('contacts', () => {
      it('inserts once, reads back exactly, refuses an id in use', async () => {
        const organizationId = freshOrganization();
        const ann = contact(organizationId, 'ct_0001', { email: 'ann@example.com', tags: ['vip', 'berlin'] });
        await repository.insertContact(ann);
        expect(await repository.getContact(organizationId, 'ct_0001')).toEqual(ann);
        await expect(repository.insertContact({ ...ann, name: 'Again' })).rejects.toThrow();
        expect(await repository.getContact(organizationId, 'ct_0001')).toEqual(ann);
        expect(await repository.getContact(organizationId, 'ct_missing')).toBeUndefined();
        expect(await repository.getContact(freshOrganization(), 'ct_0001')).toBeUndefined();
      });

      it('lists newest first (descending id) in offset windows, with totals, filtered by tag or search', async () => {
        const organizationId = freshOrganization();
        const all = [
          contact(organizationId, 'ct_0001', { name: 'Ann Alpha', tags: ['vip'] }),
          contact(organizationId, 'ct_0002', { name: 'Bob Beta' }),
          contact(organizationId, 'ct_0003', { name: 'Cleo Alpha', tags: ['vip', 'late'] }),
          contact(organizationId, 'ct_0004', { name: 'Dan Delta' }),
        ];
        for (const each of all) await repository.insertContact(each);
        await repository.insertContact(contact(freshOrganization(), 'ct_0005'));

        const ids = (result: { items: Contact[] }) => result.items.map((item) => item.contactId);
        const everything = await repository.listContacts(organizationId, {}, { offset: 0, limit: 10 });
        expect(everything).toEqual({ items: [...all].reverse(), total: 4 });
        const window = await repository.listContacts(organizationId, {}, { offset: 1, limit: 2 });
        expect([ids(window), window.total]).toEqual([['ct_0003', 'ct_0002'], 4]);
        const beyond = await repository.listContacts(organizationId, {}, { offset: 10, limit: 2 });
        expect(beyond).toEqual({ items: [], total: 4 });

        const tagged = await repository.listContacts(organizationId, { tag: 'vip' }, { offset: 0, limit: 1 });
        expect([ids(tagged), tagged.total]).toEqual([['ct_0003'], 2]);
        const searched = await repository.listContacts(organizationId, { search: 'alpha' }, { offset: 1, limit: 5 });
        expect([ids(searched), searched.total]).toEqual([['ct_0001'], 2]);
        const byDigits = await repository.listContacts(organizationId, { search: '0000004' }, { offset: 0, limit: 5 });
        expect([ids(byDigits), byDigits.total]).toEqual([['ct_0004'], 1]);
        expect(await repository.listContacts(freshOrganization(), {}, { offset: 0, limit: 5 })).toEqual({ items: [], total: 0 });
      });
    });

    describe('contacts read as an audience', () => {
      it('reads every contact oldest first in pages after a cursor, never another organization’s', async () => {
        const organizationId = freshOrganization();
        const all = ['ct_0001', 'ct_0002', 'ct_0003'].map((id) => contact(organizationId, id));
        for (const each of [...all].reverse()) await repository.insertContact(each);
        await repository.insertContact(contact(freshOrganization(), 'ct_0000'));
        const first = await repository.readContacts(organizationId, { limit: 2 });
        expect(first.contacts).toEqual(all.slice(0, 2));
        expect(first.nextCursor).toBe('ct_0002');
        expect(await repository.readContacts(organizationId, { limit: 2, cursor: first.nextCursor })).toEqual({ contacts: all.slice(2) });
        expect(await repository.readContacts(organizationId, { limit: 3 })).toEqual({ contacts: all });
        expect(await repository.readContacts(freshOrganization(), { limit: 3 })).toEqual({ contacts: [] });
      });
    });

    describe('conversations', () => {
      it('inserts once, reads back exactly, refuses an id in use', async () => {
        const organizationId = freshOrganization();
        const open = conversation(organizationId, 'cv_0001', 'ct_1');
        await repository.insertConversation(open);
        expect(await repository.getConversation(organizationId, 'cv_0001')).toEqual(open);
        await expect(repository.insertConversation({ ...open, contactId: 'ct_2' })).rejects.toThrow();
        expect(await repository.getConversation(organizationId, 'cv_0001')).toEqual(open);
        expect(await repository.getConversation(freshOrganization(), 'cv_0001')).toBeUndefined();
      });

      it('changes status only from the other status, setting and clearing closedAt', async () => {
        const organizationId = freshOrganization();
        const open = conversation(organizationId, 'cv_0001', 'ct_1');
        await repository.insertConversation(open);
        expect(await repository.changeConversationStatus(organizationId, 'cv_0001', 'open', later)).toBeUndefined();
        const closed = await repository.changeConversationStatus(organizationId, 'cv_0001', 'closed', later);
        expect(closed).toEqual({ ...open, status: 'closed', updatedAt: later, closedAt: later });
        expect(await repository.getConversation(organizationId, 'cv_0001')).toEqual(closed);
        expect(await repository.changeConversationStatus(organizationId, 'cv_0001', 'closed', later)).toBeUndefined();
        const reopened = await repository.changeConversationStatus(organizationId, 'cv_0001', 'open', at);
        expect(reopened).toEqual({ ...open, updatedAt: at });
        expect(await repository.getConversation(organizationId, 'cv_0001')).toEqual(reopened);
        expect(await repository.changeConversationStatus(organizationId, 'cv_missing', 'closed', later)).toBeUndefined();
        expect(await repository.getConversation(organizationId, 'cv_missing')).toBeUndefined();
      });

      it('records the latest inbound time only forwards, on existing conversations only', async () => {
        const organizationId = freshOrganization();
        const open = conversation(organizationId, 'cv_0001', 'ct_1');
        await repository.insertConversation(open);
        const t1 = '2026-05-04T10:00:00.000Z';
        const t2 = '2026-05-04T11:00:00.000Z';
        expect(await repository.recordInboundAt(organizationId, 'cv_0001', t1, later)).toBe(true);
        expect(await repository.getConversation(organizationId, 'cv_0001')).toEqual({ ...open, lastInboundAt: t1, lastMessageAt: t1, updatedAt: later });
        // The same time again (a redelivery) and an older one change nothing.
        expect(await repository.recordInboundAt(organizationId, 'cv_0001', t1, t2)).toBe(false);
        expect(await repository.recordInboundAt(organizationId, 'cv_0001', at, t2)).toBe(false);
        expect(await repository.getConversation(organizationId, 'cv_0001')).toEqual({ ...open, lastInboundAt: t1, lastMessageAt: t1, updatedAt: later });
        expect(await repository.recordInboundAt(organizationId, 'cv_0001', t2, t2)).toBe(true);
        expect(await repository.getConversation(organizationId, 'cv_0001')).toMatchObject({ lastInboundAt: t2, lastMessageAt: t2, updatedAt: t2 });
        // Never creates a conversation.
        expect(await repository.recordInboundAt(organizationId, 'cv_missing', t2, t2)).toBe(false);
        expect(await repository.getConversation(organizationId, 'cv_missing')).toBeUndefined();
        expect(await repository.recordInboundAt(freshOrganization(), 'cv_0001', t2, t2)).toBe(false);
      });

      it('lists newest first with totals, by status and by contact', async () => {
        const organizationId = freshOrganization();
        const all = [
          conversation(organizationId, 'cv_0001', 'ct_1'),
          conversation(organizationId, 'cv_0002', 'ct_2'),
          conversation(organizationId, 'cv_0003', 'ct_1'),
          conversation(organizationId, 'cv_0004', 'ct_1'),
        ];
        for (const each of all) await repository.insertConversation(each);
        await repository.changeConversationStatus(organizationId, 'cv_0003', 'closed', later);
        await repository.insertConversation(conversation(freshOrganization(), 'cv_0005', 'ct_1'));

        const ids = (result: { items: Conversation[] }) => result.items.map((item) => item.conversationId);
        const everything = await repository.listConversations(organizationId, {}, { offset: 0, limit: 10 });
        expect([ids(everything), everything.total]).toEqual([['cv_0004', 'cv_0003', 'cv_0002', 'cv_0001'], 4]);
        const open = await repository.listConversations(organizationId, { status: 'open' }, { offset: 1, limit: 5 });
        expect([ids(open), open.total]).toEqual([['cv_0002', 'cv_0001'], 3]);
        const closed = await repository.listConversations(organizationId, { status: 'closed' }, { offset: 0, limit: 5 });
        expect([ids(closed), closed.total]).toEqual([['cv_0003'], 1]);
        const ofContact = await repository.listConversations(organizationId, { contactId: 'ct_1' }, { offset: 0, limit: 2 });
        expect([ids(ofContact), ofContact.total]).toEqual([['cv_0004', 'cv_0003'], 3]);
        const openOfContact = await repository.listConversations(organizationId, { contactId: 'ct_1', status: 'open' }, { offset: 0, limit: 5 });
        expect([ids(openOfContact), openOfContact.total]).toEqual([['cv_0004', 'cv_0001'], 2]);
      });
    });
  });
}
