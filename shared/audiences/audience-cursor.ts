/**
 * The listings' cursors (audiences, members): the store's own position wrapped with what the
 * listing is of, so a cursor of another audience, or anything that is not a cursor, is a 400
 * rather than a silently wrong page.
 */
import { InvalidAudienceCursorError } from './errors';

interface Cursor {
  /** The listing: `*` for the audiences, else the audience id. */
  a: string;
  /** The store's position; null: the start of the saved audiences (after `contacts`). */
  k: string | null;
}

/**
 * @example
 * decodeCursor(encodeCursor('aud_1', '447700900123'), 'aud_1'); // '447700900123'
 */
export const encodeCursor = (listing: string, position: string | null): string =>
  Buffer.from(JSON.stringify({ a: listing, k: position } satisfies Cursor)).toString('base64url');

/** The position a cursor of `listing` holds (null: the start), or InvalidAudienceCursorError. */
export function decodeCursor(text: string, listing: string): string | null {
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidAudienceCursorError();
  }
  const { a, k } = (cursor ?? {}) as Partial<Cursor>;
  if (a !== listing || (k !== null && (typeof k !== 'string' || k === ''))) throw new InvalidAudienceCursorError();
  return k;
}
