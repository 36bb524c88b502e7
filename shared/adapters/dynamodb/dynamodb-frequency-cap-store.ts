/**
 * FrequencyCapStore over the messaging table (`CAP#<org>#<person key>` / `CAP`, messaging-table.ts):
 * one item per person holding their counted sends (`sends`: send id → epoch ms) and a `version`.
 * A reservation reads the item (consistent), decides with the one rule (shared/send-rules/
 * frequency-cap-rule.ts: expiry checked in code, dynalite has no TTL) and writes the new sends with
 * a conditional put on the version it read: of two reservations racing for the last place one
 * write fails its condition, reads again and finds the window full. Single-item conditional writes
 * only (no transactions), so it is exact on dynalite as on DynamoDB. The item expires (TTL
 * `expiresAt`) when its newest send leaves the window.
 */
import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { StoreUnavailableError } from '../../ports/errors';
import type { CappedSend, CapReservation, FrequencyCapStore } from '../../send-rules/ports';
import { capWindowMs, decideReservation, type CountedSends } from '../../send-rules/frequency-cap-rule';
import { classifyStoreFaults, isConditionalCheckFailure } from './dynamodb-errors';
import { messagingKeys } from './messaging-table';

/**
 * Attempts of a read-decide-write round before giving up (a retryable StoreUnavailableError): each
 * round one racer wins, and a racer that finds the window full stops, so a person's concurrent sends
 * (one per job at a time) settle in far fewer.
 */
const MAX_ROUNDS = 40;

interface StoredSends {
  sends: CountedSends;
  /** Absent: no item yet. */
  version?: number;
  expiresAt?: number;
}

/**
 * @example
 * const caps = new DynamoDbFrequencyCapStore(documentClient, 'messaging');
 * await caps.reserve('org_1', '447700900123', { sendId: 'pub_1#4', at: new Date() }, { count: 2, perDays: 7 }); // { reserved: true }
 */
export class DynamoDbFrequencyCapStore implements FrequencyCapStore {
  constructor(
    private readonly documentClient: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    classifyStoreFaults(documentClient);
  }

  async reserve(organizationId: string, personKey: string, send: CappedSend, limit: { count: number; perDays: number }): Promise<CapReservation> {
    const atMs = send.at.getTime();
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const stored = await this.read(organizationId, personKey);
      const decision = decideReservation(stored.sends, send.sendId, atMs, limit);
      if (decision.store === undefined) return decision.answer;
      const newest = Math.max(...Object.values(decision.store));
      if (await this.write(organizationId, personKey, stored, decision.store, Math.ceil((newest + capWindowMs(limit.perDays)) / 1000))) return decision.answer;
    }
    throw new StoreUnavailableError(`frequency cap of one person stayed contended for ${MAX_ROUNDS} rounds`);
  }

  async release(organizationId: string, personKey: string, sendId: string): Promise<void> {
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const stored = await this.read(organizationId, personKey);
      if (!Object.hasOwn(stored.sends, sendId)) return;
      const { [sendId]: _released, ...rest } = stored.sends;
      // The item's expiry stays: its newest send is still the newest or gone.
      if (await this.write(organizationId, personKey, stored, rest, stored.expiresAt)) return;
    }
    throw new StoreUnavailableError(`frequency cap of one person stayed contended for ${MAX_ROUNDS} rounds`);
  }

  private async read(organizationId: string, personKey: string): Promise<StoredSends> {
    const { Item: item } = await this.documentClient.send(
      new GetCommand({ TableName: this.tableName, Key: messagingKeys.frequencyCap(organizationId, personKey), ConsistentRead: true }),
    );
    if (!item) return { sends: {} };
    const sends = typeof item.sends === 'object' && item.sends !== null ? (item.sends as Record<string, unknown>) : {};
    const numeric = Object.fromEntries(Object.entries(sends).filter((entry): entry is [string, number] => typeof entry[1] === 'number'));
    return {
      sends: numeric,
      version: typeof item.version === 'number' ? item.version : 0,
      ...(typeof item.expiresAt === 'number' ? { expiresAt: item.expiresAt } : {}),
    };
  }

  /** The conditional write of a round: false when another writer changed the item since it was read. */
  private async write(
    organizationId: string,
    personKey: string,
    read: StoredSends,
    sends: Record<string, number>,
    expiresAt: number | undefined,
  ): Promise<boolean> {
    const key = messagingKeys.frequencyCap(organizationId, personKey);
    const condition =
      read.version === undefined
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#version = :version',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':version': read.version },
          };
    try {
      if (Object.keys(sends).length === 0) {
        await this.documentClient.send(new DeleteCommand({ TableName: this.tableName, Key: key, ...condition }));
      } else {
        const item = { ...key, sends, version: (read.version ?? 0) + 1, ...(expiresAt === undefined ? {} : { expiresAt }) };
        await this.documentClient.send(new PutCommand({ TableName: this.tableName, Item: item, ...condition }));
      }
      return true;
    } catch (error) {
      if (isConditionalCheckFailure(error)) return false;
      throw error;
    }
  }
}
