/**
 * Ledger pages of the messaging table (keys: messaging-table.ts `ledgerPage`): one item holds the
 * entries of LEDGER_PAGE_SIZE consecutive recipients of a chunk, one short attribute each
 * (`e<offset>`), so a group of recipients is claimed in ONE conditional write and a flush of
 * outcomes costs one write per page instead of one per recipient (docs/DATA-MODEL.md "Ledger pages").
 *
 * A write costs ceil(max(old, new item size) / 1 KB) write units: the page is sized so a page of
 * sent entries (a ~60-byte message id each) stays under 1 KB, and each entry is one compact string:
 *
 *   <status><updatedAt: epoch ms, base 36>|<attempts, base 36>|<flags>|<claim token>|<to>|<message id>|<failure reason>
 *
 * status C (SENDING, claimed), S (SENT), F (FAILED), U (UNKNOWN), X (CANCELLED), H (HELD_OUT); flags `m` (sent
 * through the Marketing Messages API), `h` (held by Meta), `e` (escaped, below). The failure reason
 * is last so it may hold any character. The claim token stays on the value until the outcome
 * replaces it. An entry whose token, `to` or message id holds `|` or `%`, whose `to` is empty or
 * whose optional field is present but empty is written escaped (flag `e`): the four text fields
 * with `%` as `%25` and `|` as `%7C`, an absent optional field as '' and an empty one as `%`.
 */
import type { LedgerEntry, LedgerStatus } from '../../broadcast/broadcast-stores';
import { MalformedMessagingItemError, messagingKeys } from './messaging-table';

type Item = Record<string, unknown>;

/** Recipients per page: 8 sent entries (to + message id + time ≈ 90 bytes each) and the keys stay under 1 KB. */
export const LEDGER_PAGE_SIZE = 8;

/**
 * How the chunk worker batches its writes for this ledger (with its flush interval, which decides below
 * 800 messages a second): 200 outcomes are 25 whole pages (one BatchWriteItem), 4 tally items of
 * TALLY_BUCKET_SIZE and 8 BatchWrites of message id records (~0.075 store calls a message); with
 * `ledgerPageSize` a page a flush holds in part waits one flush, and a full claim
 * group keeps back its last page held in part (shared/broadcast/chunk-worker/claim-groups.ts).
 */
export const ledgerOutcomeBatching = { outcomeBatchSize: 200, ledgerPageSize: LEDGER_PAGE_SIZE } as const;

export const ledgerPageOf = (index: number): number => Math.floor(index / LEDGER_PAGE_SIZE);
export const pageEntryAttribute = (index: number): string => `e${index % LEDGER_PAGE_SIZE}`;
export const ledgerPageKey = (jobId: string, chunkIndex: number, index: number) => messagingKeys.ledgerPage(jobId, chunkIndex, ledgerPageOf(index));

/** An entry as a page holds it: the ledger entry and, while its claim is the last write, the claim's token. */
export interface PagedEntry {
  entry: LedgerEntry;
  token?: string;
}

const STATUS_CODES: Record<LedgerStatus, string> = { SENDING: 'C', SENT: 'S', FAILED: 'F', UNKNOWN: 'U', CANCELLED: 'X', HELD_OUT: 'H' };
const STATUS_OF = new Map(Object.entries(STATUS_CODES).map(([status, code]) => [code, status as LedgerStatus]));
/** The prefix of a value still claimed (SENDING): what release and stale resolution condition on. */
export const CLAIMED_PREFIX = STATUS_CODES.SENDING;

const SEPARATOR = '|';
/** The flag of an entry whose text fields are escaped (below). */
const ESCAPED_FLAG = 'e';
/** In an escaped entry, an optional field present but empty (an escape never ends at its `%`). */
const PRESENT_EMPTY = '%';

const escapeField = (field: string): string => field.replace(/%/g, '%25').replace(/\|/g, '%7C');
const ESCAPED_TEXT = /^(?:[^%|]|%25|%7C)*$/;

function unescapeField(field: string, index: number): string {
  if (!ESCAPED_TEXT.test(field)) throw new MalformedMessagingItemError(`Stored ledger page entry ${index} has a malformed escaped field`);
  return field.replace(/%7C/g, '|').replace(/%25/g, '%');
}

const escapeOptional = (field: string | undefined): string => (field === undefined ? '' : field === '' ? PRESENT_EMPTY : escapeField(field));
const unescapeOptional = (field: string, index: number): string | undefined =>
  field === '' ? undefined : field === PRESENT_EMPTY ? '' : unescapeField(field, index);

/**
 * Whether an entry needs the escaped form: a text field holding the separator or `%`, an empty `to`,
 * or an optional field present but empty. Every other entry keeps the plain form (what pages held
 * before the escaped form existed, and what they hold nearly always: digits, ids, base64url).
 */
