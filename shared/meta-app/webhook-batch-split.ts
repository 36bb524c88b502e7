/**
 * A signed webhook batch too large for one queue message, split into parts that each fit. Meta's
 * batches reach 3 MB under load (../shared/meta/webhooks-and-limits.md); a queue message holds
 * 256 KiB. The signature is checked once, on the whole body, before splitting: the parts are the
 * platform's own records of what Meta sent, applied like any batch (the processor is idempotent and
 * order-independent, so a redelivery of the whole after a part was queued changes nothing).
 *
 * A part keeps the batch's `object` and, for each change it carries, its entry's fields and the
 * change's `field`; a change's `value` is split along its lists (every list but `contacts`:
 * `statuses`, `messages`, `errors`, `user_preferences`, …), one list per part, each part keeping the
 * value's other fields (`messaging_product`, `metadata`) and only the `contacts` its own elements
 * name (webhook-part-contacts.ts), so every status or message still has its account, number and
 * contact beside it and no part carries the whole change's contacts. Contacts no element names stay
 * with the change's first part, so the parts together hold everything the batch held.
 */
import { jsonTextSizer } from './json-text-size';
import { contactIndexOf, type ContactIndex } from './webhook-part-contacts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * How a part is measured: `size` must add up over concatenation (the bytes a text takes once
 * JSON-escaped inside the queue message does), and each part's size stays within `budget`.
 */
export interface PartMeasure {
  size: (text: string) => number;
  budget: number;
}

/** The size of a candidate as it would stand in a part (wrapped in its entry and the batch). */
type SizeOf = (candidate: unknown) => number;

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
  if (measure.size(body) <= measure.budget) return [body];
  let batch: unknown;
  try {
    batch = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObject(batch) || !Array.isArray(batch.entry)) return undefined;
  const { entry: entries, ...batchFields } = batch;
  const wrap = (entryList: unknown[]) => ({ ...batchFields, entry: entryList });
  // Every candidate is measured from its parts (json-text-size.ts): each element is measured once.
  const sized: Sized = { measure, sizeOf: jsonTextSizer(measure.size) };
  const units: unknown[] = [];
  for (const entry of entries) {
    const entryUnits = unitsOfEntry(entry, (candidate) => sized.sizeOf(wrap([candidate])), sized);
    if (!entryUnits) return undefined;
    units.push(...entryUnits);
  }
  return packUnits(units, JSON.stringify(wrap([])), sized);
}

/** The measure, and the size of any value's JSON text under it (cached by identity). */
interface Sized {
  measure: PartMeasure;
  sizeOf: (value: unknown) => number;
}

/** One entry as entries of one change each, every change split until it fits. */
function unitsOfEntry(entry: unknown, sizeOf: SizeOf, sized: Sized): unknown[] | undefined {
  if (sizeOf(entry) <= sized.measure.budget) return [entry];
  if (!isObject(entry) || !Array.isArray(entry.changes)) return undefined;
  const { changes, ...entryFields } = entry;
  const units: unknown[] = [];
  for (const change of changes) {
    const asEntry = (candidate: unknown) => ({ ...entryFields, changes: [candidate] });
    const parts = splitChange(change, (candidate) => sizeOf(asEntry(candidate)), sized);
    if (!parts) return undefined;
    units.push(...parts.map(asEntry));
  }
  return units;
}

/** What every part of one change shares: the change, its value without its lists, its contacts. */
interface ChangeFrame {
  change: Json;
  rest: Json;
  contacts: readonly unknown[] | undefined;
  index: ContactIndex;
}

/**
 * A change whose value's lists are packed, element by element in order, into parts that fit; each
 * part is measured exactly as it is built (sizes add up), so every element and contact is
 * measured once. Undefined when one element (with the contacts it names) alone does not fit.
 */
