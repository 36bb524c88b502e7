/**
 * The contact book (shared/inbox/contact-book.ts) on the inbox table: one item per direction of a
 * pair (`ORG#<org>#PAIRS#<shard>`, `USERID#<bsuid>` and `PHONE#<digits>`, docs/DATA-MODEL.md; the shard
 * is the key's, inbox-table.ts).
 *
 * A direction is written by one conditional Put: when the key has no pair, an older one (by Meta's
 * time), or the same pair no newer. A refused Put is read back: the same pair stored means done (a
 * concurrent or retried write of this pair: the outcome is decided by content, so an SDK retry of
 * an applied write needs no token), another pair means a newer one holds the key (`stale`).
 *
 * A number's direction is keyed by its opt-out key (`optOutKeyOf`: a Mexican or Brazilian mobile's
 * two forms are one key), so a lookup in either form finds it. Directions written before that sit
 * under Meta's digits as given (`PHONE#521…`): every read also reads the number's older forms
 * (`optOutKeyFormsOf`; only Mexican and Brazilian mobiles have one) and answers the newest pair
 * by Meta's time, marked `olderForm` when it came from one; the next write of that pair (the
 * contact book's writer rewrites a pair met under an older form) puts it under the key and deletes
 * the older form's item (conditioned on its time, so a newer pair there is kept).
 */
import { BatchGetCommand, DeleteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { samePair, type ContactBook, type IdentityPair, type StoredPair } from '../../inbox/contact-book';
import { optOutKeyFormsOf } from '../../recipients/opt-out-key';
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
    const forms = optOutKeyFormsOf(key);
    const items = await Promise.all(forms.map((form) => this.table.get(inboxKeys.identityPair(organizationId, form))));
    return newestOfForms(items.map(pairOfItem));
  }

  async pairsOf(organizationId: string, keys: readonly string[]): Promise<Map<string, StoredPair>> {
    const unique = [...new Set(keys)];
    const byForm = await this.pairsUnder(organizationId, [...new Set(unique.flatMap((key) => optOutKeyFormsOf(key)))]);
    const found = new Map<string, StoredPair>();
    for (const key of unique) {
      const pair = newestOfForms(optOutKeyFormsOf(key).map((form) => byForm.get(form)));
      if (pair) found.set(key, pair);
    }
    return found;
  }

  /** The pairs stored under exactly these keys (eventually consistent BatchGets of 100). */
  private async pairsUnder(organizationId: string, keys: readonly string[]): Promise<Map<string, StoredPair>> {
    const found = new Map<string, StoredPair>();
    const tableName = this.table.tableName;
    for (let start = 0; start < keys.length; start += maxKeysPerBatchGet) {
      let pending: Item[] = keys.slice(start, start + maxKeysPerBatchGet).map((key) => inboxKeys.identityPair(organizationId, key));
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
    const [phoneKey, ...olderForms] = optOutKeyFormsOf(pair.phoneNumber) as [string, ...string[]];
    for (const key of [phoneKey, pair.userId]) {
      if (!(await this.putDirection(organizationId, key, pair))) return 'stale';
    }
    // The number's direction now under its key: an older form's item holding this pair or an older one goes.
    await Promise.all(olderForms.map((form) => this.deleteOlderForm(organizationId, form, pair.at)));
    return 'recorded';
  }

  private async deleteOlderForm(organizationId: string, form: string, at: string): Promise<void> {
    try {
      await this.table.send(
        new DeleteCommand({
          TableName: this.table.tableName,
          Key: inboxKeys.identityPair(organizationId, form),
          ConditionExpression: 'attribute_exists(pk) AND #at <= :at',
          ExpressionAttributeNames: { '#at': 'at' },
          ExpressionAttributeValues: { ':at': at },
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
    }
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

/**
 * The newest pair (by Meta's time) of a number's forms, the key's own first; `olderForm` when it was
 * read under an older form (written before directions were keyed by the opt-out key).
 */
function newestOfForms(pairs: ReadonlyArray<StoredPair | undefined>): StoredPair | undefined {
  let newest: StoredPair | undefined;
  pairs.forEach((pair, index) => {
    if (pair && (newest === undefined || pair.at > newest.at)) newest = index === 0 ? pair : { ...pair, olderForm: true };
  });
  return newest;
}
