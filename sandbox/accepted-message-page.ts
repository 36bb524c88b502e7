/**
 * Paging of `GET /_sandbox/messages`: a 1,001-recipient job leaves about half a megabyte of
 * accepted messages, so a person inspecting them asks for a page (`limit`, then `cursor` from the
 * previous answer). Without `limit` the whole (filtered) list is answered, as before, for the test
 * kits that read everything at once.
 */
import type { AcceptedMessage } from './sandbox-types';
import { SandboxRequestError } from './sandbox-request-error';

/** The largest page; more is what the unpaged listing is for. */
export const maxMessagesPageSize = 1_000;

export interface AcceptedMessagesAnswer {
  data: AcceptedMessage[];
  /** Present on a paged answer: how many match the filters, and the cursor of the next page while there is one. */
  paging?: { total: number; cursors?: { after: string }; next?: string };
}

const cursorOf = (offset: number): string => Buffer.from(`offset:${offset}`).toString('base64url');

function offsetOf(cursor: string | null): number {
  if (cursor === null || cursor === '') return 0;
  const match = /^offset:(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new SandboxRequestError(400, 'cursor must be a value of paging.cursors.after from a previous answer');
  return Number(match[1]);
}

function limitOf(raw: string | null): number | undefined {
  if (raw === null || raw === '') return undefined;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxMessagesPageSize)
    throw new SandboxRequestError(400, `limit must be an integer between 1 and ${maxMessagesPageSize}`);
  return limit;
}

/**
 * One page of `messages` (acceptance order) as `url` asks: `limit` (1–1,000) and `cursor`; the
 * whole list when `limit` is absent. The log only grows until it is cleared, so an offset stays
 * valid between pages.
 *
 * @example
 * pageOfAcceptedMessages(messages, new URL('http://sandbox/_sandbox/messages?limit=20'));
 * // { data: [20 messages], paging: { total: 1001, cursors: { after: '…' }, next: '/_sandbox/messages?limit=20&cursor=…' } }
 */
export function pageOfAcceptedMessages(messages: AcceptedMessage[], url: URL): AcceptedMessagesAnswer {
  const limit = limitOf(url.searchParams.get('limit'));
  const offset = offsetOf(url.searchParams.get('cursor'));
  if (limit === undefined && offset === 0) return { data: messages };
  const size = limit ?? maxMessagesPageSize;
  const data = messages.slice(offset, offset + size);
  const end = offset + data.length;
  if (end >= messages.length) return { data, paging: { total: messages.length } };
  const after = cursorOf(end);
  const next = new URL(url.pathname + url.search, 'http://sandbox');
  next.searchParams.set('limit', String(size));
  next.searchParams.set('cursor', after);
  return { data, paging: { total: messages.length, cursors: { after }, next: `${next.pathname}${next.search}` } };
}
