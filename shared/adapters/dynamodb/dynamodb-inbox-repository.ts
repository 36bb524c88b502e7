/**
 * The inbox repository on one DynamoDB table (pk/sk + gsi1), layout in docs/DATA-MODEL.md
 * ("Inbox table"). Single-item writes only (dynalite has no transactions); reads that decide
 * something are strongly consistent.
 *
 * Totals: unfiltered lists (and conversations filtered by status only) read a per-organization
 * counter item, kept by the same single-item writes that create and close; lists filtered by
 * tag, search or contact count the matches they read (see docs/ORGANIZATIONS-AND-V1.md for costs).
 */
import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  DeleteCommand,
  UpdateCommand,
  type BatchGetCommandOutput,
  type DynamoDBDocumentClient,
  type GetCommandOutput,
  type QueryCommandInput,
  type QueryCommandOutput,
  type UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { InboxStoreUnavailableError } from '../../inbox/errors';
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
import type { OptOut, OptOutRepository } from '../../inbox/opt-outs';
import type { ClaimOutcome, ContactPhoneNumberClaim, InboxRepository, OpenConversationClaim } from '../../inbox/ports';
import { classifyStoreFaults, isConditionalCheckFailure, storeFault } from './dynamodb-errors';

type Item = Record<string, unknown>;

/** Key builders: the single source of the table layout. */
export const inboxKeys = {
  contact: (organizationId: string, contactId: string) => ({ pk: `ORG#${organizationId}#CONTACTS`, sk: `CONTACT#${contactId}` }),
  contactPhoneNumberClaim: (organizationId: string, phoneNumber: string) => ({ pk: `ORG#${organizationId}#CONTACTS`, sk: `PHONE#${phoneNumber}` }),
  conversation: (organizationId: string, conversationId: string) => ({
    pk: `ORG#${organizationId}#CONVERSATIONS`,
    sk: `CONVERSATION#${conversationId}`,
  }),
  conversationOfContact: (organizationId: string, contactId: string, conversationId: string) => ({
    gsi1pk: `ORG#${organizationId}#CONTACT#${contactId}`,
    gsi1sk: `CONVERSATION#${conversationId}`,
  }),
  openConversationClaim: (organizationId: string, senderPhoneNumber: string, contactId: string) => ({
    pk: `ORG#${organizationId}#CONVERSATIONS`,
    sk: `OPEN#${senderPhoneNumber}#${contactId}`,
  }),
  counters: (organizationId: string) => ({ pk: `ORG#${organizationId}`, sk: 'COUNTERS' }),
  optOut: (organizationId: string, phoneNumber: string) => ({ pk: `ORG#${organizationId}#OPTOUTS`, sk: `PHONE#${phoneNumber}` }),
};

type CounterName = 'contacts' | 'openConversations' | 'closedConversations' | 'optOuts';

const keyAttributes = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'entity']);

function toEntity<T>(item: Item | undefined): T | undefined {
  if (!item) return undefined;
  return Object.fromEntries(Object.entries(item).filter(([name]) => !keyAttributes.has(name))) as T;
}

/** Items per Query call while skipping to an offset; DynamoDB caps a call at 1 MB anyway. */
const maxItemsPerQuery = 1000;
/** DynamoDB's BatchGetItem limit. */
const maxKeysPerBatchGet = 100;
/** Rounds of re-reading the keys a BatchGet left unprocessed (throttling) before giving up. */
const maxBatchGetRounds = 5;
/** BatchGets of one opt-out lookup in flight at once. */
const concurrentBatchGets = 10;
/** Rounds of "claim refused, but the holder vanished before we read it" before giving up. */
const maxClaimRounds = 3;

export class DynamoDbInboxRepository implements InboxRepository, OptOutRepository {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  // Contacts

  claimContactPhoneNumber(claim: ContactPhoneNumberClaim, replacingContactId?: string): Promise<ClaimOutcome<ContactPhoneNumberClaim>> {
    return this.claim(
      inboxKeys.contactPhoneNumberClaim(claim.organizationId, claim.phoneNumber),
      { entity: 'contact-phone-number-claim', ...claim },
      'contactId',
      replacingContactId,
    );
  }

  async getContactPhoneNumberClaim(organizationId: string, phoneNumber: string): Promise<ContactPhoneNumberClaim | undefined> {
    return toEntity(await this.get(inboxKeys.contactPhoneNumberClaim(organizationId, phoneNumber)));
  }

