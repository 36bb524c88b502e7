/**
 * A signed webhook batch too large for one queue message, split into parts that each fit. Meta's
 * batches reach 3 MB under load (../shared/meta/webhooks-and-limits.md); a queue message holds
 * 256 KiB. The signature is checked once, on the whole body, before splitting: the parts are the
 * platform's own records of what Meta sent, applied like any batch (the processor is idempotent and
 * order-independent, so a redelivery of the whole after a part was queued changes nothing).
 *
 * A part keeps the batch's `object` and, for each change it carries, its entry's fields and the
 * change's `field`; a change's `value` is split by its lists (`statuses`, `messages`, `errors`), each
 * part keeping the value's other fields (`messaging_product`, `metadata`, `contacts`), so every
 * status or message still has its account, number and contact beside it.
 */

type Json = Record<string, unknown>;

/** The value lists a change may be split along; everything else in a value travels with each part. */
const splittableLists = ['statuses', 'messages', 'errors'] as const;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * How a part is measured: `size` must add up over concatenation (the bytes a text takes once
 * JSON-escaped inside the queue message does), and each part's size stays within `budget`.
 */
export interface PartMeasure {
  size: (text: string) => number;
  budget: number;
}

/**
 * The body as one or more JSON texts, each within the measure's budget (the body itself when it
 * fits); undefined when it cannot be split so (not Meta's shape, or one status or message alone
 * too large).
 *
 * @example
 * const escapedBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;
 * const parts = splitWebhookBatch(body, { size: escapedBytes, budget: 256 * 1024 - 100 });
 * if (!parts) throw new WebhookPayloadTooLargeError(256 * 1024);
 */
export function splitWebhookBatch(body: string, measure: PartMeasure): string[] | undefined {
  const fits = (text: string) => measure.size(text) <= measure.budget;
  if (fits(body)) return [body];
  let batch: unknown;
  try {
    batch = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(batch) || !Array.isArray(batch.entry)) return undefined;
  const { entry: entries, ...batchFields } = batch;
  const wrap = (entryList: unknown[]) => JSON.stringify({ ...batchFields, entry: entryList });
  const units: unknown[] = [];
  for (const entry of entries) {
    const entryUnits = unitsOfEntry(entry, (candidate) => fits(wrap([candidate])));
    if (!entryUnits) return undefined;
    units.push(...entryUnits);
  }
  return packUnits(units, wrap([]), measure);
}

/** One entry as entries of one change each, every change split until it fits. */
function unitsOfEntry(entry: unknown, fits: (entry: unknown) => boolean): unknown[] | undefined {
  if (fits(entry)) return [entry];
  if (!isObject(entry) || !Array.isArray(entry.changes)) return undefined;
  const { changes, ...entryFields } = entry;
  const units: unknown[] = [];
  for (const change of changes) {
    const asEntry = (candidate: unknown) => ({ ...entryFields, changes: [candidate] });
    const parts = splitChange(change, (candidate) => fits(asEntry(candidate)));
    if (!parts) return undefined;
    units.push(...parts.map(asEntry));
  }
  return units;
}

/** A change whose value's lists are halved until each part fits; undefined when one element alone does not. */
function splitChange(change: unknown, fits: (change: unknown) => boolean): unknown[] | undefined {
  if (fits(change)) return [change];
  if (!isObject(change) || !isObject(change.value)) return undefined;
  const value = change.value;
  const list = splittableLists.find((name) => Array.isArray(value[name]) && (value[name] as unknown[]).length > 0);
  if (!list) return undefined;
  const others = splittableLists.filter((name) => name !== list && value[name] !== undefined);
  if (others.length > 0) {
    // Lists apart first: a part with the statuses, one with the messages, one with the errors.
    const apart = [list, ...others].map((name) => ({ ...change, value: { ...withoutLists(value), [name]: value[name] } }));
    return flatSplit(apart, fits);
  }
  const items = value[list] as unknown[];
  if (items.length === 1) return undefined;
  const half = Math.ceil(items.length / 2);
  const halves = [items.slice(0, half), items.slice(half)].map((part) => ({ ...change, value: { ...value, [list]: part } }));
  return flatSplit(halves, fits);
}

function flatSplit(changes: unknown[], fits: (change: unknown) => boolean): unknown[] | undefined {
  const parts: unknown[] = [];
  for (const change of changes) {
    const split = splitChange(change, fits);
    if (!split) return undefined;
    parts.push(...split);
  }
  return parts;
}

function withoutLists(value: Json): Json {
  const rest = { ...value };
  for (const name of splittableLists) delete rest[name];
  return rest;
}

/**
 * Units in order, as few texts as fit. Sizes add up, so each unit is measured once (packing by
 * re-measuring the growing text would be quadratic in the number of units).
 */
function packUnits(units: unknown[], emptyBatch: string, measure: PartMeasure): string[] {
  // `entry` is the last key of the wrapper, so its text ends with `[]}`.
  const prefix = emptyBatch.slice(0, -2);
  const suffix = emptyBatch.slice(-2);
  const frame = measure.size(prefix) + measure.size(suffix);
  const texts: string[] = [];
  let current: string[] = [];
  let currentSize = frame;
  const comma = measure.size(',');
  for (const unit of units) {
    const text = JSON.stringify(unit);
    const size = measure.size(text);
    if (current.length > 0 && currentSize + comma + size > measure.budget) {
      texts.push(prefix + current.join(',') + suffix);
      current = [];
      currentSize = frame;
    }
    currentSize += size + (current.length > 0 ? comma : 0);
    current.push(text);
  }
  if (current.length > 0) texts.push(prefix + current.join(',') + suffix);
  return texts;
}
