/**
 * Records a message a customer wrote to one of the organization's sender numbers (Meta's webhook,
 * applied by the delivery-events processor): the contact (created when new), the open conversation of
 * (sender, contact) (opened when none is), and the conversation's `lastInboundAt`, which opens
 * WhatsApp's 24-hour customer-service window (service-window.ts).
 *
 * The sender is named by number, BSUID or both (docs/ORGANIZATIONS-AND-V1.md "One identity per
 * user"): the contact is found by the claim of either, or of the identity Meta paired it with, and
 * gains what it lacks.
 *
 * Idempotent, so a redelivered webhook batch is simply applied again:
 * - the contact and the open conversation are found, and created, through the same uniqueness claims
 *   as the v1 API (its create use cases are reused), so neither a redelivery nor a concurrent
 *   `POST /v1/contacts` makes a second contact or conversation, and the counters stay exact;
 * - `lastInboundAt` is a max-register (one conditional update): an older or repeated message never
 *   moves it back;
 * - a message no newer than what the pair already recorded opens nothing (a redelivery after the
 *   conversation was closed, or a late old message, does not open a new conversation).
 */
import { counterpartOf, type ContactBook } from './contact-book';
import { createContact } from './contact-use-cases';
import { createConversation, type ConversationPorts } from './conversation-use-cases';
import { ContactAlreadyExistsError, ConversationAlreadyOpenError, InboxRecordPendingError } from './errors';
import type { Contact, Conversation } from './inbox-entities';
import type { ContactIdentity } from './ports';
import { maxNameLength } from './inbox.schema';
import { lastInboundAtOfPair } from './service-window';

export interface RecordInboundPorts extends ConversationPorts {
  /** Waits before reading again a record a concurrent writer has claimed but not written yet. */
  sleep(ms: number): Promise<void>;
  /** Meta's BSUID ↔ phone pairs: a message naming one identity finds the contact of the other. Absent: not consulted. */
  contactBook?: Pick<ContactBook, 'pairOf'>;
}

export interface InboundMessageRecord {
  organizationId: string;
  /** The organization's sender number that received the message (digits). */
  senderPhoneNumber: string;
  /** The customer's WhatsApp number (digits); absent when Meta withholds it. */
  customerPhoneNumber?: string;
  /** The customer's business-scoped user id, when Meta gave it (at least one of the two is given). */
  customerUserId?: string;
  /** The customer's WhatsApp profile name, when Meta gave one. */
  profileName?: string;
  /** The customer's username (display only). */
  username?: string;
  /** Meta's time of the message. */
  sentAt: Date;
}

export interface InboundMessageOutcome {
  contact: Contact;
  /** Undefined when the message was no newer than the pair's recorded inbound time (nothing to do). */
  conversation?: Conversation;
  /** True when this message moved the conversation's `lastInboundAt` forward. */
  recorded: boolean;
}

/**
 * Waits (ms) before each new attempt when a concurrent writer holds a claim whose record is not
 * written yet (two messages of a new customer applied at once): it writes within milliseconds.
 * After the last, InboxRecordPendingError: the batch is redelivered and applied again.
 */
export const pendingClaimWaitsMs: readonly number[] = [50, 200, 500];

/** The v1 API requires a name: the WhatsApp profile name, else the username, else the number or BSUID. */
const contactNameOf = (record: InboundMessageRecord): string => {
  const name = (record.profileName?.trim() || record.username?.trim() || '').slice(0, maxNameLength).trim();
  return name ? name : (record.customerPhoneNumber ?? record.customerUserId)!;
};

/** The sender's recipient keys, the BSUID first (it is in every webhook since April 2026; the number may be withheld). */
const keysOf = (record: InboundMessageRecord): string[] =>
  [record.customerUserId, record.customerPhoneNumber].filter((key): key is string => key !== undefined);

async function whilePending<T>(ports: RecordInboundPorts, what: 'contact' | 'conversation', attempt: () => Promise<T | 'pending'>): Promise<T> {
  for (let round = 0; ; round += 1) {
    const result = await attempt();
    if (result !== 'pending') return result;
    const wait = pendingClaimWaitsMs[round];
    if (wait === undefined) throw new InboxRecordPendingError(what);
    await ports.sleep(wait);
  }
}

