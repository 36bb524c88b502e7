/**
 * Ports of the inbox module: exactly the access patterns its use cases need (docs/DATA-MODEL.md,
 * "Inbox table"). Writes are single-item and conditional; the use cases order them so that a crash
 * between two writes is repaired by the next request (see conversation-use-cases.ts).
 *
 * Every method throws InboxStoreUnavailableError when the store times out or cannot be reached.
 */
import type { Contact, ContactFilter, Conversation, ConversationFilter, ConversationStatus, ListResult, ListWindow } from './inbox-entities';

/**
 * Phone numbers and business-scoped user ids are unique per organization: the first contact to
 * claim one owns it. Both are claimed under their recipient key (shared/recipients/recipient.ts:
 * the digits, or the BSUID itself; the two never collide), in this one claim.
 */
export interface ContactPhoneNumberClaim {
  organizationId: string;
  /** The recipient key claimed: a phone's digits or a BSUID. */
  phoneNumber: string;
  contactId: string;
  claimedAt: string;
}

/** At most one open conversation per sender number and contact: the open one holds this claim. */
export interface OpenConversationClaim {
  organizationId: string;
  senderPhoneNumber: string;
  contactId: string;
  conversationId: string;
  claimedAt: string;
}

/** What an inbound message tells of its sender: any of the number, the BSUID and the username. */
export interface ContactIdentity {
  phoneNumber?: string;
  userId?: string;
  username?: string;
  /** The number and BSUID given replace those stored: the user changed number (their new ids; shared/inbox/identity-change.ts). */
  replace?: boolean;
}

export type ClaimOutcome<Claim> = { claimed: true } | { claimed: false; holder: Claim };

export interface InboxRepository {
  /**
   * Claims the number unless another contact holds it; with `replacingContactId`, takes over a
   * claim only while that contact still holds it (an abandoned claim, see the use case).
   */
  claimContactPhoneNumber(claim: ContactPhoneNumberClaim, replacingContactId?: string): Promise<ClaimOutcome<ContactPhoneNumberClaim>>;
  /** The claim of a phone number (strongly consistent): which contact holds it, if any. */
  getContactPhoneNumberClaim(organizationId: string, phoneNumber: string): Promise<ContactPhoneNumberClaim | undefined>;
  /** Writes a new contact (its id must be unused) and counts it for the organization's total. */
  insertContact(contact: Contact): Promise<void>;
  /** Strongly consistent. */
  getContact(organizationId: string, contactId: string): Promise<Contact | undefined>;
  /**
   * Fills what the contact lacks of a user's identity (one conditional update, idempotent): the
   * phone number and the BSUID only where absent (never replaced, unless `identity.replace`), the
   * username (display) as given.
   * Returns the contact as stored afterwards; undefined when it does not exist.
   */
  addContactIdentity(organizationId: string, contactId: string, identity: ContactIdentity, at: string): Promise<Contact | undefined>;
  /** Newest first. */
  listContacts(organizationId: string, filter: ContactFilter, window: ListWindow): Promise<ListResult<Contact>>;
  /**
   * The organization's contacts oldest first (ascending id), `limit` per page after `cursor` (the
   * last id of the page before): what a campaign reads of the `contacts` audience page by page,
   * each page one Query whatever the list's size.
   */
  readContacts(organizationId: string, page: { limit: number; cursor?: string }): Promise<{ contacts: Contact[]; nextCursor?: string }>;

  claimOpenConversation(claim: OpenConversationClaim, replacingConversationId?: string): Promise<ClaimOutcome<OpenConversationClaim>>;
  /** The claim of the pair's open conversation (strongly consistent), if any. */
  getOpenConversationClaim(organizationId: string, senderPhoneNumber: string, contactId: string): Promise<OpenConversationClaim | undefined>;
  /** Deletes the claim only if this conversation still holds it. */
  releaseOpenConversation(claim: Omit<OpenConversationClaim, 'claimedAt'>): Promise<void>;
  /** Writes a new open conversation (its id must be unused) and counts it. */
  insertConversation(conversation: Conversation): Promise<void>;
  /** Strongly consistent. */
  getConversation(organizationId: string, conversationId: string): Promise<Conversation | undefined>;
  /**
   * Moves the conversation to `status` only if it has the other status (one conditional update),
   * and adjusts the counts. Returns the conversation as stored afterwards, or undefined when it
   * did not exist or already had that status (a concurrent change).
   */
  changeConversationStatus(organizationId: string, conversationId: string, status: ConversationStatus, at: string): Promise<Conversation | undefined>;
  /**
   * Sets `lastInboundAt` and `lastMessageAt` to `messageAt` (and `updatedAt` to `now`) only if the
   * conversation exists and its `lastInboundAt` is absent or older (one conditional update): a
   * redelivered or older message changes nothing. True when it moved the time forward.
   */
  recordInboundAt(organizationId: string, conversationId: string, messageAt: string, now: string): Promise<boolean>;
  /** Newest first. */
  listConversations(organizationId: string, filter: ConversationFilter, window: ListWindow): Promise<ListResult<Conversation>>;
}

/** The organization's sender numbers (digits), from the tenancy module. */
export interface SenderNumbers {
  listSenderPhoneNumbers(organizationId: string): Promise<string[]>;
}
