/**
 * The recipient ledger in the messaging table, in pages (keys and item shapes: messaging-table.ts,
 * ledger-page-items.ts): a group of recipients of one page is claimed in one conditional write, a
 * flush of outcomes writes each page once (the pages it holds whole in a BatchWriteItem, the others
 * setting only its recipients' attributes), and each outcome's tally code is written with it.
 * Entries written before the pages are still read.
 */
import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type {
  ChunkRecipientRecords,
  ClaimResult,
  ClaimState,
  LedgerEntry,
  LedgerEntryLocation,
  RecipientClaim,
  RecipientLedger,
} from '../../broadcast/broadcast-stores';
import type { DeliveryFacts, TallyCode } from '../../delivery/recipient-status';
import { defaultStoreRetryPolicy, type StoreRetryPolicy } from '../../ports/store-retry';
import { classifyStoreFaults } from './dynamodb-errors';
import { CLAIMED_PREFIX, encodePageEntry, ledgerPageKey, ledgerPageOf, outcomePageWrites, pageEntryAttribute } from './ledger-page-items';
import { claimOnPage, legacyEntryIndexes, newClaimToken, readChunkLedger, readLedgerEntry, readLegacyEntry, readPage } from './ledger-pages';
import { locateLedgerMessage } from './ledger-message-ids';
import { decodeRecipients } from './messaging-job-items';
import { messageIdRecordItem } from './messaging-ledger-items';
import { decodeDeliveryFacts } from './messaging-tally-items';
import { expiresAtFrom, ledgerIndexOf, messagingKeys } from './messaging-table';
import { batchWrite, isConditionFailure, writeTallyCodes, type MessagingTable, type SettledOutcome } from './messaging-table-requests';
import { withTallyFactsAndOutcomes } from './tally-facts-reader';
import { writeWaitingCodes } from './messaging-tally-waiting';

type Item = Record<string, unknown>;

/** Chunks whose older per-recipient entries this process remembers (one key-only Query each). */
const LEGACY_CHUNKS_KEPT = 512;
const UNKNOWN_INTERRUPTED = 'UNKNOWN_OUTCOME: interrupted attempt';

export class DynamoDbRecipientLedger implements RecipientLedger {
  private readonly table: MessagingTable;
  private readonly legacyIndexes = new Map<string, Promise<Set<number>>>();

  /** Each group claim's token by its call's `claims` array (a retried call passes the same array). */
  private readonly claimTokens = new WeakMap<readonly RecipientClaim[], string>();

  /** `retryPolicy`: the pauses between offers of items a BatchWriteItem left unprocessed (the chunk worker's store-retry policy unless given). */
  constructor(
    client: DynamoDBDocumentClient,
    tableName: string,
    private readonly retryPolicy: StoreRetryPolicy = defaultStoreRetryPolicy,
  ) {
    classifyStoreFaults(client);
    this.table = { client, tableName };
  }

  async claimRecipient(jobId: string, chunkIndex: number, index: number, to: string, now: Date, as: ClaimState = 'SENDING'): Promise<ClaimResult> {
    const [result] = await this.claimRecipients(jobId, chunkIndex, [{ index, to, as }], now);
    return result!;
  }

  /**
   * One conditional write per page the group touches (claimOnPage: a refused write is read back
   * and compared per recipient by its token). A recipient held by an entry written before the
   * pages is someone's: the page claim could not see it.
   *
   * The token belongs to the call's `claims` array: the store retry (shared/ports/store-retry.ts)
   * calls again with the same array after a fault, and a page the failed attempt did write (a group
   * spanning pages fails as a whole when one page's write fails) is then recognised as this claim's,
   * not read as another worker's SENDING entry (which would end UNKNOWN and never be sent).
   */
  async claimRecipients(jobId: string, chunkIndex: number, claims: readonly RecipientClaim[], now: Date): Promise<ClaimResult[]> {
    let token = this.claimTokens.get(claims);
    if (token === undefined) {
      token = newClaimToken();
      this.claimTokens.set(claims, token);
    }
    const results = new Map<number, ClaimResult>();
    const legacy = await this.legacyIndexesOf(jobId, chunkIndex);
    const byPage = new Map<number, RecipientClaim[]>();
    await Promise.all(
      claims.map(async (claim) => {
        const existing = legacy.has(claim.index) ? await readLegacyEntry(this.table, jobId, chunkIndex, claim.index) : undefined;
        if (existing) return results.set(claim.index, { claimed: false, existing });
        const page = ledgerPageOf(claim.index);
        byPage.set(page, [...(byPage.get(page) ?? []), claim]);
      }),
    );
    await Promise.all(
      [...byPage.values()].map(async (group) => {
        for (const [index, result] of await claimOnPage(this.table, jobId, chunkIndex, group, now, token)) results.set(index, result);
      }),
    );
    return claims.map(({ index }) => results.get(index)!);
  }

