/**
 * The instant a wall-clock time of one day is in a time zone, from the zone data `Intl` carries (a
 * test's expectations computed independently of the platform's own zone code, and right in any
 * season: the UK and the US move their clocks, India does not). Not a test file itself.
 */

/** The zone's offset from UTC at `instant`, in ms. */
function offsetAt(zone: string, instant: number): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(instant);
  const part = (type: string) => Number(parts.find((entry) => entry.type === type)!.value);
  return Date.UTC(part('year'), part('month') - 1, part('day'), part('hour'), part('minute'), part('second')) - instant;
}

/**
 * `time` ("HH:MM") of `day` ("YYYY-MM-DD") in `zone`, as a Date.
 *
 * @example
 * zonedInstant('Asia/Kolkata', '2026-12-14', '09:00').toISOString(); // '2026-12-14T03:30:00.000Z'
 */
export function zonedInstant(zone: string, day: string, time: string): Date {
  const wall = Date.parse(`${day}T${time}:00Z`);
  // Twice: the offset of the first guess may differ from the answer's near a clock change.
  const first = wall - offsetAt(zone, wall);
  return new Date(wall - offsetAt(zone, first));
}