function splitChange(change: unknown, sizeOf: SizeOf, sized: Sized): unknown[] | undefined {
  if (sizeOf(change) <= sized.measure.budget) return [change];
  if (!isObject(change) || !isObject(change.value)) return undefined;
  const value = change.value;
  const listNames = Object.keys(value).filter((name) => name !== 'contacts' && Array.isArray(value[name]) && (value[name] as unknown[]).length > 0);
  if (listNames.length === 0) return undefined;
  const contacts = Array.isArray(value.contacts) ? (value.contacts as unknown[]) : undefined;
  const rest = { ...value };
  for (const name of listNames) delete rest[name];
  const frame: ChangeFrame = { change, rest, contacts, index: contactIndexOf(contacts ?? []) };
  // Contacts no element names travel with the first part (nothing of the batch is dropped).
  let carried = contacts ? frame.index.unnamed(listNames.map((name) => value[name] as unknown[])) : [];
  const parts: unknown[] = [];
  for (const name of listNames) {
    const packed = packList(frame, name, value[name] as unknown[], carried, sizeOf, sized);
    if (!packed) return undefined;
    parts.push(...packed);
    carried = [];
  }
  return parts;
}

function packList(frame: ChangeFrame, name: string, items: readonly unknown[], carried: number[], sizeOf: SizeOf, sized: Sized): unknown[] | undefined {
  const { change, rest, contacts, index } = frame;
  const partOf = (elements: unknown[], positions: ReadonlySet<number>) => ({
    ...change,
    value: { ...rest, ...(contacts ? { contacts: [...positions].sort((a, b) => a - b).map((position) => contacts[position]) } : {}), [name]: elements },
  });
  const { measure } = sized;
  const empty = sizeOf(partOf([], new Set()));
  const comma = measure.size(',');
  const contactSize = (position: number) => sized.sizeOf(contacts![position]);
  const parts: unknown[] = [];
  let elements: unknown[] = [];
  let chosen = new Set<number>();
  let size = empty;
  const add = (positions: readonly number[]) => {
    for (const position of positions) {
      size += contactSize(position) + (chosen.size > 0 ? comma : 0);
      chosen.add(position);
    }
  };
  add(carried);
  for (const item of items) {
    const itemSize = sized.sizeOf(item);
    const named = contacts ? index.namedBy(item) : [];
    const growth = () => {
      const fresh = named.filter((position) => !chosen.has(position));
      const contactGrowth = fresh.reduce((sum, position, k) => sum + contactSize(position) + (chosen.size + k > 0 ? comma : 0), 0);
      return { fresh, bytes: itemSize + (elements.length > 0 ? comma : 0) + contactGrowth };
    };
    let next = growth();
    if (size + next.bytes > measure.budget && elements.length > 0) {
      parts.push(partOf(elements, chosen));
      elements = [];
      chosen = new Set();
      size = empty;
      next = growth();
    }
    if (size + next.bytes > measure.budget) return undefined;
    add(next.fresh);
    size += itemSize + (elements.length > 0 ? comma : 0);
    elements.push(item);
  }
  if (elements.length > 0) parts.push(partOf(elements, chosen));
  return parts;
}

/**
 * Units in order, as few texts as fit. Sizes add up, so each unit is measured once (packing by
 * re-measuring the growing text would be quadratic in the number of units), and from its parts. Undefined when a unit
 * alone does not fit (never for the units above, which were measured in place; a guard all the same).
 */
function packUnits(units: unknown[], emptyBatch: string, { measure, sizeOf }: Sized): string[] | undefined {
  // `entry` is the last key of the wrapper, so its text ends with `[]}`.
  const prefix = emptyBatch.slice(0, -2);
  const suffix = emptyBatch.slice(-2);
  const frame = measure.size(prefix) + measure.size(suffix);
  const texts: string[] = [];
  let current: string[] = [];
  let currentSize = frame;
  const comma = measure.size(',');
  for (const unit of units) {
    const size = sizeOf(unit);
    if (frame + size > measure.budget) return undefined;
    const text = JSON.stringify(unit);
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