  async insertContact(contact: Contact): Promise<void> {
    await this.send(
      new PutCommand({
        TableName: this.tableName,
        Item: { ...inboxKeys.contact(contact.organizationId, contact.contactId), entity: 'contact', ...contact },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    await this.addToCounters(contact.organizationId, { contacts: 1 });
  }

  async getContact(organizationId: string, contactId: string): Promise<Contact | undefined> {
    return toEntity(await this.get(inboxKeys.contact(organizationId, contactId)));
  }

  async listContacts(organizationId: string, filter: ContactFilter, window: ListWindow): Promise<ListResult<Contact>> {
    const query = this.partitionQuery(inboxKeys.contact(organizationId, '').pk, 'CONTACT#');
    const filtered = filter.tag !== undefined || filter.search !== undefined;
    if (!filtered) {
      const [total, page] = await Promise.all([this.counter(organizationId, ['contacts']), this.readWindow<Contact>(query, undefined, window, false)]);
      return { items: page.items, total };
    }
    const page = await this.readWindow<Contact>(query, (contact) => matchesContactFilter(contact, filter), window, true);
    return { items: page.items, total: page.matched };
  }

  // Conversations

  claimOpenConversation(claim: OpenConversationClaim, replacingConversationId?: string): Promise<ClaimOutcome<OpenConversationClaim>> {
    return this.claim(
      inboxKeys.openConversationClaim(claim.organizationId, claim.senderPhoneNumber, claim.contactId),
      { entity: 'open-conversation-claim', ...claim },
      'conversationId',
      replacingConversationId,
    );
  }

  async getOpenConversationClaim(organizationId: string, senderPhoneNumber: string, contactId: string): Promise<OpenConversationClaim | undefined> {
    return toEntity(await this.get(inboxKeys.openConversationClaim(organizationId, senderPhoneNumber, contactId)));
  }

  async releaseOpenConversation(claim: Omit<OpenConversationClaim, 'claimedAt'>): Promise<void> {
    try {
      await this.send(
        new DeleteCommand({
          TableName: this.tableName,
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
    await this.send(
      new PutCommand({
        TableName: this.tableName,
        Item: {
          ...inboxKeys.conversation(conversation.organizationId, conversation.conversationId),
          ...inboxKeys.conversationOfContact(conversation.organizationId, conversation.contactId, conversation.conversationId),
          entity: 'conversation',
          ...conversation,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    await this.addToCounters(conversation.organizationId, conversation.status === 'open' ? { openConversations: 1 } : { closedConversations: 1 });
  }

  async getConversation(organizationId: string, conversationId: string): Promise<Conversation | undefined> {
    return toEntity(await this.get(inboxKeys.conversation(organizationId, conversationId)));
  }

  async changeConversationStatus(organizationId: string, conversationId: string, status: ConversationStatus, at: string): Promise<Conversation | undefined> {
    const from: ConversationStatus = status === 'open' ? 'closed' : 'open';
    let updated: Conversation | undefined;
    try {
      const result = await this.send(
        new UpdateCommand({
          TableName: this.tableName,
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
    await this.addToCounters(
      organizationId,
      status === 'closed' ? { openConversations: -1, closedConversations: 1 } : { openConversations: 1, closedConversations: -1 },
    );
    return updated;
  }

  async recordInboundAt(organizationId: string, conversationId: string, messageAt: string, now: string): Promise<boolean> {
    try {
      await this.send(
        new UpdateCommand({
          TableName: this.tableName,
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
        TableName: this.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND begins_with(gsi1sk, :prefix)',
        ExpressionAttributeValues: { ':pk': gsi1pk, ':prefix': 'CONVERSATION#' },
        ScanIndexForward: false,
      };
      const page = await this.readWindow<Conversation>(query, matches, window, true);
      return { items: page.items, total: page.matched };
    }
    const counters: CounterName[] =
      filter.status === 'open' ? ['openConversations'] : filter.status === 'closed' ? ['closedConversations'] : ['openConversations', 'closedConversations'];
    const query = this.partitionQuery(inboxKeys.conversation(organizationId, '').pk, 'CONVERSATION#');
    const [total, page] = await Promise.all([
      this.counter(organizationId, counters),
      this.readWindow<Conversation>(query, filter.status === undefined ? undefined : matches, window, false),
    ]);
    return { items: page.items, total };
  }

  // Opt-outs (the suppression list)

  async addOptOut(organizationId: string, optOut: OptOut): Promise<{ added: boolean; optOut: OptOut }> {
    const key = inboxKeys.optOut(organizationId, optOut.phoneNumber);
    try {
      await this.send(
        new PutCommand({
          TableName: this.tableName,
          Item: { ...key, entity: 'opt-out', ...optOut },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      // Removed again between the two calls: report the attempted entry as if it had been added earlier.
      return { added: false, optOut: toEntity<OptOut>(await this.get(key)) ?? optOut };
    }
    await this.addToCounters(organizationId, { optOuts: 1 });
    return { added: true, optOut };
  }

  async removeOptOut(organizationId: string, phoneNumber: string): Promise<boolean> {
    try {
      await this.send(
        new DeleteCommand({
          TableName: this.tableName,
          Key: inboxKeys.optOut(organizationId, phoneNumber),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
    await this.addToCounters(organizationId, { optOuts: -1 });
    return true;
  }

  async listOptOuts(organizationId: string, window: ListWindow): Promise<ListResult<OptOut>> {
    const query: QueryCommandInput = { ...this.partitionQuery(inboxKeys.optOut(organizationId, '').pk, 'PHONE#'), ScanIndexForward: true };
    const [total, page] = await Promise.all([this.counter(organizationId, ['optOuts']), this.readWindow<OptOut>(query, undefined, window, false)]);
    return { items: page.items, total };
  }

  /**
   * Which of the numbers are on the organization's list. Up to 100 numbers: one BatchGet. More (a
   * broadcast of up to 10,000): the list itself is read first, at most as many entries as numbers
   * given, since a list is usually far shorter than a broadcast: one Query instead of a BatchGet per
   * 100 numbers, and cheaper (a Query pays by the bytes read, a BatchGet per key). A list longer
   * than that falls back to the BatchGets, up to 10 at a time.
   */
  async findSuppressed(organizationId: string, phoneNumbers: readonly string[]): Promise<Set<string>> {
    if (phoneNumbers.length > maxKeysPerBatchGet) {
      const list = await this.optOutListUpTo(organizationId, phoneNumbers.length);
      if (list) return list.size === 0 ? list : new Set(phoneNumbers.filter((phoneNumber) => list.has(phoneNumber)));
    }
    const unique = [...new Set(phoneNumbers)];
    const found = new Set<string>();
    const wave = maxKeysPerBatchGet * concurrentBatchGets;
    for (let start = 0; start < unique.length; start += wave) {
      const batches: string[][] = [];
      for (let offset = start; offset < Math.min(unique.length, start + wave); offset += maxKeysPerBatchGet) {
        batches.push(unique.slice(offset, Math.min(offset + maxKeysPerBatchGet, start + wave)));
      }
      for (const batchFound of await Promise.all(batches.map((batch) => this.suppressedOf(organizationId, batch)))) {
        for (const phoneNumber of batchFound) found.add(phoneNumber);
      }
    }
    return found;
  }

  /** The organization's whole opt-out list, or undefined when it holds more than `limit` numbers. */
  private async optOutListUpTo(organizationId: string, limit: number): Promise<Set<string> | undefined> {
    const list = new Set<string>();
    let startKey: Item | undefined;
    do {
      const page = await this.send(
        new QueryCommand({
          ...this.partitionQuery(inboxKeys.optOut(organizationId, '').pk, 'PHONE#'),
          ProjectionExpression: 'phoneNumber',
          // One more than the limit tells a list of exactly `limit` from a longer one.
          Limit: limit + 1 - list.size,
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) list.add(String(item.phoneNumber));
      if (list.size > limit) return undefined;
      startKey = page.LastEvaluatedKey;
    } while (startKey !== undefined);
    return list;
  }

  private async suppressedOf(organizationId: string, phoneNumbers: readonly string[]): Promise<string[]> {
    const found: string[] = [];
    let keys: Item[] = phoneNumbers.map((phoneNumber) => inboxKeys.optOut(organizationId, phoneNumber));
    for (let round = 0; keys.length > 0; round += 1) {
      if (round >= maxBatchGetRounds) throw new InboxStoreUnavailableError('Inbox store left opt-out reads unprocessed');
      const result = await this.send(
        new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true, ProjectionExpression: 'phoneNumber' } } }),
      );
      for (const item of result.Responses?.[this.tableName] ?? []) found.push(String(item.phoneNumber));
      keys = (result.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Item[];
    }
    return found;
  }

  // Helpers

  /**
   * Put-if-absent of a claim item, or (with `replacing`) put-if-still-held-by `replacing`. When
   * refused, reads the holder; if it vanished in between (released), tries again as a new claim.
   */
  private async claim<Claim>(key: Item, item: Item, holderAttribute: string, replacing: string | undefined): Promise<ClaimOutcome<Claim>> {
    let expected = replacing;
    for (let round = 0; round < maxClaimRounds; round += 1) {
      try {
        await this.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { ...key, ...item },
            ...(expected === undefined
              ? { ConditionExpression: 'attribute_not_exists(pk)' }
              : {
                  ConditionExpression: '#holder = :expected',
                  ExpressionAttributeNames: { '#holder': holderAttribute },
                  ExpressionAttributeValues: { ':expected': expected },
                }),
          }),
        );
        return { claimed: true };
      } catch (error) {
        if (!isConditionalCheckFailure(error)) throw error;
      }
      const holder = toEntity<Claim>(await this.get(key));
      if (holder) return { claimed: false, holder };
      expected = undefined;
    }
    throw new Error(`Claim ${String(key.pk)} ${String(key.sk)} kept changing under contention`);
  }

  private partitionQuery(pk: string, skPrefix: string): QueryCommandInput {
    return {
      TableName: this.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      // Ids are time-ordered: descending key order is newest first.
      ScanIndexForward: false,
      ConsistentRead: true,
    };
  }

  /**
   * Reads in key order, keeping the matches at positions [offset, offset + limit). Stops once the
   * window is full unless `countAll`, which reads to the end and reports every match.
   */
  private async readWindow<T>(
    query: QueryCommandInput,
    predicate: ((item: T) => boolean) | undefined,
    window: ListWindow,
    countAll: boolean,
  ): Promise<{ items: T[]; matched: number }> {
    const end = window.offset + window.limit;
    const items: T[] = [];
    let matched = 0;
    let startKey: Record<string, unknown> | undefined;
    do {
      const wanted = end - matched;
      const result = await this.send(
        new QueryCommand({
          ...query,
          ExclusiveStartKey: startKey,
          // Without a predicate every item read is a match: read exactly what the window needs.
          Limit: countAll ? undefined : Math.min(maxItemsPerQuery, predicate ? Math.max(wanted, 100) : wanted),
        }),
      );
      for (const raw of result.Items ?? []) {
        const entity = toEntity<T>(raw)!;
        if (predicate && !predicate(entity)) continue;
        if (matched >= window.offset && matched < end) items.push(entity);
        matched += 1;
      }
      startKey = result.LastEvaluatedKey;
    } while (startKey && (countAll || matched < end));
    return { items, matched };
  }

  private async counter(organizationId: string, names: CounterName[]): Promise<number> {
    const item = await this.get(inboxKeys.counters(organizationId));
    return names.reduce((sum, name) => sum + Math.max(0, Number(item?.[name] ?? 0)), 0);
  }

  private async addToCounters(organizationId: string, deltas: Partial<Record<CounterName, number>>): Promise<void> {
    const entries = Object.entries(deltas);
    await this.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: inboxKeys.counters(organizationId),
        UpdateExpression: `SET entity = :entity ADD ${entries.map(([name], index) => `#c${index} :d${index}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#c${index}`, name])),
        ExpressionAttributeValues: { ':entity': 'inbox-counters', ...Object.fromEntries(entries.map(([, delta], index) => [`:d${index}`, delta])) },
      }),
    );
  }

  private async get(key: Item): Promise<Item | undefined> {
    const result = await this.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return result.Item;
  }

  private send(command: GetCommand): Promise<GetCommandOutput>;
  private send(command: QueryCommand): Promise<QueryCommandOutput>;
  private send(command: UpdateCommand): Promise<UpdateCommandOutput>;
  private send(command: BatchGetCommand): Promise<BatchGetCommandOutput>;
  private send(command: PutCommand | DeleteCommand): Promise<unknown>;
  private async send(command: GetCommand | PutCommand | UpdateCommand | DeleteCommand | QueryCommand | BatchGetCommand): Promise<unknown> {
    try {
      // The document client's send is overloaded per command; the union above is what this class uses.
      return await this.documentClient.send(command as GetCommand);
    } catch (error) {
      throw storeFault(error, InboxStoreUnavailableError, 'Inbox store');
    }
  }
}
