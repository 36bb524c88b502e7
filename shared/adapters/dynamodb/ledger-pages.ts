/**
 * Reads and group claims of the ledger pages (ledger-page-items.ts), shared by the recipient ledger,
 * the chunk progress store (reconcile) and the delivery store. Entries written before the pages
 * (one `R#<00000>` item per recipient) are read beside them.
 */
import { randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ClaimResult, ClaimState, LedgerEntry } from '../../broadcast/broadcast-stores';
import { decodeLedgerEntry } from './messaging-ledger-items';
import { decodeLedgerPage, encodePageEntry, ledgerPageKey, pageEntriesUpdate, type PagedEntry } from './ledger-page-items';
import { expiresAtFrom, ledgerIndexOf, messagingKeys } from './messaging-table';
import { isConditionFailure, queryAll, type MessagingTable } from './messaging-table-requests';

type Item = Record<string, unknown>;

/** One recipient of a group claim. */
export interface PageClaim {
  index: number;
  to: string;
  as?: ClaimState;
}

/** Rounds of one page's group claim: each refused round settles at least one recipient (ours, or someone's), so a page of 8 needs at most 9. */
const MOST_CLAIM_ROUNDS = 10;

/**
 * A claim token: 8 characters (48 random bits) are plenty to tell our write from another claimer's
 * of the same recipient, and cost 8 bytes a recipient instead of a UUID's 36.
 */
export const newClaimToken = (): string => randomBytes(6).toString('base64url');

/** The entry a claim writes: SENDING, or a final state (never sent). */
export function claimedEntry({ index, to, as = 'SENDING' }: PageClaim, now: Date): LedgerEntry {
  const state = typeof as === 'string' ? { status: as } : { status: as.status, failureReasonCode: as.failureReasonCode };
  return { index, to, ...state, attempts: 0, updatedAt: now.toISOString() };
}

/**
 * Claims `claims` (all on one page) in one conditional write: every entry still absent. On a refused
 * condition the page is read consistently and each recipient compared: our `token` → ours (an SDK
 * retry of our applied write, or a retried call passing the same token); someone's entry → not
 * claimed (`existing`); absent → claimed again in the next round. Results by recipient index.
 *
 * @example
 * const results = await claimOnPage(table, jobId, 0, [{ index: 8, to: '919800000008' }, { index: 9, to: '919800000009' }], now);
 */
export async function claimOnPage(
  table: MessagingTable,
  jobId: string,
  chunkIndex: number,
  claims: readonly PageClaim[],
  now: Date,
  token: string = newClaimToken(),
): Promise<Map<number, ClaimResult>> {
  const results = new Map<number, ClaimResult>();
  if (claims.length === 0) return results;
  const key = ledgerPageKey(jobId, chunkIndex, claims[0]!.index);
  let free = [...claims];
  for (let round = 1; free.length > 0; round += 1) {
    if (round > MOST_CLAIM_ROUNDS) throw new Error(`Ledger page ${key.pk} ${key.sk} refused ${MOST_CLAIM_ROUNDS} group claims in a row`);
    const values = new Map(free.map((claim) => [claim.index, encodePageEntry(claimedEntry(claim, now), token)]));
    try {
      await table.client.send(new UpdateCommand({ TableName: table.tableName, Key: key, ...pageEntriesUpdate(values, expiresAtFrom(now), true) }));
      for (const { index } of free) results.set(index, { claimed: true });
      return results;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
    }
    const stored = await readPage(table, key);
    const next: PageClaim[] = [];
    for (const claim of free) {
      const held = stored.get(claim.index);
      if (!held) next.push(claim);
      else results.set(claim.index, held.token === token ? { claimed: true } : { claimed: false, existing: held.entry });
    }
    free = next;
  }
  return results;
}

/** A page's entries by recipient index (a consistent read). */
export async function readPage(table: MessagingTable, key: { pk: string; sk: string }): Promise<Map<number, PagedEntry>> {
  const page = await table.client.send(new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }));
  return new Map((page.Item ? decodeLedgerPage(page.Item) : []).map((paged) => [paged.entry.index, paged]));
}

