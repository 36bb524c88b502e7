/**
 * WhatsApp's customer-service window as the inbox knows it: the latest time a contact wrote to one of
 * the organization's sender numbers, recorded on conversations from Meta's webhooks
 * (record-inbound-message.ts). The rule built on it (24 hours, free-form sends) belongs to the
 * sending side (shared/broadcast/send-freeform-message.ts); this only answers what was recorded.
 */
import { counterpartOf, type ContactBook } from './contact-book';
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
 * When the customer named by `customerKey` (a phone's digits or a BSUID) last wrote to
 * `senderPhoneNumber`, as recorded: the latest over the contact holding the key and, when Meta paired
 * the key with another identity (the contact book), the contact holding that one (two contacts of
 * one person made before the pair was known are both read). Undefined when nothing is recorded.
 *
 * @example
 * await lastInboundAtOf(inbox, { organizationId: 'org_1', senderPhoneNumber: '15550100001', customerKey: 'US.1349' }, contactBook);
 */
export async function lastInboundAtOf(
  inbox: InboxRepository,
  input: { organizationId: string; senderPhoneNumber: string; customerKey: string },
  contactBook?: Pick<ContactBook, 'pairOf'>,
): Promise<Date | undefined> {
  const { organizationId, senderPhoneNumber, customerKey } = input;
  const pair = await contactBook?.pairOf(organizationId, customerKey);
  const keys = pair ? [customerKey, counterpartOf(pair, customerKey)] : [customerKey];
  const claims = await Promise.all(keys.map((key) => inbox.getContactPhoneNumberClaim(organizationId, key)));
  // A claim whose contact was never written has no conversations either: nothing recorded.
  const contactIds = [...new Set(claims.flatMap((claim) => (claim ? [claim.contactId] : [])))];
  const times = await Promise.all(contactIds.map((contactId) => lastInboundAtOfPair(inbox, { organizationId, senderPhoneNumber, contactId })));
  const latest = times.reduce<string | undefined>(later, undefined);
  return latest === undefined ? undefined : new Date(latest);
}
