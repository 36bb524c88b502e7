/**
 * An in-memory InboxRepository with the DynamoDB adapter's observable semantics (conditional
 * claims, put-if-absent inserts, conditional status changes, newest-first lists), for unit tests.
 * `failOnce(method)` makes the next call of a method throw, to simulate a crash between two writes.
 */
import {
  matchesContactFilter,
  matchesConversationFilter,
  type Contact,
  type ContactFilter,
  type Conversation,
  type ConversationFilter,
  type ConversationStatus,
  type ListResult,
  type ListWindow,
} from '../../shared/inbox/inbox-entities';
import type { ClaimOutcome, ContactIdentity, ContactPhoneNumberClaim, InboxRepository, OpenConversationClaim } from '../../shared/inbox/ports';

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export class InMemoryInboxRepository implements InboxRepository {
  readonly contacts = new Map<string, Contact>();
  readonly phoneClaims = new Map<string, ContactPhoneNumberClaim>();
  readonly conversations = new Map<string, Conversation>();
  readonly openClaims = new Map<string, OpenConversationClaim>();
  private readonly failures = new Map<string, Error>();

  failOnce(method: keyof InboxRepository, error = new Error(`${method} crashed`)): void {
    this.failures.set(method, error);
  }

  private touch(method: keyof InboxRepository): void {
    const failure = this.failures.get(method);
    if (failure) {
      this.failures.delete(method);
      throw failure;
    }
  }

  private static claim<C>(store: Map<string, C>, key: string, claim: C, holderOf: (claim: C) => string, replacing?: string): ClaimOutcome<C> {
    const current = store.get(key);
    const allowed = replacing === undefined ? current === undefined : current !== undefined && holderOf(current) === replacing;
    if (!allowed && current) return { claimed: false, holder: copy(current) };
    // Allowed, or the claim to replace vanished meanwhile (the adapter then claims afresh).
    store.set(key, copy(claim));
    return { claimed: true };
  }

  async claimContactPhoneNumber(claim: ContactPhoneNumberClaim, replacingContactId?: string): Promise<ClaimOutcome<ContactPhoneNumberClaim>> {
    this.touch('claimContactPhoneNumber');
    return InMemoryInboxRepository.claim(this.phoneClaims, `${claim.organizationId}#${claim.phoneNumber}`, claim, (held) => held.contactId, replacingContactId);
  }

  async getContactPhoneNumberClaim(organizationId: string, phoneNumber: string): Promise<ContactPhoneNumberClaim | undefined> {
    this.touch('getContactPhoneNumberClaim');
    const claim = this.phoneClaims.get(`${organizationId}#${phoneNumber}`);
    return claim && copy(claim);
  }

  async insertContact(contact: Contact): Promise<void> {
    this.touch('insertContact');
    const key = `${contact.organizationId}#${contact.contactId}`;
    if (this.contacts.has(key)) throw new Error(`contact ${contact.contactId} exists`);
    this.contacts.set(key, copy(contact));
  }

  async getContact(organizationId: string, contactId: string): Promise<Contact | undefined> {
    this.touch('getContact');
    const contact = this.contacts.get(`${organizationId}#${contactId}`);
    return contact && copy(contact);
  }

  async addContactIdentity(organizationId: string, contactId: string, identity: ContactIdentity, at: string): Promise<Contact | undefined> {
    this.touch('addContactIdentity');
    const key = `${organizationId}#${contactId}`;
    const stored = this.contacts.get(key);
    if (!stored) return undefined;
    const userId = identity.replace ? (identity.userId ?? stored.userId) : (stored.userId ?? identity.userId);
    const updated: Contact = {
      ...stored,
      phoneNumber: (identity.replace ? (identity.phoneNumber ?? stored.phoneNumber) : (stored.phoneNumber ?? identity.phoneNumber)) ?? null,
      ...(userId === undefined ? {} : { userId }),
      ...(identity.username !== undefined ? { username: identity.username } : {}),
      updatedAt: at,
    };
    this.contacts.set(key, copy(updated));
    return copy(updated);
  }

  async listContacts(organizationId: string, filter: ContactFilter, window: ListWindow): Promise<ListResult<Contact>> {
    this.touch('listContacts');
    const matching = [...this.contacts.values()]
      .filter((contact) => contact.organizationId === organizationId && matchesContactFilter(contact, filter))
      .sort((a, b) => b.contactId.localeCompare(a.contactId));
    return { items: copy(matching.slice(window.offset, window.offset + window.limit)), total: matching.length };
  }

  async readContacts(organizationId: string, page: { limit: number; cursor?: string }): Promise<{ contacts: Contact[]; nextCursor?: string }> {
    this.touch('readContacts');
    const after = [...this.contacts.values()]
      .filter((contact) => contact.organizationId === organizationId && (page.cursor === undefined || contact.contactId > page.cursor))
      .sort((a, b) => a.contactId.localeCompare(b.contactId));
    const contacts = copy(after.slice(0, page.limit));
    return after.length > page.limit ? { contacts, nextCursor: contacts.at(-1)!.contactId } : { contacts };
  }

  async claimOpenConversation(claim: OpenConversationClaim, replacingConversationId?: string): Promise<ClaimOutcome<OpenConversationClaim>> {
    this.touch('claimOpenConversation');
    return InMemoryInboxRepository.claim(
      this.openClaims,
      InMemoryInboxRepository.pairKey(claim),
      claim,
      (held) => held.conversationId,
      replacingConversationId,
    );
  }

  async getOpenConversationClaim(organizationId: string, senderPhoneNumber: string, contactId: string): Promise<OpenConversationClaim | undefined> {
    this.touch('getOpenConversationClaim');
    const claim = this.openClaims.get(InMemoryInboxRepository.pairKey({ organizationId, senderPhoneNumber, contactId }));
    return claim && copy(claim);
  }

  async releaseOpenConversation(claim: Omit<OpenConversationClaim, 'claimedAt'>): Promise<void> {
    this.touch('releaseOpenConversation');
    const key = InMemoryInboxRepository.pairKey(claim);
    if (this.openClaims.get(key)?.conversationId === claim.conversationId) this.openClaims.delete(key);
  }

  async insertConversation(conversation: Conversation): Promise<void> {
    this.touch('insertConversation');
    const key = `${conversation.organizationId}#${conversation.conversationId}`;
    if (this.conversations.has(key)) throw new Error(`conversation ${conversation.conversationId} exists`);
    this.conversations.set(key, copy(conversation));
  }

  async getConversation(organizationId: string, conversationId: string): Promise<Conversation | undefined> {
    this.touch('getConversation');
    const conversation = this.conversations.get(`${organizationId}#${conversationId}`);
    return conversation && copy(conversation);
  }

  async changeConversationStatus(organizationId: string, conversationId: string, status: ConversationStatus, at: string): Promise<Conversation | undefined> {
    this.touch('changeConversationStatus');
    const conversation = this.conversations.get(`${organizationId}#${conversationId}`);
    if (!conversation || conversation.status === status) return undefined;
    conversation.status = status;
    conversation.updatedAt = at;
    if (status === 'closed') conversation.closedAt = at;
    else delete conversation.closedAt;
    return copy(conversation);
  }

  async recordInboundAt(organizationId: string, conversationId: string, messageAt: string, now: string): Promise<boolean> {
    this.touch('recordInboundAt');
    const conversation = this.conversations.get(`${organizationId}#${conversationId}`);
    if (!conversation || (conversation.lastInboundAt !== undefined && conversation.lastInboundAt >= messageAt)) return false;
    conversation.lastInboundAt = messageAt;
    conversation.lastMessageAt = messageAt;
    conversation.updatedAt = now;
    return true;
  }

  async listConversations(organizationId: string, filter: ConversationFilter, window: ListWindow): Promise<ListResult<Conversation>> {
    this.touch('listConversations');
    const matching = [...this.conversations.values()]
      .filter((conversation) => conversation.organizationId === organizationId && matchesConversationFilter(conversation, filter))
      .sort((a, b) => b.conversationId.localeCompare(a.conversationId));
    return { items: copy(matching.slice(window.offset, window.offset + window.limit)), total: matching.length };
  }

  private static pairKey(claim: Pick<OpenConversationClaim, 'organizationId' | 'senderPhoneNumber' | 'contactId'>): string {
    return `${claim.organizationId}#${claim.senderPhoneNumber}#${claim.contactId}`;
  }
}