  async releaseClaim(jobId: string, chunkIndex: number, index: number): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: ledgerPageKey(jobId, chunkIndex, index),
          UpdateExpression: 'REMOVE #e',
          ConditionExpression: 'begins_with(#e, :claimed)',
          ExpressionAttributeNames: { '#e': pageEntryAttribute(index) },
          ExpressionAttributeValues: { ':claimed': CLAIMED_PREFIX },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /**
   * The message ids' records first (an outcome naming a message id is always findable by it), then
   * the pages: every page the flush holds whole as one item, 25 to a BatchWriteItem, a page it holds
   * in part by an UpdateItem of its recipients' entries (ledger-page-items.ts `outcomePageWrites`;
   * the claim's token leaves with the claimed value). Items left unprocessed are offered again on the
   * store-retry policy's pauses. Then the recipients' tally codes, one UpdateItem per tally item,
   * never lowering an event's code.
   */
  async recordOutcomes(jobId: string, chunkIndex: number, entries: readonly LedgerEntry[]): Promise<void> {
    const expiresAt = expiresAtFrom(new Date());
    const records = entries.flatMap((entry) =>
      entry.messageId ? [{ PutRequest: { Item: messageIdRecordItem(entry.messageId, { jobId, chunkIndex, index: entry.index }, expiresAt) } }] : [],
    );
    await batchWrite(this.table, records, 'message id records still unprocessed', this.retryPolicy);
    const pages = outcomePageWrites(jobId, chunkIndex, entries, expiresAt);
    await Promise.all([
      batchWrite(
        this.table,
        pages.items.map((Item) => ({ PutRequest: { Item } })),
        'ledger pages still unprocessed',
        this.retryPolicy,
      ),
      ...pages.updates.map((update) => this.table.client.send(new UpdateCommand({ TableName: this.table.tableName, ...update }))),
    ]);
    await writeTallyCodes(this.table, jobId, entries, expiresAt);
  }

  async recordSettled(jobId: string, entries: readonly SettledOutcome[]): Promise<void> {
    await writeTallyCodes(this.table, jobId, entries, expiresAtFrom(new Date()));
  }

  async recordWaiting(jobId: string, entries: ReadonlyArray<{ index: number; code: TallyCode }>): Promise<void> {
    await writeWaitingCodes(this.table, jobId, entries, expiresAtFrom(new Date()));
  }

  /** Reads the page, then replaces the entry only if it is still the SENDING value read (a rare path: a crashed attempt's claim). */
  async markStaleAsUnknown(jobId: string, chunkIndex: number, index: number, now: Date): Promise<boolean> {
    const paged = (await readPage(this.table, ledgerPageKey(jobId, chunkIndex, index))).get(index);
    const marked = paged
      ? await this.markPagedUnknown(jobId, chunkIndex, paged.entry, paged.token, now)
      : await this.markLegacyUnknown(jobId, chunkIndex, index, now);
    if (marked) await writeTallyCodes(this.table, jobId, [{ index, status: 'UNKNOWN', updatedAt: now.toISOString() }], expiresAtFrom(now));
    return marked;
  }

  async findByMessageId(messageId: string): Promise<LedgerEntryLocation | undefined> {
    const location = await locateLedgerMessage(this.table.client, this.table.tableName, messageId);
    if (!location) return undefined;
    const entry = await readLedgerEntry(this.table, location);
    return entry ? { jobId: location.jobId, chunkIndex: location.chunkIndex, entry } : undefined;
  }

