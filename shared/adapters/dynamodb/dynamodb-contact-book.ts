/**
 * The contact book (shared/inbox/contact-book.ts) on the inbox table: one item per direction of a
 * pair (`ORG#<org>#PAIRS#<shard>`, `USERID#<bsuid>` and `PHONE#<digits>`, docs/DATA-MODEL.md; the shard
 * is the key's, inbox-table.ts).
 *
 * A direction is written by one conditional Put: when the key has no pair, an older one (by Meta's
 * time), or the same pair no newer. A refused Put is read back: the same pair stored means done (a
 * concurrent or retried write of this pair: the outcome is decided by content, so an SDK retry of
 * an applied write needs no token), another pair means a newer one holds the key (`stale`).
 */
import { BatchGetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { samePair, type ContactBook, type IdentityPair, type StoredPair } from '../../inbox/contact-book';
import { InboxStoreUnavailableError } from '../../inbox/errors';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { inboxKeys, toEntity, type InboxTable, type Item } from './inbox-table';

const maxKeysPerBatchGet = 100;
const maxBatchGetRounds = 5;

const pairOfItem = (item: Item | undefined): StoredPair | undefined => {
  const entity = toEntity<Record<string, unknown>>(item);
  if (!entity || typeof entity.phoneNumber !== 'string' || typeof entity.userId !== 'string') return undefined;
  return { phoneNumber: entity.phoneNumber, userId: entity.userId, at: String(entity.at) };
};

export class DynamoDbContactBook implements ContactBook {
  constructor(private readonly table: InboxTable) {}

  async pairOf(organizationId: string, key: string): Promise<StoredPair | undefined> {
    return pairOfItem(await this.table.get(inboxKeys.identityPair(organizationId, key)));
  }

  async pairsOf(organizationId: string, keys: readonly string[]): Promise<Map<string, StoredPair>> {
    const found = new Map<string, StoredPair>();
    const unique = [...new Set(keys)];
    const tableName = this.table.tableName;
    for (let start = 0; start < unique.length; start += maxKeysPerBatchGet) {
      let pending: Item[] = unique.slice(start, start + maxKeysPerBatchGet).map((key) => inboxKeys.identityPair(organizationId, key));
      for (let round = 0; pending.length > 0; round += 1) {
        if (round >= maxBatchGetRounds) throw new InboxStoreUnavailableError('Inbox store left contact book reads unprocessed');
        // Eventually consistent: a pair missed here is only written again (same outcome).
        const result = await this.table.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: pending } } }));
        for (const item of result.Responses?.[tableName] ?? []) {
          const pair = pairOfItem(item);
          if (pair) found.set(String(item.sk).slice(String(item.sk).indexOf('#') + 1), pair);
        }
        pending = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Item[];
      }
    }
    return found;
  }

  async recordPair(organizationId: string, pair: IdentityPair): Promise<'recorded' | 'stale'> {
    // Phone first, then the BSUID: the order does not matter for correctness (each is read back).
    for (const key of [pair.phoneNumber, pair.userId]) {
      if (!(await this.putDirection(organizationId, key, pair))) return 'stale';
    }
    return 'recorded';
  }


  /** True when the key now holds this pair. */
  private async putDirection(organizationId: string, key: string, pair: IdentityPair): Promise<boolean> {
    const itemKey = inboxKeys.identityPair(organizationId, key);
    try {
      await this.table.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: { ...itemKey, entity: 'identity-pair', phoneNumber: pair.phoneNumber, userId: pair.userId, at: pair.at },
          // ISO 8601 UTC strings of one format compare like the times they name.
          ConditionExpression: 'attribute_not_exists(pk) OR #at < :at',
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: { ':at': pair.at },
        }),
      );
      return true;
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
    return samePair(pairOfItem(await this.table.get(itemKey)), pair);
  }
}
