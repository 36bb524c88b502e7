import { ConversationAlreadyOpenError, ConversationNotFoundError, SenderNotFoundError } from './errors';
import { getContact, isAbandoned, maxClaimAttempts, windowOf, type InboxPorts, type Page, type PageRequest } from './contact-use-cases';
import type { Conversation, ConversationFilter, ConversationStatus } from './inbox-entities';
import type { SenderNumbers } from './ports';

export interface ConversationPorts extends InboxPorts {
  senders: SenderNumbers;
}

type PairClaim = { kind: 'claimed' } | { kind: 'already-open'; conversation: Conversation };

/**
 * Claims "the open conversation of this sender and contact" for `conversation`. When another
 * conversation holds the claim and is open, reports it. A claim is abandoned, and taken over, when
 * its conversation is closed after the claim was made (a close that died before releasing it), or
 * when the claim is older than `abandonedClaimAfterMs` and its conversation is missing or closed (a
 * create or reopen that died half-way). A younger claim is a concurrent create or reopen: conflict.
 */
async function claimOpenPair(ports: InboxPorts, conversation: Conversation, now: Date): Promise<PairClaim> {
  const { organizationId, senderPhoneNumber, contactId, conversationId } = conversation;
  let replacing: string | undefined;
  for (let attempt = 1; attempt <= maxClaimAttempts; attempt += 1) {
    const outcome = await ports.inbox.claimOpenConversation(
      { organizationId, senderPhoneNumber, contactId, conversationId, claimedAt: now.toISOString() },
      replacing,
    );
    if (outcome.claimed) return { kind: 'claimed' };
    const holder = outcome.holder;
    // A claim that is ours already (a reopen that died after claiming) is simply refreshed.
    if (holder.conversationId !== conversationId) {
      const current = await ports.inbox.getConversation(organizationId, holder.conversationId);
      if (current?.status === 'open') return { kind: 'already-open', conversation: current };
      const closedSinceClaim = current?.closedAt !== undefined && current.closedAt >= holder.claimedAt;
      if (!closedSinceClaim && !isAbandoned(holder.claimedAt, now)) throw new ConversationAlreadyOpenError(holder.conversationId);
    }
    replacing = holder.conversationId;
  }
  // Lost every take-over to concurrent writers: someone else holds the pair now.
  throw new ConversationAlreadyOpenError(replacing ?? conversationId);
}

export interface CreateConversationInput {
  organizationId: string;
  contactId: string;
  senderPhoneNumber: string;
}

/**
 * Opens a conversation between one of the organization's sender numbers and one of its contacts,
 * or returns the one already open between them (`created: false`): opening is idempotent, so a
 * retried POST never fails or duplicates.
 */
export async function createConversation(ports: ConversationPorts, input: CreateConversationInput): Promise<{ conversation: Conversation; created: boolean }> {
  const senders = await ports.senders.listSenderPhoneNumbers(input.organizationId);
  if (!senders.includes(input.senderPhoneNumber)) throw new SenderNotFoundError(input.senderPhoneNumber);
  await getContact(ports, input.organizationId, input.contactId);

  const now = ports.clock.now();
  const at = now.toISOString();
  const conversation: Conversation = {
    conversationId: ports.ids.newId('cv'),
    organizationId: input.organizationId,
    contactId: input.contactId,
    senderPhoneNumber: input.senderPhoneNumber,
    status: 'open',
    createdAt: at,
    updatedAt: at,
    lastMessageAt: null,
  };
  const claim = await claimOpenPair(ports, conversation, now);
  if (claim.kind === 'already-open') return { conversation: claim.conversation, created: false };
  await ports.inbox.insertConversation(conversation);
  return { conversation, created: true };
}

export async function getConversation(ports: Pick<InboxPorts, 'inbox'>, organizationId: string, conversationId: string): Promise<Conversation> {
  const conversation = await ports.inbox.getConversation(organizationId, conversationId);
  if (!conversation) throw new ConversationNotFoundError(conversationId);
  return conversation;
}

/**
 * Closes or reopens a conversation; asking for the status it has is a no-op. Closing writes the
 * status first, then releases the claim (a crash in between leaves a claim the next open takes
 * over). Reopening claims first (409 ConversationAlreadyOpenError when another conversation of the
 * pair is open), then writes the status.
 */
export async function setConversationStatus(
  ports: InboxPorts,
  input: { organizationId: string; conversationId: string; status: ConversationStatus },
): Promise<Conversation> {
  const conversation = await getConversation(ports, input.organizationId, input.conversationId);
  if (conversation.status === input.status) return conversation;
  const now = ports.clock.now();

  if (input.status === 'closed') {
    const closed = await ports.inbox.changeConversationStatus(input.organizationId, input.conversationId, 'closed', now.toISOString());
    if (closed) {
      const { organizationId, senderPhoneNumber, contactId, conversationId } = conversation;
      await ports.inbox.releaseOpenConversation({ organizationId, senderPhoneNumber, contactId, conversationId });
    }
    return closed ?? getConversation(ports, input.organizationId, input.conversationId);
  }

  const claim = await claimOpenPair(ports, conversation, now);
  if (claim.kind === 'already-open') throw new ConversationAlreadyOpenError(claim.conversation.conversationId);
  const reopened = await ports.inbox.changeConversationStatus(input.organizationId, input.conversationId, 'open', now.toISOString());
  return reopened ?? getConversation(ports, input.organizationId, input.conversationId);
}

export async function listConversations(
  ports: Pick<InboxPorts, 'inbox'>,
  input: { organizationId: string; filter: ConversationFilter } & PageRequest,
): Promise<Page<Conversation>> {
  // A contactId filter must name one of the organization's contacts (404 otherwise, as everywhere).
  if (input.filter.contactId !== undefined) await getContact(ports, input.organizationId, input.filter.contactId);
  const result = await ports.inbox.listConversations(input.organizationId, input.filter, windowOf(input));
  return { ...result, page: input.page, pageSize: input.pageSize };
}
