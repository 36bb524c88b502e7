/** Ledger entries and message id records of the messaging table (keys: messaging-table.ts; Meta's facts and tally codes: messaging-tally-items.ts). */
import * as v from 'valibot';
import type { ClaimState, LedgerEntry } from '../../broadcast/broadcast-stores';
import { MalformedMessagingItemError, expiresAtFrom, messagingKeys } from './messaging-table';

type Item = Record<string, unknown>;

/* -------------------------------------------------------------- ledger */

const ledgerStatusSchema = v.picklist(['SENDING', 'SENT', 'FAILED', 'UNKNOWN', 'CANCELLED', 'HELD_OUT']);
const ledgerEntrySchema = v.object({
  index: v.pipe(v.number(), v.integer(), v.minValue(0)),
  to: v.string(),
  status: ledgerStatusSchema,
  messageId: v.optional(v.string()),
  failureReasonCode: v.optional(v.string()),
  attempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
  updatedAt: v.string(),
  sentVia: v.optional(v.literal('marketing_messages')),
  held: v.optional(v.literal(true)),
});
// The schema must produce exactly the domain's entry.
const _ledgerEntryMatches: v.InferOutput<typeof ledgerEntrySchema> extends LedgerEntry ? true : never = true;
void _ledgerEntryMatches;

/** A per-recipient claim in the shape written before the ledger pages (ledger-page-items.ts): tests write it to show it is still read and honoured. */
export function claimItem(jobId: string, chunkIndex: number, index: number, to: string, now: Date, claimToken: string, as: ClaimState = 'SENDING'): Item {
  const state = typeof as === 'string' ? { status: as } : { status: as.status, failureReasonCode: as.failureReasonCode };
  return {
    ...messagingKeys.ledger(jobId, chunkIndex, index),
    index,
    to,
    ...state,
    attempts: 0,
    claimToken,
    updatedAt: now.toISOString(),
    expiresAt: expiresAtFrom(now),
  };
}

/**
 * An outcome on a per-recipient entry, the shape written before the ledger pages (tests write it).
 * The worker's outcome as an UpdateItem of its own attributes only (never a whole-item put): the
 * delivery facts Meta's events add to the same entry (possibly first) stay untouched.
 */
export function outcomeUpdate(jobId: string, chunkIndex: number, entry: LedgerEntry, expiresAt: number) {
  // No gsi1 keys: the message id has its own record (messageIdRecordItem), so the entry is in no index
  // and the events' fact updates write the entry alone.
  const attributes: Record<string, unknown> = { ...entry, expiresAt };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const assignments = Object.entries(attributes)
    .filter(([, value]) => value !== undefined)
    .map(([name, value], position) => {
      names[`#a${position}`] = name;
      values[`:a${position}`] = value;
      return `#a${position} = :a${position}`;
    });
  return {
    Key: messagingKeys.ledger(jobId, chunkIndex, entry.index),
    // The claim's token only guards the claim's own retries.
    UpdateExpression: `SET ${assignments.join(', ')} REMOVE claimToken`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** The record of a sent message id (one small item, written before the outcome that names it). */
export function messageIdRecordItem(messageId: string, location: { jobId: string; chunkIndex: number; index: number }, expiresAt: number): Item {
  return { ...messagingKeys.messageIdRecord(messageId), jobId: location.jobId, chunkIndex: location.chunkIndex, index: location.index, expiresAt };
}

const messageIdRecordSchema = v.object({
  jobId: v.string(),
  chunkIndex: v.pipe(v.number(), v.integer(), v.minValue(0)),
  index: v.pipe(v.number(), v.integer(), v.minValue(0)),
});

export function decodeMessageIdRecord(item: Item): { jobId: string; chunkIndex: number; index: number } {
  const result = v.safeParse(messageIdRecordSchema, item);
  if (!result.success) throw new MalformedMessagingItemError(`Stored message id record ${String(item.pk)} does not match its schema`);
  const { jobId, chunkIndex, index } = result.output;
  return { jobId, chunkIndex, index };
}

export function decodeLedgerEntry(item: Item): LedgerEntry {
  const result = v.safeParse(ledgerEntrySchema, item);
  if (!result.success) throw new MalformedMessagingItemError(`Stored ledger entry ${String(item.pk)} ${String(item.sk)} does not match the ledger schema`);
  return result.output;
}
