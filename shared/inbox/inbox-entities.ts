/**
 * The inbox behind the generic v1 API: an organization's contacts and its conversations between
 * one of its sender numbers and a contact. Plain data; persistence lives behind InboxRepository.
 */

export type AttributeValue = string | number | boolean;

export interface Contact {
  /** `ct_…`, time-ordered. */
  contactId: string;
  organizationId: string;
  /**
   * International number, digits only, country code included; unique per organization. Null for a
   * user Meta knows only by business-scoped user id (a contact made from their inbound message).
   */
  phoneNumber: string | null;
  /** Meta's business-scoped user id (BSUID) of the user, when known; unique per organization like the number. */
  userId?: string;
  /** The user's WhatsApp username as Meta last showed it: display only, never an identifier. */
  username?: string;
  name: string;
  /** Trimmed, lower case. */
  email?: string;
  /** Lower case, unique, in the order given. */
  tags: string[];
  attributes: Record<string, AttributeValue>;
  createdAt: string;
  updatedAt: string;
}

export type ConversationStatus = 'open' | 'closed';
export const conversationStatuses: readonly ConversationStatus[] = ['open', 'closed'];

export interface Conversation {
  /** `cv_…`, time-ordered. */
  conversationId: string;
  organizationId: string;
  contactId: string;
  /** One of the organization's sender numbers (digits). */
  senderPhoneNumber: string;
  status: ConversationStatus;
  createdAt: string;
  updatedAt: string;
  /** Set when the conversation was last closed; absent while open. */
  closedAt?: string;
  /** Time of the last message; null until messages are exchanged (inbound messages are the only ones recorded yet). */
  lastMessageAt: string | null;
  /**
   * Meta's time of the contact's latest message to this sender, recorded from webhooks (never moves
   * back); it opens WhatsApp's 24-hour customer-service window. Absent: none recorded.
   */
  lastInboundAt?: string;
}

export interface ContactFilter {
  /** Lower case; contacts carrying this tag. */
  tag?: string;
  /** Case-insensitive part of the name, or digits of the phone number. */
  search?: string;
}

export interface ConversationFilter {
  status?: ConversationStatus;
  contactId?: string;
}

/** Offset window of a list: `offset` items skipped, at most `limit` returned. */
export interface ListWindow {
  offset: number;
  limit: number;
}

export interface ListResult<T> {
  items: T[];
  /** Items matching the filter, over all pages. */
  total: number;
}

export const defaultPageSize = 20;
export const maxPageSize = 100;

export const normalizeTag = (tag: string): string => tag.trim().toLowerCase();

/** Digits of a search text that reads as a phone number (`+44 20 7946`, `(555) 010`), else undefined. */
export function searchDigits(search: string): string | undefined {
  if (!/^[\d\s()+.-]+$/.test(search)) return undefined;
  const digits = search.replace(/\D/g, '');
  return digits === '' ? undefined : digits;
}

/** The one definition of the contact filters, shared by every repository implementation. */
export function matchesContactFilter(contact: Pick<Contact, 'name' | 'phoneNumber' | 'tags'>, filter: ContactFilter): boolean {
  if (filter.tag !== undefined && !contact.tags.includes(normalizeTag(filter.tag))) return false;
  if (filter.search !== undefined) {
    const text = filter.search.trim().toLowerCase();
    const digits = searchDigits(text);
    const byName = text !== '' && contact.name.toLowerCase().includes(text);
    const byNumber = digits !== undefined && contact.phoneNumber !== null && contact.phoneNumber.includes(digits);
    if (!byName && !byNumber) return false;
  }
  return true;
}

export function matchesConversationFilter(conversation: Pick<Conversation, 'status' | 'contactId'>, filter: ConversationFilter): boolean {
  if (filter.status !== undefined && conversation.status !== filter.status) return false;
  if (filter.contactId !== undefined && conversation.contactId !== filter.contactId) return false;
  return true;
}
