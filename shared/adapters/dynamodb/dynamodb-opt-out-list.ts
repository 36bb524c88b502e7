/**
 * The organization's opt-out list (the suppression list) on the inbox table: one item per number,
 * counted in the organization's counters, and the bulk lookup a broadcast's accept path makes.
 */
import { BatchGetCommand, DeleteCommand, PutCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { InboxStoreUnavailableError } from '../../inbox/errors';
import type { ListResult, ListWindow } from '../../inbox/inbox-entities';
import type { OptOut, OptOutRepository } from '../../inbox/opt-outs';
import { isConditionalCheckFailure } from './dynamodb-errors';
import { inboxKeys, toEntity, type InboxTable, type Item } from './inbox-table';

/** DynamoDB's BatchGetItem limit. */
const maxKeysPerBatchGet = 100;
/** Rounds of re-reading the keys a BatchGet left unprocessed (throttling) before giving up. */
const maxBatchGetRounds = 5;
/** BatchGets of one opt-out lookup in flight at once. */
const concurrentBatchGets = 10;

export class DynamoDbOptOutList implements OptOutRepository {
  constructor(private readonly table: InboxTable) {}

  async addOptOut(organizationId: string, optOut: OptOut): Promise<{ added: boolean; optOut: OptOut }> {
    const key = inboxKeys.optOut(organizationId, optOut.phoneNumber);
    try {
      await this.table.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: { ...key, entity: 'opt-out', ...optOut },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
    } catch (error) {
      if (!isConditionalCheckFailure(error)) throw error;
      // Removed again between the two calls: report the attempted entry as if it had been added earlier.
      return { added: false, optOut: toEntity<OptOut>(await this.table.get(key)) ?? optOut };
    }
    await this.table.addToCounters(organizationId, { optOuts: 1 });
    return { added: true, optOut };
  }

  async removeOptOut(organizationId: string, phoneNumber: string): Promise<boolean> {
    try {
      await this.table.send(
        new DeleteCommand({
          TableName: this.table.tableName,
          Key: inboxKeys.optOut(organizationId, phoneNumber),
          ConditionExpression: 'attribute_exists(pk)',
        }),
      );
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
    await this.table.addToCounters(organizationId, { optOuts: -1 });
    return true;
  }

  async listOptOuts(organizationId: string, window: ListWindow): Promise<ListResult<OptOut>> {
    const query: QueryCommandInput = { ...this.table.partitionQuery(inboxKeys.optOut(organizationId, '').pk, 'PHONE#'), ScanIndexForward: true };
    const [total, page] = await Promise.all([this.table.counter(organizationId, ['optOuts']), this.table.readWindow<OptOut>(query, undefined, window, false)]);
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
      const page = await this.table.send(
        new QueryCommand({
          ...this.table.partitionQuery(inboxKeys.optOut(organizationId, '').pk, 'PHONE#'),
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
      const tableName = this.table.tableName;
      const result = await this.table.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: keys, ConsistentRead: true, ProjectionExpression: 'phoneNumber' } } }));
      for (const item of result.Responses?.[tableName] ?? []) found.push(String(item.phoneNumber));
      keys = (result.UnprocessedKeys?.[tableName]?.Keys ?? []) as Item[];
    }
    return found;
  }
}
