/**
 * Records a message a customer wrote to one of the organization's sender numbers (Meta's webhook,
 * applied by the delivery-events processor): the contact (created when new), the open conversation of
 * (sender, contact) (opened when none is), and the conversation's `lastInboundAt`, which opens
 * WhatsApp's 24-hour customer-service window (service-window.ts).
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
import { createContact } from './contact-use-cases';
import { createConversation, type ConversationPorts } from './conversation-use-cases';
import { ContactAlreadyExistsError, ConversationAlreadyOpenError, InboxRecordPendingError } from './errors';
import type { Contact, Conversation } from './inbox-entities';
import { maxNameLength } from './inbox.schema';
import { lastInboundAtOfPair } from './service-window';

export interface RecordInboundPorts extends ConversationPorts {
  /** Waits before reading again a record a concurrent writer has claimed but not written yet. */
  sleep(ms: number): Promise<void>;
}

export interface InboundMessageRecord {
  organizationId: string;
  /** The organization's sender number that received the message (digits). */
  senderPhoneNumber: string;
  /** The customer's WhatsApp number (digits). */
  customerPhoneNumber: string;
  /** The customer's WhatsApp profile name, when Meta gave one. */
  profileName?: string;
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

/** The v1 API requires a name; a customer without a WhatsApp profile name is named by their number. */
const contactNameOf = (record: InboundMessageRecord): string => {
  const name = record.profileName?.trim().slice(0, maxNameLength).trim();
  return name ? name : record.customerPhoneNumber;
};

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
  const { organizationId, customerPhoneNumber } = record;
  return whilePending(ports, 'contact', async () => {
    const claim = await ports.inbox.getContactPhoneNumberClaim(organizationId, customerPhoneNumber);
    const existing = claim && (await ports.inbox.getContact(organizationId, claim.contactId));
    if (existing) return existing;
    try {
      // No claim, or one whose contact is missing: the create path takes over an abandoned claim.
      return await createContact(ports, { organizationId, phoneNumber: customerPhoneNumber, name: contactNameOf(record) });
    } catch (error) {
      if (error instanceof ContactAlreadyExistsError) return 'pending';
      throw error;
    }
  });
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
  const recorded = await ports.inbox.recordInboundAt(record.organizationId, conversation.conversationId, record.sentAt.toISOString(), ports.clock.now().toISOString());
  return { contact, conversation, recorded };
}
