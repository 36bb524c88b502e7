/**
 * The inbox table (pk/sk + gsi1, docs/DATA-MODEL.md "Inbox table"): its keys, and the reads and
 * writes the inbox adapters share — consistent gets and windowed queries, put-if-absent claims and
 * the per-organization counters. Single-item writes only (dynalite has no transactions); reads
 * that decide something are strongly consistent.
 */
import {
  BatchGetCommand,
  BatchWriteCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  DeleteCommand,
  UpdateCommand,
  type BatchGetCommandOutput,
  type BatchWriteCommandOutput,
  type DynamoDBDocumentClient,
  type GetCommandOutput,
  type QueryCommandInput,
  type QueryCommandOutput,
  type UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { InboxStoreUnavailableError } from '../../inbox/errors';
import type { ListWindow } from '../../inbox/inbox-entities';
import type { ClaimOutcome } from '../../inbox/ports';
import { isBusinessScopedUserId } from '../../recipients/business-scoped-user-id';
import { classifyStoreFaults, isConditionalCheckFailure, storeFault } from './dynamodb-errors';

export type Item = Record<string, unknown>;

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
  /** A saved audience (shared/audiences/audience.ts): its name and counters; `deletedAt` once deleted, until its members are purged. */
  audience: (organizationId: string, audienceId: string) => ({ pk: `ORG#${organizationId}#AUDIENCES`, sk: `AUDIENCE#${audienceId}` }),
  /** One person of a saved audience, under their person key: an audience's members are one partition, in person-key order. */
  audienceMember: (organizationId: string, audienceId: string, personKey: string) => ({
    pk: `ORG#${organizationId}#AUDIENCE#${audienceId}`,
    sk: `MEMBER#${personKey}`,
  }),
  /**
   * One direction of a contact book pair: `USERID#<bsuid>` → phone, `PHONE#<digits>` → BSUID, in one
   * of PAIR_SHARDS partitions chosen by the key: a broadcast to a new audience writes two pair items
   * per recipient, 2,000 writes/s at 1,000 messages/s, twice DynamoDB's 1,000 WCU/s per partition
   * key in one partition (measured: `npm run bench -- --only=hot`, docs/SCALE.md).
   */
  identityPair: (organizationId: string, key: string) => ({
    pk: `ORG#${organizationId}#PAIRS#${pairShardOf(key)}`,
    sk: `${isBusinessScopedUserId(key) ? 'USERID' : 'PHONE'}#${key}`,
  }),
};

/** Partitions of an organization's contact book: 16 keep a 1,000 msg/s first-contact broadcast at ~125 WCU/s each. */
export const PAIR_SHARDS = 16;

/** A key's contact-book partition: FNV-1a of the key, modulo PAIR_SHARDS (stable, spread evenly). */
export function pairShardOf(key: string): number {
  let hash = 0x811c9dc5;
  for (let position = 0; position < key.length; position += 1) hash = Math.imul(hash ^ key.charCodeAt(position), 0x01000193);
  return (hash >>> 0) % PAIR_SHARDS;
}

export type CounterName = 'contacts' | 'openConversations' | 'closedConversations' | 'optOuts';

const keyAttributes = new Set(['pk', 'sk', 'gsi1pk', 'gsi1sk', 'entity']);

/** The stored item without its key attributes: the entity as the ports know it. */
export function toEntity<T>(item: Item | undefined): T | undefined {
  if (!item) return undefined;
  return Object.fromEntries(Object.entries(item).filter(([name]) => !keyAttributes.has(name))) as T;
}

/** Items per Query call while skipping to an offset; DynamoDB caps a call at 1 MB anyway. */
const maxItemsPerQuery = 1000;
/** Rounds of "claim refused, but the holder vanished before we read it" before giving up. */
const maxClaimRounds = 3;

export class InboxTable {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    readonly tableName: string,
  ) {
    classifyStoreFaults(this.documentClient);
  }

  /**
   * Put-if-absent of a claim item, or (with `replacing`) put-if-still-held-by `replacing`. When
   * refused, reads the holder; if it vanished in between (released), tries again as a new claim.
   */
  async claim<Claim>(key: Item, item: Item, holderAttribute: string, replacing: string | undefined): Promise<ClaimOutcome<Claim>> {
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

  partitionQuery(pk: string, skPrefix: string): QueryCommandInput {
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
  async readWindow<T>(
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

  async counter(organizationId: string, names: CounterName[]): Promise<number> {
    const item = await this.get(inboxKeys.counters(organizationId));
    return names.reduce((sum, name) => sum + Math.max(0, Number(item?.[name] ?? 0)), 0);
  }

  async addToCounters(organizationId: string, deltas: Partial<Record<CounterName, number>>): Promise<void> {
    const entries = Object.entries(deltas);
    await this.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: inboxKeys.counters(organizationId),
        UpdateExpression: `SET entity = :entity ADD ${entries.map((_entry, index) => `#c${index} :d${index}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#c${index}`, name])),
        ExpressionAttributeValues: { ':entity': 'inbox-counters', ...Object.fromEntries(entries.map(([, delta], index) => [`:d${index}`, delta])) },
      }),
    );
  }

  async get(key: Item): Promise<Item | undefined> {
    const result = await this.send(new GetCommand({ TableName: this.tableName, Key: key, ConsistentRead: true }));
    return result.Item;
  }

  send(command: GetCommand): Promise<GetCommandOutput>;
  send(command: QueryCommand): Promise<QueryCommandOutput>;
  send(command: UpdateCommand): Promise<UpdateCommandOutput>;
  send(command: BatchGetCommand): Promise<BatchGetCommandOutput>;
  send(command: BatchWriteCommand): Promise<BatchWriteCommandOutput>;
  send(command: PutCommand | DeleteCommand): Promise<unknown>;
  async send(command: GetCommand | PutCommand | UpdateCommand | DeleteCommand | QueryCommand | BatchGetCommand | BatchWriteCommand): Promise<unknown> {
    try {
      // The document client's send is overloaded per command; the union above is what the inbox adapters use.
      return await this.documentClient.send(command as GetCommand);
    } catch (error) {
      throw storeFault(error, InboxStoreUnavailableError, 'Inbox store');
    }
  }
}
