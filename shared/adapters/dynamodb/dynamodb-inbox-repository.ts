/**
 * The inbox repository on one DynamoDB table (pk/sk + gsi1), layout in docs/DATA-MODEL.md
 * ("Inbox table"): contacts and conversations here, the opt-out list in `dynamodb-opt-out-list.ts`,
 * keys and the shared reads and writes in `inbox-table.ts`. Single-item writes only (dynalite has
 * no transactions); reads that decide something are strongly consistent.
 *
 * Totals: unfiltered lists (and conversations filtered by status only) read a per-organization
 * counter item, kept by the same single-item writes that create and close; lists filtered by
 * tag, search or contact count the matches they read (see docs/ORGANIZATIONS-AND-V1.md for costs).
 */
import { DeleteCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
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
} from '../../inbox/inbox-entities';
import type { OptOut, OptOutChange, OptOutRecord, OptOutRepository } from '../../inbox/opt-outs';
import type { ClaimOutcome, ContactIdentity, ContactPhoneNumberClaim, InboxRepository, OpenConversationClaim } from '../../inbox/ports';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { DynamoDbOptOutList } from './dynamodb-opt-out-list';
import { DynamoDbContactBook } from './dynamodb-contact-book';
import type { ContactBook, IdentityPair, StoredPair } from '../../inbox/contact-book';
import { inboxKeys, InboxTable, toEntity, type CounterName } from './inbox-table';

/** A stored contact as the port knows it: one without a number (a BSUID-only user) has no attribute, read as null. */
const contactOf = (entity: Contact | undefined): Contact | undefined => entity && { ...entity, phoneNumber: entity.phoneNumber ?? null };

export class DynamoDbInboxRepository implements InboxRepository, OptOutRepository, ContactBook {
  private readonly table: InboxTable;
  private readonly optOuts: DynamoDbOptOutList;
  private readonly pairs: DynamoDbContactBook;

  constructor(documentClient: DynamoDBDocumentClient, tableName: string) {
    this.table = new InboxTable(documentClient, tableName);
    this.optOuts = new DynamoDbOptOutList(this.table);
    this.pairs = new DynamoDbContactBook(this.table);
  }

  // Contacts

  claimContactPhoneNumber(claim: ContactPhoneNumberClaim, replacingContactId?: string): Promise<ClaimOutcome<ContactPhoneNumberClaim>> {
    return this.table.claim(
      inboxKeys.contactPhoneNumberClaim(claim.organizationId, claim.phoneNumber),
      { entity: 'contact-phone-number-claim', ...claim },
      'contactId',
      replacingContactId,
    );
  }

  async getContactPhoneNumberClaim(organizationId: string, phoneNumber: string): Promise<ContactPhoneNumberClaim | undefined> {
    return toEntity(await this.table.get(inboxKeys.contactPhoneNumberClaim(organizationId, phoneNumber)));
  }

  async insertContact(contact: Contact): Promise<void> {
    // A contact without a number is stored without the attribute, so a later fill can add it (if_not_exists).
    const { phoneNumber, ...rest } = contact;
    await this.table.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: { ...inboxKeys.contact(contact.organizationId, contact.contactId), entity: 'contact', ...rest, ...(phoneNumber === null ? {} : { phoneNumber }) },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    await this.table.addToCounters(contact.organizationId, { contacts: 1 });
  }

  async getContact(organizationId: string, contactId: string): Promise<Contact | undefined> {
    return contactOf(toEntity(await this.table.get(inboxKeys.contact(organizationId, contactId))));
  }

  async addContactIdentity(organizationId: string, contactId: string, identity: ContactIdentity, at: string): Promise<Contact | undefined> {
    const sets = ['updatedAt = :at'];
    const values: Record<string, unknown> = { ':at': at };
    const kept = (attribute: string, value: string) => (identity.replace ? value : `if_not_exists(${attribute}, ${value})`);
    if (identity.phoneNumber !== undefined) {
      sets.push(`phoneNumber = ${kept('phoneNumber', ':phone')}`);
      values[':phone'] = identity.phoneNumber;
    }
    if (identity.userId !== undefined) {
      sets.push(`userId = ${kept('userId', ':userId')}`);
      values[':userId'] = identity.userId;
    }
    if (identity.username !== undefined) {
      sets.push('username = :username');
      values[':username'] = identity.username;
    }
    try {
      const result = await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: inboxKeys.contact(organizationId, contactId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      );
      return contactOf(toEntity(result.Attributes));
    } catch (error) {
      if (isConditionalCheckFailure(error)) return undefined;
      throw error;
    }
  }

