/**
 * Whether a send window (send-rules.schema.ts `sendWindowSchema`) is open at an instant in a zone,
 * and when it opens or closes, on the runtime's zone data through `Intl` (zoned-time.ts; daylight-saving
 * changes come from it). The rules (docs/CAMPAIGNS.md "Send windows"):
 *
 * - a window opens each allowed day at `from` local time and closes at `to` (`24:00`: midnight);
 *   `from` after `to` spans midnight, and belongs to the day it opens (`fri` 22:00–06:00 runs from
 *   Friday 22:00 to Saturday 06:00);
 * - `days` absent: every day;
 * - a time inside a spring-forward gap moves by the jump (02:30 on a day that skips 02:00–03:00
 *   reads 03:30); on a fall-back day a local time that happens twice means the first of the two.
 */
import type { SendWindow, Weekday } from './send-rules.schema';
import { instantAt, localDay, weekdayOf } from './zoned-time';

export type WindowState = { open: true; closesAt: Date } | { open: false; opensAt: Date };

const WEEKDAY_FROM_MONDAY: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** The instant local `time` happens on local `day` in `zone` (`24:00` is the next midnight; a time in a gap moves by the jump). */
function atLocal(zone: string, day: number, time: string): number {
  if (time === '24:00') return instantAt(zone, day + 1, 0, 0);
  return instantAt(zone, day, Number(time.slice(0, 2)), Number(time.slice(3, 5)));
}

/** The opening and closing (epoch ms) of the window of local `day`, or undefined when the day is not allowed. */
function windowOfDay(window: SendWindow, zone: string, day: number): { opens: number; closes: number } | undefined {
  if (window.days && !window.days.includes(WEEKDAY_FROM_MONDAY[weekdayOf(day)]!)) return undefined;
  const spansMidnight = window.to !== '24:00' && window.to <= window.from;
  return { opens: atLocal(zone, day, window.from), closes: atLocal(zone, spansMidnight ? day + 1 : day, window.to) };
}

/**
 * The window's state at `at` in `zone`: open until when, or closed until when.
 *
 * @example
 * windowState({ from: '09:00', to: '20:00' }, 'Asia/Kolkata', new Date('2026-06-01T02:00:00Z'));
 * // { open: false, opensAt: 2026-06-01T03:30:00.000Z } (09:00 in India)
 */
export function windowState(window: SendWindow, zone: string, at: Date): WindowState {
  const now = at.getTime();
  const today = localDay(zone, now);
  // Yesterday's window may still run past midnight; a week and a day ahead always holds an allowed day.
  for (let offset = -1; offset <= 8; offset += 1) {
    const span = windowOfDay(window, zone, today + offset);
    if (!span) continue;
    if (now < span.opens) return { open: false, opensAt: new Date(span.opens) };
    if (now < span.closes) return { open: true, closesAt: new Date(closingAfter(window, zone, today + offset, span.closes)) };
  }
  throw new RangeError('A send window with no allowed day');
}

/** The close of an open window, past the windows that open right when it closes (`00:00`–`24:00` on days in a row); at most a week on. */
function closingAfter(window: SendWindow, zone: string, day: number, closes: number): number {
  let end = closes;
  for (let offset = 1; offset <= 7; offset += 1) {
    const next = windowOfDay(window, zone, day + offset);
    if (!next || next.opens > end) break;
    if (next.closes > end) end = next.closes;
  }
  return end;
}

/**
 * The zone a window is read in for one recipient: the window's own zone when it names one, else the recipient's.
 *
 * @example
 * windowZone({ from: '09:00', to: '20:00', timeZone: 'Europe/London' }, () => 'Asia/Calcutta'); // 'Europe/London'
 */
export function windowZone(window: SendWindow, recipientZone: () => string): string {
  return window.timeZone === undefined || window.timeZone === 'recipient' ? recipientZone() : window.timeZone;
}
