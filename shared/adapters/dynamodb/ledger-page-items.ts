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
 * status C (SENDING, claimed), S (SENT), F (FAILED), U (UNKNOWN), X (CANCELLED); flags `m` (sent
 * through the Marketing Messages API), `h` (held by Meta). The failure reason is last so it may
 * hold any character. The claim token stays on the value until the outcome replaces it.
 */
import type { LedgerEntry, LedgerStatus } from '../../broadcast/broadcast-stores';
import { MalformedMessagingItemError, messagingKeys } from './messaging-table';

type Item = Record<string, unknown>;

/** Recipients per page: 8 sent entries (to + message id + time ≈ 90 bytes each) and the keys stay under 1 KB. */
export const LEDGER_PAGE_SIZE = 8;

export const ledgerPageOf = (index: number): number => Math.floor(index / LEDGER_PAGE_SIZE);
export const pageEntryAttribute = (index: number): string => `e${index % LEDGER_PAGE_SIZE}`;
export const ledgerPageKey = (jobId: string, chunkIndex: number, index: number) => messagingKeys.ledgerPage(jobId, chunkIndex, ledgerPageOf(index));

/** An entry as a page holds it: the ledger entry and, while its claim is the last write, the claim's token. */
export interface PagedEntry {
  entry: LedgerEntry;
  token?: string;
}

const STATUS_CODES: Record<LedgerStatus, string> = { SENDING: 'C', SENT: 'S', FAILED: 'F', UNKNOWN: 'U', CANCELLED: 'X' };
const STATUS_OF = new Map(Object.entries(STATUS_CODES).map(([status, code]) => [code, status as LedgerStatus]));
/** The prefix of a value still claimed (SENDING): what release and stale resolution condition on. */
export const CLAIMED_PREFIX = STATUS_CODES.SENDING;

const SEPARATOR = '|';

/**
 * One entry as its page attribute's value (`token`: the claim's, kept until the outcome).
 *
 * @example
 * encodePageEntry({ index: 3, to: '919800000000', status: 'SENDING', attempts: 0, updatedAt: '2026-11-27T08:00:00.000Z' }, 'k3Jd9a0Q'); // 'Cmhx…|0||k3Jd9a0Q|919800000000||'
 */
export function encodePageEntry(entry: LedgerEntry, token = ''): string {
  const flags = `${entry.sentVia === 'marketing_messages' ? 'm' : ''}${entry.held ? 'h' : ''}`;
  const fields = [token, entry.to, entry.messageId ?? ''];
  // Only the reason may hold the separator (it is last); the others never do (digits, ids, base64).
  if (fields.some((field) => field.includes(SEPARATOR))) throw new MalformedMessagingItemError(`Ledger entry ${entry.index} cannot be stored on a page: a field holds "${SEPARATOR}"`);
  const time = Date.parse(entry.updatedAt);
  if (Number.isNaN(time)) throw new MalformedMessagingItemError(`Ledger entry ${entry.index} has no valid updatedAt`);
  return [`${STATUS_CODES[entry.status]}${time.toString(36)}`, entry.attempts.toString(36), flags, ...fields, entry.failureReasonCode ?? ''].join(SEPARATOR);
}

/**
 * The entry of recipient `index` from its page attribute's value.
 *
 * @example
 * decodePageEntry(3, value); // { entry: { index: 3, to: '919800000000', status: 'SENDING', … }, token: 'k3Jd9a0Q' }
 */
export function decodePageEntry(index: number, value: string): PagedEntry {
  const [head = '', attempts = '', flags = '', token = '', to = '', messageId = '', ...reason] = value.split(SEPARATOR);
  const status = STATUS_OF.get(head.charAt(0));
  const time = parseInt(head.slice(1), 36);
  const attemptCount = parseInt(attempts, 36);
  if (!status || Number.isNaN(time) || Number.isNaN(attemptCount) || reason.length === 0 || to === '') {
    throw new MalformedMessagingItemError(`Stored ledger page entry ${index} does not match the page encoding`);
  }
  const failureReasonCode = reason.join(SEPARATOR);
  const entry: LedgerEntry = {
    index,
    to,
    status,
    ...(messageId === '' ? {} : { messageId }),
    ...(failureReasonCode === '' ? {} : { failureReasonCode }),
    attempts: attemptCount,
    updatedAt: new Date(time).toISOString(),
    ...(flags.includes('m') ? { sentVia: 'marketing_messages' as const } : {}),
    ...(flags.includes('h') ? { held: true as const } : {}),
  };
  return token === '' ? { entry } : { entry, token };
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
