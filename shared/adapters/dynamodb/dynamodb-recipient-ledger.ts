/**
 * The per-recipient ledger in the messaging table (keys and item shapes: messaging-table.ts,
 * messaging-ledger-items.ts): the claim before each send is conditional, outcomes set only their
 * own attributes, and each outcome's tally code is written with it.
 */
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ChunkRecipientRecords, ClaimResult, ClaimState, LedgerEntry, LedgerEntryLocation, RecipientLedger } from '../../broadcast/broadcast-stores';
import { classifyStoreFaults } from './dynamodb-errors';
import { locateLedgerMessage } from './ledger-message-ids';
import { decodeRecipients } from './messaging-job-items';
import { claimItem, decodeLedgerEntry, messageIdRecordItem, outcomeUpdate } from './messaging-ledger-items';
import { decodeDeliveryFacts } from './messaging-tally-items';
import { expiresAtFrom, messagingKeys } from './messaging-table';
import { batchWrite, isConditionFailure, queryAll, writeTallyCodes, type MessagingTable, type SettledOutcome } from './messaging-table-requests';
import { withTallyFacts } from './tally-facts-reader';

export class DynamoDbRecipientLedger implements RecipientLedger {
  private readonly table: MessagingTable;

  constructor(client: DynamoDBDocumentClient, tableName: string) {
    classifyStoreFaults(client);
    this.table = { client, tableName };
  }

  async claimRecipient(jobId: string, chunkIndex: number, index: number, to: string, now: Date, as: ClaimState = 'SENDING'): Promise<ClaimResult> {
    const { client, tableName } = this.table;
    const key = messagingKeys.ledger(jobId, chunkIndex, index);
    // Marks this claim as ours: when the SDK retries the put after an attempt that was applied but
    // timed out, the retry fails its own condition, and must not be read as another worker's claim.
    const claimToken = randomUUID();
    try {
      await client.send(
        new PutCommand({ TableName: tableName, Item: claimItem(jobId, chunkIndex, index, to, now, claimToken, as), ConditionExpression: 'attribute_not_exists(pk)' }),
      );
      return { claimed: true };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const existing = await client.send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
    if (existing.Item?.claimToken === claimToken) return { claimed: true };
    if (!existing.Item) throw new Error(`Ledger entry ${key.pk} ${key.sk} refused the claim but cannot be read`);
    return { claimed: false, existing: decodeLedgerEntry(existing.Item) };
  }

  async releaseClaim(jobId: string, chunkIndex: number, index: number): Promise<boolean> {
    try {
      await this.table.client.send(
        new DeleteCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.ledger(jobId, chunkIndex, index),
          ConditionExpression: '#status = :sending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':sending': 'SENDING' },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * One UpdateItem per entry, setting only the outcome's own attributes: Meta's facts that an event
   * may already have added to the entry (it can arrive before the outcome is written) stay. Then
   * the recipients' tally codes, one UpdateItem per tally item, never lowering an event's code.
   */
  async recordOutcomes(jobId: string, chunkIndex: number, entries: readonly LedgerEntry[]): Promise<void> {
    const expiresAt = expiresAtFrom(new Date());
    // The message ids' records first: an outcome naming a message id is always findable by it.
    const records = entries.flatMap((entry) => (entry.messageId ? [{ PutRequest: { Item: messageIdRecordItem(entry.messageId, { jobId, chunkIndex, index: entry.index }, expiresAt) } }] : []));
    await batchWrite(this.table, records, 'message id records still unprocessed after retries');
    await Promise.all(
      entries.map((entry) => this.table.client.send(new UpdateCommand({ TableName: this.table.tableName, ...outcomeUpdate(jobId, chunkIndex, entry, expiresAt) }))),
    );
    await writeTallyCodes(this.table, jobId, entries, expiresAt);
  }

  async recordSettled(jobId: string, entries: readonly SettledOutcome[]): Promise<void> {
    await writeTallyCodes(this.table, jobId, entries, expiresAtFrom(new Date()));
  }

  async markStaleAsUnknown(jobId: string, chunkIndex: number, index: number, now: Date): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.ledger(jobId, chunkIndex, index),
          UpdateExpression: 'SET #status = :unknown, failureReasonCode = :reason, updatedAt = :now',
          ConditionExpression: '#status = :sending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':unknown': 'UNKNOWN',
            ':sending': 'SENDING',
            ':reason': 'UNKNOWN_OUTCOME: interrupted attempt',
            ':now': now.toISOString(),
          },
        }),
      );
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
    await writeTallyCodes(this.table, jobId, [{ index, status: 'UNKNOWN', updatedAt: now.toISOString() }], expiresAtFrom(now));
    return true;
  }

  async findByMessageId(messageId: string): Promise<LedgerEntryLocation | undefined> {
    const { client, tableName } = this.table;
    const location = await locateLedgerMessage(client, tableName, messageId);
    if (!location) return undefined;
    const stored = await client.send(
      new GetCommand({ TableName: tableName, Key: messagingKeys.ledger(location.jobId, location.chunkIndex, location.index), ConsistentRead: true }),
    );
    if (!stored.Item) return undefined;
    return { jobId: location.jobId, chunkIndex: location.chunkIndex, entry: decodeLedgerEntry(stored.Item) };
  }

  async readChunkRecipients(jobId: string, chunkIndex: number): Promise<ChunkRecipientRecords> {
    const [listed, ledger] = await Promise.all([
      this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: messagingKeys.recipients(jobId, chunkIndex), ConsistentRead: true })),
      queryAll(this.table, {
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': messagingKeys.ledgerPartition(jobId, chunkIndex) },
        ConsistentRead: true,
      }),
    ]);
    return {
      ...(listed.Item ? { listed: decodeRecipients(listed.Item) } : {}),
      ledger: (await withTallyFacts(this.table, jobId, ledger.map((item) => ({ entry: decodeLedgerEntry(item), facts: decodeDeliveryFacts(item) })))).sort((a, b) => a.entry.index - b.entry.index),
    };
  }
}