  async listContacts(organizationId: string, filter: ContactFilter, window: ListWindow): Promise<ListResult<Contact>> {
    const query = this.table.partitionQuery(inboxKeys.contact(organizationId, '').pk, 'CONTACT#');
    const filtered = filter.tag !== undefined || filter.search !== undefined;
    if (!filtered) {
      const [total, page] = await Promise.all([
        this.table.counter(organizationId, ['contacts']),
        this.table.readWindow<Contact>(query, undefined, window, false),
      ]);
      return { items: page.items.map((item) => contactOf(item)!), total };
    }
    const page = await this.table.readWindow<Contact>(query, (contact) => matchesContactFilter(contactOf(contact)!, filter), window, true);
    return { items: page.items.map((item) => contactOf(item)!), total: page.matched };
  }

  async readContacts(organizationId: string, page: { limit: number; cursor?: string }): Promise<{ contacts: Contact[]; nextCursor?: string }> {
    const key = inboxKeys.contact(organizationId, page.cursor ?? '');
    const result = await this.table.send(
      new QueryCommand({
        ...this.table.partitionQuery(key.pk, 'CONTACT#'),
        ScanIndexForward: true,
        // One more than the page: whether another follows is known without an empty last page.
        Limit: page.limit + 1,
        ...(page.cursor === undefined ? {} : { ExclusiveStartKey: key }),
      }),
    );
    const contacts = (result.Items ?? []).map((item) => contactOf(toEntity<Contact>(item))!);
    if (contacts.length > page.limit) return { contacts: contacts.slice(0, page.limit), nextCursor: contacts[page.limit - 1]!.contactId };
    // Fewer than asked with a key to go on: the 1 MB a Query returns at most cut the page short.
    return result.LastEvaluatedKey && contacts.length > 0 ? { contacts, nextCursor: contacts.at(-1)!.contactId } : { contacts };
  }

  // Conversations

  claimOpenConversation(claim: OpenConversationClaim, replacingConversationId?: string): Promise<ClaimOutcome<OpenConversationClaim>> {
    return this.table.claim(
      inboxKeys.openConversationClaim(claim.organizationId, claim.senderPhoneNumber, claim.contactId),
      { entity: 'open-conversation-claim', ...claim },
      'conversationId',
      replacingConversationId,
    );
  }

  async getOpenConversationClaim(organizationId: string, senderPhoneNumber: string, contactId: string): Promise<OpenConversationClaim | undefined> {
    return toEntity(await this.table.get(inboxKeys.openConversationClaim(organizationId, senderPhoneNumber, contactId)));
  }

  async releaseOpenConversation(claim: Omit<OpenConversationClaim, 'claimedAt'>): Promise<void> {
    try {
      await this.table.send(
        new DeleteCommand({
          TableName: this.table.tableName,
          Key: inboxKeys.openConversationClaim(claim.organizationId, claim.senderPhoneNumber, claim.contactId),
          ConditionExpression: 'conversationId = :conversationId',
          ExpressionAttributeValues: { ':conversationId': claim.conversationId },
        }),
      );
    } catch (error) {
      // Already released, or taken over by a newer conversation: nothing of ours to release.
      if (!isConditionalCheckFailure(error)) throw error;
    }
  }