function needsEscaping(entry: LedgerEntry, token: string): boolean {
  const unsafe = (field: string): boolean => field.includes(SEPARATOR) || field.includes('%');
  return entry.to === '' || entry.messageId === '' || entry.failureReasonCode === '' || [token, entry.to, entry.messageId ?? ''].some(unsafe);
}

/**
 * One entry as its page attribute's value (`token`: the claim's, kept until the outcome). Total:
 * every entry round-trips through `decodePageEntry`, whatever its strings hold (an entry that needs
 * it is written in the escaped form, flag `e`: docs/DATA-MODEL.md "Ledger pages").
 *
 * @example
 * encodePageEntry({ index: 3, to: '919800000000', status: 'SENDING', attempts: 0, updatedAt: '2026-11-27T08:00:00.000Z' }, 'k3Jd9a0Q'); // 'Cmhx…|0||k3Jd9a0Q|919800000000||'
 * encodePageEntry({ index: 4, to: 'a|b', status: 'FAILED', attempts: 0, updatedAt: '2026-11-27T08:00:00.000Z', failureReasonCode: 'X' }); // 'Fmhx…|0|e||a%7Cb||X'
 */
export function encodePageEntry(entry: LedgerEntry, token = ''): string {
  const time = Date.parse(entry.updatedAt);
  if (Number.isNaN(time)) throw new MalformedMessagingItemError(`Ledger entry ${entry.index} has no valid updatedAt`);
  const escaped = needsEscaping(entry, token);
  const flags = `${entry.sentVia === 'marketing_messages' ? 'm' : ''}${entry.held ? 'h' : ''}${escaped ? ESCAPED_FLAG : ''}`;
  const head = [`${STATUS_CODES[entry.status]}${time.toString(36)}`, entry.attempts.toString(36), flags];
  // The plain form: only the reason may hold the separator (it is last); the others hold none (checked above).
  const fields = escaped
    ? [escapeField(token), escapeField(entry.to), escapeOptional(entry.messageId), escapeOptional(entry.failureReasonCode)]
    : [token, entry.to, entry.messageId ?? '', entry.failureReasonCode ?? ''];
  return [...head, ...fields].join(SEPARATOR);
}

/** The text fields of a stored value, by its form; undefined when the value matches neither. */
function textFieldsOf(index: number, flags: string, rest: string[]): { token: string; to: string; messageId?: string; failureReasonCode?: string } | undefined {
  if (flags.includes(ESCAPED_FLAG)) {
    if (rest.length !== 4) return undefined;
    const [token = '', to = '', messageId = '', reason = ''] = rest;
    return {
      token: unescapeField(token, index),
      to: unescapeField(to, index),
      messageId: unescapeOptional(messageId, index),
      failureReasonCode: unescapeOptional(reason, index),
    };
  }
  const [token = '', to = '', messageId = '', ...reason] = rest;
  // The plain form never holds an empty `to`: a page with one was written by the broken accept of
  // issue 35 (`npm run admin -- repair-ledger-pages` rewrites it).
  if (reason.length === 0 || to === '') return undefined;
  const failureReasonCode = reason.join(SEPARATOR);
  return { token, to, ...(messageId === '' ? {} : { messageId }), ...(failureReasonCode === '' ? {} : { failureReasonCode }) };
}

/**
 * The entry of recipient `index` from its page attribute's value.
 *
 * @example
 * decodePageEntry(3, value); // { entry: { index: 3, to: '919800000000', status: 'SENDING', … }, token: 'k3Jd9a0Q' }
 */
export function decodePageEntry(index: number, value: string): PagedEntry {
  const [head = '', attempts = '', flags = '', ...rest] = value.split(SEPARATOR);
  const status = STATUS_OF.get(head.charAt(0));
  const time = parseInt(head.slice(1), 36);
  const attemptCount = parseInt(attempts, 36);
  const text = status && !Number.isNaN(time) && !Number.isNaN(attemptCount) ? textFieldsOf(index, flags, rest) : undefined;
  if (!status || !text) throw new MalformedMessagingItemError(`Stored ledger page entry ${index} does not match the page encoding`);
  const entry: LedgerEntry = {
    index,
    to: text.to,
    status,
    ...(text.messageId === undefined ? {} : { messageId: text.messageId }),
    ...(text.failureReasonCode === undefined ? {} : { failureReasonCode: text.failureReasonCode }),
    attempts: attemptCount,
    updatedAt: new Date(time).toISOString(),
    ...(flags.includes('m') ? { sentVia: 'marketing_messages' as const } : {}),
    ...(flags.includes('h') ? { held: true as const } : {}),
  };
  return text.token === '' ? { entry } : { entry, token: text.token };
}

