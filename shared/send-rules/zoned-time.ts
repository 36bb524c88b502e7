/**
 * Wall-clock time in an IANA zone on the runtime's own zone data (`Intl.DateTimeFormat`), for the
 * send-window clock. Days are counted as whole days since 1970-01-01 (a civil date, not an
 * instant); instants are epoch milliseconds.
 *
 * Why not a library: luxon did this job and is 70 KiB in every send-path bundle (docs/PERFORMANCE.md
 * §2); the clock needs three operations (an instant's local date, a local time's instant, the
 * weekday), each a few lines over `Intl`. A local time in a daylight-saving gap or overlap is
 * resolved as Temporal's `compatible` disambiguation (and luxon's `set`) do: a time in a gap moves
 * by the jump, a time that happens twice is the first of the two. The unit tests check every
 * answer against luxon on random zones, days and times.
 */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** One formatter per zone (building one costs ~20 µs; a campaign repeats a few zones). */
function formatterOf(zone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(zone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    if (formatters.size < 1000) formatters.set(zone, formatter);
  }
  return formatter;
}

/** The wall clock of `instant` in `zone`, read as if it were UTC (epoch ms, whole seconds). */
function wallClockOf(zone: string, instant: number): number {
  const parts = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const part of formatterOf(zone).formatToParts(instant)) {
    if (part.type in parts) parts[part.type as keyof typeof parts] = Number(part.value);
  }
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/**
 * The zone's offset from UTC at `instant`, in minutes (east positive).
 *
 * @example
 * offsetMinutes('Asia/Calcutta', Date.UTC(2026, 5, 1)); // 330
 */
export function offsetMinutes(zone: string, instant: number): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return Math.round((wallClockOf(zone, whole) - whole) / MINUTE_MS);
}

/**
 * The local date of `instant` in `zone`, as days since 1970-01-01.
 *
 * @example
 * localDay('America/New_York', Date.parse('2026-06-01T02:00:00Z')); // 20604 (2026-05-31)
 */
export function localDay(zone: string, instant: number): number {
  return Math.floor((instant + offsetMinutes(zone, instant) * MINUTE_MS) / DAY_MS);
}

/**
 * The weekday of a local day, 0 for Monday to 6 for Sunday (1970-01-01 was a Thursday).
 *
 * @example
 * weekdayOf(0); // 3 (Thursday)
 */
export const weekdayOf = (day: number): number => (((day + 3) % 7) + 7) % 7;

/**
 * The instant the local time `hour:minute` of `day` happens in `zone`: in a spring-forward gap, the
 * time moved by the jump (02:30 on a day that skips 02:00–03:00 is 03:30); on a fall-back day, the
 * first of the two.
 *
 * @example
 * instantAt('America/New_York', 20520, 2, 30); // 2026-03-08T07:30:00Z (03:30 EDT)
 */
export function instantAt(zone: string, day: number, hour: number, minute: number): number {
  const wall = day * DAY_MS + (hour * 60 + minute) * MINUTE_MS;
  const offsetBefore = offsetMinutes(zone, wall - DAY_MS);
  const offsetAfter = offsetMinutes(zone, wall + DAY_MS);
  const early = wall - Math.max(offsetBefore, offsetAfter) * MINUTE_MS;
  const late = wall - Math.min(offsetBefore, offsetAfter) * MINUTE_MS;
  if (offsetBefore === offsetAfter) return early;
  if (wallClockOf(zone, early) === wall) return early;
  if (wallClockOf(zone, late) === wall) return late;
  // In the gap: read with the offset in force before it, which lands past the jump.
  return wall - offsetBefore * MINUTE_MS;
}
