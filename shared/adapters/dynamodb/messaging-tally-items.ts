/** Meta's delivery facts and the tally codes of the messaging table (keys: messaging-table.ts). */
import * as v from 'valibot';
import type { StatusEvent } from '../../delivery/ports';
import { pricingAttributeOf } from '../../delivery/message-pricing';
import { TALLY_BUCKET_SIZE, tallyCodeOfFacts, type DeliveryFacts, type DeliveryStage, type TallyCode } from '../../delivery/recipient-status';
import { factsOfSlot, MESSAGE_ID_SET, slotStatesOf } from './messaging-tally-facts';
import { outcomeSlotsOf } from './messaging-tally-outcomes';
import { WAITING_ATTRIBUTE } from './messaging-tally-waiting';
import type { OutcomeFacts } from '../../outcomes/outcome-facts';
import { MalformedMessagingItemError, tallySlotOf } from './messaging-table';

type Item = Record<string, unknown>;

/**
 * Meta's events on a ledger entry: first-seen timestamps per stage (ISO) and the failure, as
 * attributes of the entry itself (shared/delivery/recipient-status.ts). Written with
 * `if_not_exists`, so the worker's outcome write (which sets only its own attributes) and the events
 * never overwrite each other.
 */
const pricingFactSchema = v.object({
  category: v.string(),
  type: v.string(),
  billable: v.boolean(),
  pricingModel: v.string(),
  subtype: v.optional(v.string()),
});
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
export function deliveryFactsUpdate(event: Pick<StatusEvent, 'stage' | 'timestamp' | 'error' | 'pricing'>): {
  set: string[];
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
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
 * (outcomes: a code an event or an earlier write set is never lowered). A sent outcome's message id
 * (`messageId`) is also deleted from the item's `em` set in the same write: an event that beat the
 * outcome put it there for the recipients list, and the outcome now names it. Left in, ~60 bytes
 * a recipient would make every later write of the item cost up to twice the units.
 */
export function tallyOutcomeUpdates(jobId: string, codes: ReadonlyArray<{ index: number; code: TallyCode; messageId?: string }>, expiresAt: number) {
  const byItem = new Map<string, { key: { pk: string; sk: string }; codes: Map<string, TallyCode>; named: string[] }>();
  for (const { index, code, messageId } of codes) {
    const slot = tallySlotOf(jobId, index);
    let item = byItem.get(slot.key.sk);
    if (!item) {
      item = { key: slot.key, codes: new Map(), named: [] };
      byItem.set(slot.key.sk, item);
    }
    item.codes.set(slot.attribute, code);
    if (messageId !== undefined && code.startsWith('1')) item.named.push(`${index % TALLY_BUCKET_SIZE}:${messageId}`);
  }
  return [...byItem.values()].map(({ key, codes: attributes, named }) => {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':expiresAt': expiresAt };
    const assignments = ['expiresAt = if_not_exists(expiresAt, :expiresAt)'];
    [...attributes].forEach(([attribute, code], position) => {
      names[`#r${position}`] = attribute;
      values[`:c${position}`] = code;
      assignments.push(`#r${position} = if_not_exists(#r${position}, :c${position})`);
    });
    let expression = `SET ${assignments.join(', ')}`;
    if (named.length > 0) {
      names['#em'] = MESSAGE_ID_SET;
      values[':em'] = new Set(named);
      expression += ' DELETE #em :em';
    }
    return { Key: key, UpdateExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values };
  });
}

const TALLY_ATTRIBUTE = /^r(\d{5})$/;

function firstIndexOf(item: Item): number {
  const bucket = /^TALLY#(\d+)$/.exec(String(item.sk));
  if (!bucket) throw new MalformedMessagingItemError(`Stored tally ${String(item.pk)} ${String(item.sk)} has no bucket`);
  return Number(bucket[1]) * TALLY_BUCKET_SIZE;
}

/**
 * Meta's facts a tally item holds, by recipient index, with each recipient's calling code and a
 * message id an event taught an outcome that had none (messaging-tally-facts.ts).
 *
 * @example tallyFactsOf(item).get(107)?.facts.readAt
 */
export function tallyFactsOf(item: Item): Map<number, { facts: DeliveryFacts; callingCode?: string; messageId?: string }> {
  const first = firstIndexOf(item);
  return new Map([...slotStatesOf(item)].map(([slot, state]) => [first + slot, factsOfSlot(state)]));
}

/**
 * The outcome facts a tally item holds (messaging-tally-outcomes.ts), by recipient index.
 *
 * @example tallyOutcomesOf(item).get(107)?.repliedAt
 */
export function tallyOutcomesOf(item: Item): Map<number, OutcomeFacts> {
  const first = firstIndexOf(item);
  return new Map([...outcomeSlotsOf(item)].map(([slot, facts]) => [first + slot, facts]));
}

/**
 * The tally codes an item holds, by recipient index: per recipient the higher of the worker's
 * outcome code (attributes `r<00000>`) and the code of Meta's facts in the item's sets (a
 * max-register either way: both only grow).
 */
export function decodeTally(item: Item): Array<[index: number, code: TallyCode]> {
  const first = firstIndexOf(item);
  const codes = new Map<number, TallyCode>();
  for (const [name, value] of Object.entries(item)) {
    const attribute = TALLY_ATTRIBUTE.exec(name);
    if (!attribute || typeof value !== 'string') continue;
    const index = Number(attribute[1]);
    // A code outside its bucket would be counted twice by a sloppy writer: never trusted.
    if (index < first || index >= first + TALLY_BUCKET_SIZE)
      throw new MalformedMessagingItemError(`Stored tally ${String(item.sk)} holds recipient ${index} of another bucket`);
    codes.set(index, value);
  }
  for (const [index, { facts, callingCode }] of tallyFactsOf(item)) {
    const code = tallyCodeOfFacts(facts, callingCode);
    const outcome = codes.get(index);
    if (code !== undefined && (outcome === undefined || outcome < code)) codes.set(index, code);
  }
  // A recipient held unclaimed (messaging-tally-waiting.ts) reads waiting only while nothing else is known of it.
  for (const [name, value] of Object.entries(item)) {
    const waiting = WAITING_ATTRIBUTE.exec(name);
    if (waiting && typeof value === 'string' && !codes.has(Number(waiting[1]))) codes.set(Number(waiting[1]), value);
  }
  return [...codes];
}