/**
 * One recipient's entry: from its page, else from an entry written before the pages. Undefined: none.
 *
 * @example
 * const entry = await readLedgerEntry(table, { jobId, chunkIndex: 0, index: 12 });
 */
export async function readLedgerEntry(
  table: MessagingTable,
  { jobId, chunkIndex, index }: { jobId: string; chunkIndex: number; index: number },
): Promise<LedgerEntry | undefined> {
  const paged = (await readPage(table, ledgerPageKey(jobId, chunkIndex, index))).get(index);
  if (paged) return paged.entry;
  return readLegacyEntry(table, jobId, chunkIndex, index);
}

/** An entry in the shape written before the pages (an item of Meta's facts alone, without a status, is none). */
export async function readLegacyEntry(table: MessagingTable, jobId: string, chunkIndex: number, index: number): Promise<LedgerEntry | undefined> {
  const stored = await table.client.send(
    new GetCommand({ TableName: table.tableName, Key: messagingKeys.ledger(jobId, chunkIndex, index), ConsistentRead: true }),
  );
  return stored.Item && isLegacyEntry(stored.Item) ? decodeLedgerEntry(stored.Item) : undefined;
}

/** A per-recipient item is an entry when it has a status; the delivery facts of a paged entry have none. */
export const isLegacyEntry = (item: Item): boolean => item.status !== undefined;

/** A chunk's whole ledger (one consistent Query of its partition): entries of pages and older items, and the per-recipient items (Meta's facts). */
export interface ChunkLedger {
  entries: LedgerEntry[];
  recipientItems: Item[];
}

/**
 * Every entry of a chunk, by index: pages first, an older per-recipient entry where no page holds
 * the recipient (a chunk begun before the pages).
 *
 * @example
 * const { entries } = await readChunkLedger(table, jobId, 0);
 */
export async function readChunkLedger(table: MessagingTable, jobId: string, chunkIndex: number): Promise<ChunkLedger> {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': messagingKeys.ledgerPartition(jobId, chunkIndex) },
    ConsistentRead: true,
  });
  const byIndex = new Map<number, LedgerEntry>();
  const recipientItems: Item[] = [];
  for (const item of items) {
    const sk = String(item.sk);
    if (sk.startsWith(messagingKeys.ledgerPagePrefix)) for (const { entry } of decodeLedgerPage(item)) byIndex.set(entry.index, entry);
  }
  for (const item of items) {
    if (!String(item.sk).startsWith(messagingKeys.ledgerEntryPrefix)) continue;
    recipientItems.push(item);
    const index = ledgerIndexOf(item.sk);
    if (index === undefined) continue;
    const paged = byIndex.get(index);
    if (!paged && isLegacyEntry(item)) byIndex.set(index, decodeLedgerEntry(item));
    // An entry without the worker's message id (UNKNOWN) learns it from Meta's events, on its facts item.
    else if (paged && paged.messageId === undefined && typeof item.messageId === 'string') byIndex.set(index, { ...paged, messageId: item.messageId });
  }
  return { entries: [...byIndex.values()].sort((a, b) => a.index - b.index), recipientItems };
}

/**
 * The indexes of a chunk held by entries written before the pages (a chunk begun by the previous
 * version): a page claim cannot see them, so the ledger checks them first. One key-only Query.
 */
export async function legacyEntryIndexes(table: MessagingTable, jobId: string, chunkIndex: number): Promise<Set<number>> {
  const items = await queryAll(table, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': messagingKeys.ledgerPartition(jobId, chunkIndex), ':prefix': messagingKeys.ledgerEntryPrefix },
    ProjectionExpression: 'sk, #status',
    ExpressionAttributeNames: { '#status': 'status' },
    ConsistentRead: true,
  });
  return new Set(items.filter(isLegacyEntry).flatMap((item) => ledgerIndexOf(item.sk) ?? []));
}
