/**
 * WhatsApp's customer-service window as the inbox knows it: the latest time a contact wrote to one of
 * the organization's sender numbers, recorded on conversations from Meta's webhooks
 * (record-inbound-message.ts). The rule built on it (24 hours, free-form sends) belongs to the
 * sending side (shared/broadcast/send-freeform-message.ts); this only answers what was recorded.
 */
import type { InboxRepository } from './ports';

/** A contact's conversations are few (one open at a time per sender): they are read whole. */
const everyConversation = { offset: 0, limit: Number.MAX_SAFE_INTEGER };

const later = (a: string | undefined, b: string | undefined): string | undefined => (a === undefined ? b : b === undefined || a >= b ? a : b);

/**
 * The latest `lastInboundAt` over the conversations of (sender, contact). The open conversation, where
 * new inbound messages land, is read strongly consistent through its claim; closed ones (which no
 * longer change) through the contact's index, which on AWS may lag a write by a moment.
 */
export async function lastInboundAtOfPair(
  inbox: InboxRepository,
  input: { organizationId: string; senderPhoneNumber: string; contactId: string },
): Promise<string | undefined> {
  const { organizationId, senderPhoneNumber, contactId } = input;
  const [claim, all] = await Promise.all([
    inbox.getOpenConversationClaim(organizationId, senderPhoneNumber, contactId),
    inbox.listConversations(organizationId, { contactId }, everyConversation),
  ]);
  const open = claim ? await inbox.getConversation(organizationId, claim.conversationId) : undefined;
  return all.items
    .filter((conversation) => conversation.senderPhoneNumber === senderPhoneNumber)
    .reduce<string | undefined>((latest, conversation) => later(latest, conversation.lastInboundAt), open?.lastInboundAt);
}

/**
 * When `customerPhoneNumber` last wrote to `senderPhoneNumber`, as recorded; undefined when nothing
 * is recorded (no such contact, or none of its conversations with that sender has an inbound time).
 */
export async function lastInboundAtOf(
  inbox: InboxRepository,
  input: { organizationId: string; senderPhoneNumber: string; customerPhoneNumber: string },
): Promise<Date | undefined> {
  const claim = await inbox.getContactPhoneNumberClaim(input.organizationId, input.customerPhoneNumber);
  // A claim whose contact was never written has no conversations either: nothing recorded.
  if (!claim) return undefined;
  const latest = await lastInboundAtOfPair(inbox, { organizationId: input.organizationId, senderPhoneNumber: input.senderPhoneNumber, contactId: claim.contactId });
  return latest === undefined ? undefined : new Date(latest);
}
