/** How contacts and conversations appear in v1 responses: stable shapes, absent values as null. */
import type { Contact, Conversation } from '../../shared/inbox/inbox-entities';
import type { Page } from '../../shared/inbox/contact-use-cases';
import type { OptOut } from '../../shared/inbox/opt-outs';
import { v1Envelope } from '../../shared/http/surface-responses';
import { isBusinessScopedUserId } from '../../shared/recipients/business-scoped-user-id';

/**
 * `phoneNumber` is null for a user Meta knows only by BSUID; `userId` (the BSUID) and `username`
 * (display only) are added only when known, so a contact without them keeps its earlier shape.
 */
export const contactResource = (contact: Contact) => ({
  id: contact.contactId,
  phoneNumber: contact.phoneNumber,
  ...(contact.userId === undefined ? {} : { userId: contact.userId }),
  ...(contact.username === undefined ? {} : { username: contact.username }),
  name: contact.name,
  email: contact.email ?? null,
  tags: contact.tags,
  attributes: contact.attributes,
  createdAt: contact.createdAt,
  updatedAt: contact.updatedAt,
});

export const conversationResource = (conversation: Conversation) => ({
  id: conversation.conversationId,
  contactId: conversation.contactId,
  senderPhoneNumber: conversation.senderPhoneNumber,
  status: conversation.status,
  createdAt: conversation.createdAt,
  updatedAt: conversation.updatedAt,
  closedAt: conversation.closedAt ?? null,
  lastMessageAt: conversation.lastMessageAt ?? null,
  // Added with inbound messages: when the contact last wrote to this sender (the 24-hour window's start).
  lastInboundAt: conversation.lastInboundAt ?? null,
});

export const pageBody = <T>(page: Page<T>, toResource: (item: T) => unknown) =>
  v1Envelope(page.items.map(toResource), { page: page.page, pageSize: page.pageSize, total: page.total });

/** An entry of a BSUID (a STOP of a user Meta knows only by it): `phoneNumber` null and `userId`; a number's entry as before. */
export const optOutResource = (optOut: OptOut) =>
  isBusinessScopedUserId(optOut.phoneNumber)
    ? { phoneNumber: null, userId: optOut.phoneNumber, source: optOut.source, createdAt: optOut.createdAt }
    : { phoneNumber: optOut.phoneNumber, source: optOut.source, createdAt: optOut.createdAt };