async function contactOf(ports: RecordInboundPorts, record: InboundMessageRecord): Promise<Contact> {
  const { organizationId, customerPhoneNumber, customerUserId, username } = record;
  if (customerPhoneNumber === undefined && customerUserId === undefined) throw new TypeError('An inbound message names its sender by number or BSUID');
  return whilePending(ports, 'contact', async () => {
    const existing = await existingContactOf(ports, organizationId, keysOf(record));
    if (existing) return withIdentityOf(ports, record, existing);
    try {
      // No claim, or one whose contact is missing: the create path takes over an abandoned claim.
      const created = await createContact(ports, {
        organizationId,
        phoneNumber: customerPhoneNumber ?? null,
        ...(customerUserId === undefined ? {} : { userId: customerUserId }),
        ...(username === undefined ? {} : { username }),
        name: contactNameOf(record),
      });
      // createContact claimed the number; the BSUID of a contact holding both is claimed too.
      if (customerPhoneNumber !== undefined && customerUserId !== undefined) await claimFor(ports, created, customerUserId);
      return created;
    } catch (error) {
      if (error instanceof ContactAlreadyExistsError) return 'pending';
      throw error;
    }
  });
}

/**
 * The contact of the sender: by the claim of the BSUID, then of the number, then (when the message
 * names only one of them) of the identity Meta paired it with. Two contacts made for one person
 * before the pair was known are not merged: the first found answers.
 */
export async function existingContactOf(
  ports: Pick<RecordInboundPorts, 'inbox' | 'contactBook'>,
  organizationId: string,
  keys: readonly string[],
): Promise<Contact | undefined> {
  const byClaim = async (key: string) => {
    const claim = await ports.inbox.getContactPhoneNumberClaim(organizationId, key);
    return claim && (await ports.inbox.getContact(organizationId, claim.contactId));
  };
  for (const key of keys) {
    const contact = await byClaim(key);
    if (contact) return contact;
  }
  if (keys.length !== 1 || !ports.contactBook) return undefined;
  const pair = await ports.contactBook.pairOf(organizationId, keys[0]!);
  return pair ? byClaim(counterpartOf(pair, keys[0]!)) : undefined;
}

/** Claims `key` for the contact; true when the contact holds it (now or already), false when another contact does. */
export async function claimFor(ports: Pick<RecordInboundPorts, 'inbox' | 'clock'>, contact: Contact, key: string): Promise<boolean> {
  const claim = { organizationId: contact.organizationId, phoneNumber: key, contactId: contact.contactId, claimedAt: ports.clock.now().toISOString() };
  const outcome = await ports.inbox.claimContactPhoneNumber(claim);
  return outcome.claimed || outcome.holder.contactId === contact.contactId;
}

/**
 * Fills what the contact lacks of what the message tells (its number, its BSUID: each claimed for it
 * first, so no other contact holds it; the username as shown). Idempotent, and no write at all when
 * the contact already holds everything.
 */
async function withIdentityOf(ports: RecordInboundPorts, record: InboundMessageRecord, contact: Contact): Promise<Contact> {
  const identity: ContactIdentity = {};
  if (record.customerUserId !== undefined && contact.userId === undefined && (await claimFor(ports, contact, record.customerUserId)))
    identity.userId = record.customerUserId;
  if (record.customerPhoneNumber !== undefined && contact.phoneNumber === null && (await claimFor(ports, contact, record.customerPhoneNumber))) {
    identity.phoneNumber = record.customerPhoneNumber;
  }
  if (record.username !== undefined && record.username !== contact.username) identity.username = record.username;
  if (Object.keys(identity).length === 0) return contact;
  const updated = await ports.inbox.addContactIdentity(contact.organizationId, contact.contactId, identity, ports.clock.now().toISOString());
  return updated ?? contact;
}

async function openConversationOf(ports: RecordInboundPorts, record: InboundMessageRecord, contact: Contact): Promise<Conversation | undefined> {
  const { organizationId, senderPhoneNumber } = record;
  const { contactId } = contact;
  const claim = await ports.inbox.getOpenConversationClaim(organizationId, senderPhoneNumber, contactId);
  const current = claim && (await ports.inbox.getConversation(organizationId, claim.conversationId));
  if (current?.status === 'open') return current;

  const recorded = await lastInboundAtOfPair(ports.inbox, { organizationId, senderPhoneNumber, contactId });
  if (recorded !== undefined && recorded >= record.sentAt.toISOString()) return undefined;

  return whilePending(ports, 'conversation', async () => {
    try {
      return (await createConversation(ports, { organizationId, contactId, senderPhoneNumber })).conversation;
    } catch (error) {
      if (error instanceof ConversationAlreadyOpenError) return 'pending';
      throw error;
    }
  });
}

export async function recordInboundMessage(ports: RecordInboundPorts, record: InboundMessageRecord): Promise<InboundMessageOutcome> {
  const contact = await contactOf(ports, record);
  const conversation = await openConversationOf(ports, record, contact);
  if (!conversation) return { contact, recorded: false };
  const recorded = await ports.inbox.recordInboundAt(
    record.organizationId,
    conversation.conversationId,
    record.sentAt.toISOString(),
    ports.clock.now().toISOString(),
  );
  return { contact, conversation, recorded };
}
