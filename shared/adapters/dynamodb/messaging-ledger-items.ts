/** Ledger entries, message id records, Meta's delivery facts and tally codes of the messaging table (keys: messaging-table.ts). */
import * as v from 'valibot';
import type { ClaimState, LedgerEntry } from '../../broadcast/broadcast-stores';
import type { StatusEvent } from '../../delivery/ports';
import { pricingAttributeOf } from '../../delivery/message-pricing';
import { TALLY_BUCKET_SIZE, type DeliveryFacts, type DeliveryStage, type TallyCode } from '../../delivery/recipient-status';
import { MalformedMessagingItemError, expiresAtFrom, messagingKeys, tallySlotOf } from './messaging-table';

type Item = Record<string, unknown>;

/* -------------------------------------------------------------- ledger */

const ledgerStatusSchema = v.picklist(['SENDING', 'SENT', 'FAILED', 'UNKNOWN', 'CANCELLED']);
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
  return { ...messagingKeys.ledger(jobId, chunkIndex, index), index, to, ...state, attempts: 0, claimToken, updatedAt: now.toISOString(), expiresAt: expiresAtFrom(now) };
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

const messageIdRecordSchema = v.object({ jobId: v.string(), chunkIndex: v.pipe(v.number(), v.integer(), v.minValue(0)), index: v.pipe(v.number(), v.integer(), v.minValue(0)) });

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

/**
 * Meta's events on a ledger entry: first-seen timestamps per stage (ISO) and the failure, as
 * attributes of the entry itself (shared/delivery/recipient-status.ts). Written with
 * `if_not_exists`, so the worker's outcome write (which sets only its own attributes) and the events
 * never overwrite each other.
 */
const pricingFactSchema = v.object({ category: v.string(), type: v.string(), billable: v.boolean(), pricingModel: v.string() });
const deliveryFactsSchema = v.object({
  sentAt: v.optional(v.string()),
  deliveredAt: v.optional(v.string()),
  readAt: v.optional(v.string()),
  failedAt: v.optional(v.string()),
  metaErrorCode: v.optional(v.pipe(v.number(), v.integer())),
  metaErrorTitle: v.optional(v.string()),
  sentPricing: v.optional(pricingFactSchema),
  deliveredPricing: v.optional(pricingFactSchema),
  readPricing: v.optional(pricingFactSchema),
});
const _deliveryFactsMatch: v.InferOutput<typeof deliveryFactsSchema> extends DeliveryFacts ? true : never = true;
void _deliveryFactsMatch;

export function decodeDeliveryFacts(item: Item): DeliveryFacts {
  const result = v.safeParse(deliveryFactsSchema, item);
  if (!result.success) throw new MalformedMessagingItemError(`Stored ledger entry ${String(item.pk)} ${String(item.sk)} has malformed delivery facts`);
  const facts: DeliveryFacts = {};
  for (const [name, value] of Object.entries(result.output)) if (value !== undefined) (facts as Record<string, unknown>)[name] = value;
  return facts;
}

const FACT_ATTRIBUTE: Record<DeliveryStage, keyof DeliveryFacts> = { sent: 'sentAt', delivered: 'deliveredAt', read: 'readAt', failed: 'failedAt' };

/**
 * The UpdateItem SET clauses that add one status event's facts to an item (a ledger entry, an
 * /upstream send): Meta's timestamp of its stage and, on failures, Meta's error, each only when
 * absent, so duplicated and reordered events change nothing further. Names `#f<n>`, values `:f<n>`.
 */
export function deliveryFactsUpdate(event: Pick<StatusEvent, 'stage' | 'timestamp' | 'error' | 'pricing'>): { set: string[]; names: Record<string, string>; values: Record<string, unknown> } {
  const facts: Array<[keyof DeliveryFacts, unknown]> = [[FACT_ATTRIBUTE[event.stage], event.timestamp.toISOString()]];
  if (event.stage === 'failed' && event.error) facts.push(['metaErrorCode', event.error.code], ['metaErrorTitle', event.error.title]);
  // Folded into the same write: pricing costs no write of its own (a few bytes on a < 1 KB entry).
  const pricingAttribute = pricingAttributeOf(event.stage);
  if (pricingAttribute && event.pricing) facts.push([pricingAttribute, { ...event.pricing }]);
  const update = { set: [] as string[], names: {} as Record<string, string>, values: {} as Record<string, unknown> };
  facts.forEach(([attribute, value], index) => {
    update.set.push(`#f${index} = if_not_exists(#f${index}, :f${index})`);
    update.names[`#f${index}`] = attribute;
    update.values[`:f${index}`] = value;
  });
  return update;
}

/* --------------------------------------------------------------- tally */

/**
 * Codes grouped per tally item, for one UpdateItem per item: `SET r = if_not_exists(r, :code)`
 * (outcomes: a code an event or an earlier write set is never lowered).
 */
export function tallyOutcomeUpdates(jobId: string, codes: ReadonlyArray<{ index: number; code: TallyCode }>, expiresAt: number) {
  const byItem = new Map<string, { key: { pk: string; sk: string }; codes: Map<string, TallyCode> }>();
  for (const { index, code } of codes) {
    const slot = tallySlotOf(jobId, index);
    let item = byItem.get(slot.key.sk);
    if (!item) {
      item = { key: slot.key, codes: new Map() };
      byItem.set(slot.key.sk, item);
    }
    item.codes.set(slot.attribute, code);
  }
  return [...byItem.values()].map(({ key, codes: attributes }) => {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':expiresAt': expiresAt };
    const assignments = ['expiresAt = if_not_exists(expiresAt, :expiresAt)'];
    [...attributes].forEach(([attribute, code], position) => {
      names[`#r${position}`] = attribute;
      values[`:c${position}`] = code;
      assignments.push(`#r${position} = if_not_exists(#r${position}, :c${position})`);
    });
    return { Key: key, UpdateExpression: `SET ${assignments.join(', ')}`, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
  });
}

const TALLY_ATTRIBUTE = /^r(\d{5})$/;

/** The tally codes an item holds, by recipient index (attributes `r<00000>`; anything else is ignored). */
export function decodeTally(item: Item): Array<[index: number, code: TallyCode]> {
  const bucket = /^TALLY#(\d+)$/.exec(String(item.sk));
  if (!bucket) throw new MalformedMessagingItemError(`Stored tally ${String(item.pk)} ${String(item.sk)} has no bucket`);
  const first = Number(bucket[1]) * TALLY_BUCKET_SIZE;
  const codes: Array<[number, TallyCode]> = [];
  for (const [name, value] of Object.entries(item)) {
    const attribute = TALLY_ATTRIBUTE.exec(name);
    if (!attribute || typeof value !== 'string') continue;
    const index = Number(attribute[1]);
    // A code outside its bucket would be counted twice by a sloppy writer: never trusted.
    if (index < first || index >= first + TALLY_BUCKET_SIZE) throw new MalformedMessagingItemError(`Stored tally ${String(item.sk)} holds recipient ${index} of another bucket`);
    codes.push([index, value]);
  }
  return codes;
}