  async insertConversation(conversation: Conversation): Promise<void> {
    await this.table.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: {
          ...inboxKeys.conversation(conversation.organizationId, conversation.conversationId),
          ...inboxKeys.conversationOfContact(conversation.organizationId, conversation.contactId, conversation.conversationId),
          entity: 'conversation',
          ...conversation,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    await this.table.addToCounters(conversation.organizationId, conversation.status === 'open' ? { openConversations: 1 } : { closedConversations: 1 });
  }

  async getConversation(organizationId: string, conversationId: string): Promise<Conversation | undefined> {
    return toEntity(await this.table.get(inboxKeys.conversation(organizationId, conversationId)));
  }

  async changeConversationStatus(organizationId: string, conversationId: string, status: ConversationStatus, at: string): Promise<Conversation | undefined> {
    const from: ConversationStatus = status === 'open' ? 'closed' : 'open';
    let updated: Conversation | undefined;
    try {
      const result = await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: inboxKeys.conversation(organizationId, conversationId),
          UpdateExpression: status === 'closed' ? 'SET #status = :to, updatedAt = :at, closedAt = :at' : 'SET #status = :to, updatedAt = :at REMOVE closedAt',
          ConditionExpression: '#status = :from',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':to': status, ':from': from, ':at': at },
          ReturnValues: 'ALL_NEW',
        }),
      );
      updated = toEntity<Conversation>(result.Attributes);
    } catch (error) {
      if (isConditionalCheckFailure(error)) return undefined;
      throw error;
    }
    await this.table.addToCounters(
      organizationId,
      status === 'closed' ? { openConversations: -1, closedConversations: 1 } : { openConversations: 1, closedConversations: -1 },
    );
    return updated;
  }

  async recordInboundAt(organizationId: string, conversationId: string, messageAt: string, now: string): Promise<boolean> {
    try {
      await this.table.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: inboxKeys.conversation(organizationId, conversationId),
          UpdateExpression: 'SET lastInboundAt = :at, lastMessageAt = :at, updatedAt = :now',
          // ISO 8601 UTC strings of one format compare like the times they name.
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastInboundAt) OR lastInboundAt < :at)',
          ExpressionAttributeValues: { ':at': messageAt, ':now': now },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }

  async listConversations(organizationId: string, filter: ConversationFilter, window: ListWindow): Promise<ListResult<Conversation>> {
    const matches = (conversation: Conversation) => matchesConversationFilter(conversation, filter);
    if (filter.contactId !== undefined) {
      // A contact's conversations are few: read them all through the index and count.
      const { gsi1pk } = inboxKeys.conversationOfContact(organizationId, filter.contactId, '');
      const query: QueryCommandInput = {
        TableName: this.table.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
        ExpressionAttributeValues: { ':pk': gsi1pk, ':prefix': 'CONVERSATION#' },
        ScanIndexForward: false,
      };
      const page = await this.table.readWindow<Conversation>(query, matches, window, true);
      return { items: page.items, total: page.matched };
    }
    const counters: CounterName[] =
      filter.status === 'open' ? ['openConversations'] : filter.status === 'closed' ? ['closedConversations'] : ['openConversations', 'closedConversations'];
    const query = this.table.partitionQuery(inboxKeys.conversation(organizationId, '').pk, 'CONVERSATION#');
    const [total, page] = await Promise.all([
      this.table.counter(organizationId, counters),
      this.table.readWindow<Conversation>(query, filter.status === undefined ? undefined : matches, window, false),
    ]);
    return { items: page.items, total };
  }

  // Opt-outs (the suppression list): the same table, its own adapter.

  updateOptOut(organizationId: string, phoneNumber: string, change: OptOutChange): Promise<{ before?: OptOutRecord; after?: OptOutRecord }> {
    return this.optOuts.updateOptOut(organizationId, phoneNumber, change);
  }

  listOptOuts(organizationId: string, window: ListWindow): Promise<ListResult<OptOut>> {
    return this.optOuts.listOptOuts(organizationId, window);
  }

  findSuppressed(organizationId: string, phoneNumbers: readonly string[]): Promise<Set<string>> {
    return this.optOuts.findSuppressed(organizationId, phoneNumbers);
  }

  recordsOf(organizationId: string, keys: readonly string[]): Promise<Map<string, OptOutRecord>> {
    return this.optOuts.recordsOf(organizationId, keys);
  }

  // The contact book (Meta's BSUID ↔ phone pairs): the same table, its own adapter.

  pairOf(organizationId: string, key: string): Promise<StoredPair | undefined> {
    return this.pairs.pairOf(organizationId, key);
  }

  pairsOf(organizationId: string, keys: readonly string[]): Promise<Map<string, StoredPair>> {
    return this.pairs.pairsOf(organizationId, keys);
  }

  recordPair(organizationId: string, pair: IdentityPair): Promise<'recorded' | 'stale'> {
    return this.pairs.recordPair(organizationId, pair);
  }
}