  async readChunkRecipients(jobId: string, chunkIndex: number): Promise<ChunkRecipientRecords> {
    const [listed, ledger] = await Promise.all([
      this.table.client.send(new GetCommand({ TableName: this.table.tableName, Key: messagingKeys.recipients(jobId, chunkIndex), ConsistentRead: true })),
      readChunkLedger(this.table, jobId, chunkIndex),
    ]);
    const facts = factsByIndex(ledger.recipientItems);
    const recipients = listed.Item ? decodeRecipients(listed.Item) : undefined;
    // Meta's facts live in the tally items (earlier versions kept them on per-recipient items: merged), the outcome facts beside them.
    const records = ledger.entries.map((entry) => ({ entry, facts: facts.get(entry.index) ?? {} }));
    const tally = await withTallyFactsAndOutcomes(
      this.table,
      jobId,
      records,
      (recipients ?? []).map(({ index }) => index),
    );
    return {
      ...(recipients ? { listed: recipients } : {}),
      ledger: tally.ledger,
      ...(tally.outcomes.size > 0 ? { outcomes: tally.outcomes } : {}),
      ...(tally.waiting.size > 0 ? { waiting: tally.waiting } : {}),
    };
  }

  private async markPagedUnknown(jobId: string, chunkIndex: number, entry: LedgerEntry, token: string | undefined, now: Date): Promise<boolean> {
    if (entry.status !== 'SENDING') return false;
    const unknown: LedgerEntry = { ...entry, status: 'UNKNOWN', failureReasonCode: UNKNOWN_INTERRUPTED, updatedAt: now.toISOString() };
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: ledgerPageKey(jobId, chunkIndex, entry.index),
          UpdateExpression: 'SET #e = :unknown',
          // Exactly the claim read: an outcome or another resolution written meanwhile wins.
          ConditionExpression: '#e = :claimed',
          ExpressionAttributeNames: { '#e': pageEntryAttribute(entry.index) },
          ExpressionAttributeValues: { ':unknown': encodePageEntry(unknown), ':claimed': encodePageEntry(entry, token) },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** An entry written before the pages, as it was marked then. */
  private async markLegacyUnknown(jobId: string, chunkIndex: number, index: number, now: Date): Promise<boolean> {
    try {
      await this.table.client.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: messagingKeys.ledger(jobId, chunkIndex, index),
          UpdateExpression: 'SET #status = :unknown, failureReasonCode = :reason, updatedAt = :now',
          ConditionExpression: '#status = :sending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':unknown': 'UNKNOWN', ':sending': 'SENDING', ':reason': UNKNOWN_INTERRUPTED, ':now': now.toISOString() },
        }),
      );
      return true;
    } catch (error) {
      if (isConditionFailure(error)) return false;
      throw error;
    }
  }

  /** Remembered per process: no claim writes per-recipient entries any more, so the set only shrinks (a release), never grows. */
  private legacyIndexesOf(jobId: string, chunkIndex: number): Promise<Set<number>> {
    const key = `${jobId}#${chunkIndex}`;
    let indexes = this.legacyIndexes.get(key);
    if (!indexes) {
      if (this.legacyIndexes.size >= LEGACY_CHUNKS_KEPT) this.legacyIndexes.delete(this.legacyIndexes.keys().next().value!);
      indexes = legacyEntryIndexes(this.table, jobId, chunkIndex);
      indexes.catch(() => this.legacyIndexes.delete(key));
      this.legacyIndexes.set(key, indexes);
    }
    return indexes;
  }
}

/** Meta's delivery facts by recipient index, from the per-recipient items of the chunk's partition. */
function factsByIndex(items: readonly Item[]): Map<number, DeliveryFacts> {
  return new Map(
    items.flatMap((item) => {
      const index = ledgerIndexOf(item.sk);
      return index === undefined ? [] : [[index, decodeDeliveryFacts(item)] as const];
    }),
  );
}