/**
 * An entry in the broken plain form (an empty `to`: what the earlier send-bulk wrote for a refused
 * recipient before issue 35) decoded with `to` in its place; undefined for any other value.
 *
 * @example
 * decodeBrokenPageEntry(1, 'Fmhx…|0|||||INVALID_PHONE_NUMBER', 'invalid:1'); // { entry: { index: 1, to: 'invalid:1', status: 'FAILED', … } }
 */
export function decodeBrokenPageEntry(index: number, value: string, to: string): PagedEntry | undefined {
  const [head = '', attempts = '', flags = '', token = '', written, ...rest] = value.split(SEPARATOR);
  if (flags.includes(ESCAPED_FLAG) || written !== '' || rest.length < 2) return undefined;
  try {
    return decodePageEntry(index, [head, attempts, flags, token, escapeField(to), ...rest].join(SEPARATOR));
  } catch {
    return undefined;
  }
}

const PAGE_ATTRIBUTE = /^e(\d+)$/;

/** Every entry a page item holds, by recipient index (attributes other than `e<offset>` are ignored). */
export function decodeLedgerPage(item: Item): PagedEntry[] {
  const page = /^P#(\d+)$/.exec(String(item.sk));
  if (!page) throw new MalformedMessagingItemError(`Stored ledger page ${String(item.pk)} ${String(item.sk)} has no page number`);
  const first = Number(page[1]) * LEDGER_PAGE_SIZE;
  const entries: PagedEntry[] = [];
  for (const [name, value] of Object.entries(item)) {
    const offset = PAGE_ATTRIBUTE.exec(name);
    if (!offset || typeof value !== 'string') continue;
    if (Number(offset[1]) >= LEDGER_PAGE_SIZE) throw new MalformedMessagingItemError(`Stored ledger page ${String(item.sk)} holds an entry beyond its size`);
    entries.push(decodePageEntry(first + Number(offset[1]), value));
  }
  return entries;
}

/** What one flush of outcomes writes to the pages: whole page items and updates of pages it holds in part. */
export interface OutcomePageWrites {
  /** Pages the flush holds every entry of: the whole item (a BatchWriteItem PutRequest each). */
  items: Item[];
  /** Pages it holds some entries of: an UpdateItem setting only those (the page's other entries stay). */
  updates: Array<{ Key: { pk: string; sk: string } } & ReturnType<typeof pageEntriesUpdate>>;
}

/**
 * The page writes of one flush of outcomes. A page holds nothing but its entries and `expiresAt`, so
 * a page whose LEDGER_PAGE_SIZE entries are all in the flush is replaced whole: the same values an
 * UpdateItem would set, but 25 pages go in one BatchWriteItem. A page the flush holds in part (its
 * other recipients someone else's, refused at accept, not sent yet or the chunk's last page) keeps
 * the UpdateItem of its own entries, so nothing written by another writer is replaced.
 *
 * @example
 * const { items, updates } = outcomePageWrites(jobId, 0, entries, expiresAt); // entries 0–11: page 0 whole, page 1 in part
 */
export function outcomePageWrites(jobId: string, chunkIndex: number, entries: readonly LedgerEntry[], expiresAt: number): OutcomePageWrites {
  const byPage = new Map<number, Map<number, string>>();
  for (const entry of entries) {
    const page = ledgerPageOf(entry.index);
    let values = byPage.get(page);
    if (!values) byPage.set(page, (values = new Map()));
    values.set(entry.index, encodePageEntry(entry));
  }
  const writes: OutcomePageWrites = { items: [], updates: [] };
  for (const [page, values] of byPage) {
    const key = messagingKeys.ledgerPage(jobId, chunkIndex, page);
    if (values.size < LEDGER_PAGE_SIZE) {
      writes.updates.push({ Key: key, ...pageEntriesUpdate(values, expiresAt, false) });
      continue;
    }
    const item: Item = { ...key, expiresAt };
    for (const [index, value] of values) item[pageEntryAttribute(index)] = value;
    writes.items.push(item);
  }
  return writes;
}

/**
 * One page's UpdateItem setting `values` (by recipient index), with `expiresAt` set once. `onlyIfAbsent`:
 * the claim's condition, every entry still unwritten (one write decides the whole group).
 */
export function pageEntriesUpdate(values: ReadonlyMap<number, string>, expiresAt: number, onlyIfAbsent: boolean) {
  const names: Record<string, string> = {};
  const attributeValues: Record<string, unknown> = { ':x': expiresAt };
  const assignments = ['expiresAt = if_not_exists(expiresAt, :x)'];
  const conditions: string[] = [];
  [...values].forEach(([index, value], position) => {
    names[`#e${position}`] = pageEntryAttribute(index);
    attributeValues[`:e${position}`] = value;
    assignments.push(`#e${position} = :e${position}`);
    conditions.push(`attribute_not_exists(#e${position})`);
  });
  return {
    UpdateExpression: `SET ${assignments.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: attributeValues,
    ...(onlyIfAbsent ? { ConditionExpression: conditions.join(' AND ') } : {}),
  };
}
