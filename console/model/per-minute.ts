/**
 * Messages per minute over time, from what the API gives: the recipients CSV (one call for every
 * row). The API records no separate send time per recipient; a row's `updatedAt` is its latest
 * event (the send, or Meta's sent/delivered/read/failed). The chart counts, per minute of
 * `updatedAt`, the rows that reached Meta (a `messageId`): while a job drains that is its send
 * rate; afterwards delivery and read events move rows later (docs/CONSOLE.md "Messages per minute").
 */
import { csvRecords } from './csv';

/**
 * RFC 4180 rows of a CSV text (quoted fields, doubled quotes, CRLF or LF): csv.ts's records without their lines.
 *
 * @example
 * parseCsv('a,b\r\n"x,1",2\r\n'); // [['a', 'b'], ['x,1', '2']]
 */
export const parseCsv = (text: string): string[][] => csvRecords(text).map((record) => record.fields);

export interface MinuteCount {
  /** The minute's start, ISO (UTC). */
  minute: string;
  count: number;
}

/**
 * Rows with a `messageId` per minute of their `updatedAt`, every minute from the first to the last
 * (empty minutes count 0, so the line shows pauses).
 *
 * @example
 * messagesPerMinute('messageId,updatedAt\r\nw1,2026-03-01T09:00:10Z\r\nw2,2026-03-01T09:02:00Z\r\n');
 * // [{ minute: '2026-03-01T09:00:00.000Z', count: 1 }, { minute: '2026-03-01T09:01:00.000Z', count: 0 }, { minute: '2026-03-01T09:02:00.000Z', count: 1 }]
 */
export function messagesPerMinute(csv: string): MinuteCount[] {
  const [header, ...rows] = parseCsv(csv);
  if (!header) return [];
  const idColumn = header.indexOf('messageId');
  const timeColumn = header.indexOf('updatedAt');
  if (idColumn === -1 || timeColumn === -1) return [];
  const counts = new Map<number, number>();
  for (const row of rows) {
    const time = Date.parse(row[timeColumn] ?? '');
    if (!row[idColumn] || Number.isNaN(time)) continue;
    const minute = Math.floor(time / 60_000) * 60_000;
    counts.set(minute, (counts.get(minute) ?? 0) + 1);
  }
  if (counts.size === 0) return [];
  const minutes = [...counts.keys()];
  const first = Math.min(...minutes);
  const last = Math.max(...minutes);
  // A job spread over days would draw thousands of empty minutes: beyond a day only the minutes with rows.
  const span = (last - first) / 60_000;
  const every = span <= 1_440 ? Array.from({ length: span + 1 }, (_, offset) => first + offset * 60_000) : minutes.sort((a, b) => a - b);
  return every.map((minute) => ({ minute: new Date(minute).toISOString(), count: counts.get(minute) ?? 0 }));
}
