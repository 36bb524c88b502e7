import fc from 'fast-check';
import { SAMPLE_TIME_ZONES } from '../../support/sample-time-zones';
import { DateTime } from 'luxon';
import { instantAt, localDay, offsetMinutes, weekdayOf } from '../../../shared/send-rules/zoned-time';

// luxon (a dev dependency only) is the oracle: the clock ran on it until it left the bundles.
const DAY_MS = 86_400_000;
const dayOf = (iso: string) => Date.parse(`${iso}T00:00:00Z`) / DAY_MS;
const luxonLocal = (zone: string, day: number, hour: number, minute: number): number =>
  DateTime.fromMillis(day * DAY_MS, { zone: 'UTC' })
    .setZone(zone, { keepLocalTime: true })
    .startOf('day')
    .set({ hour, minute })
    .toMillis();

const zones = fc.constantFrom(...SAMPLE_TIME_ZONES);
/** Days a zone above changes its clock (2026), with the days either side. */
const transitionDays = ['2026-03-08', '2026-03-29', '2026-10-25', '2026-11-01', '2026-04-05', '2026-10-04', '2026-09-06', '2026-04-04', '2026-03-21']
  .map(dayOf)
  .flatMap((day) => [day - 1, day, day + 1]);

describe('zoned time', () => {
  it('reads offsets and local days, the weekday from Monday', () => {
    expect(offsetMinutes('Asia/Calcutta', Date.parse('2026-06-01T00:00:00Z'))).toBe(330);
    expect(offsetMinutes('America/New_York', Date.parse('2026-01-15T12:00:00Z'))).toBe(-300);
    expect(offsetMinutes('America/New_York', Date.parse('2026-07-15T12:00:00Z'))).toBe(-240);
    expect(localDay('America/New_York', Date.parse('2026-06-01T02:00:00Z'))).toBe(dayOf('2026-05-31'));
    expect(localDay('Pacific/Chatham', Date.parse('2026-06-01T12:00:00Z'))).toBe(dayOf('2026-06-02'));
    expect(weekdayOf(dayOf('2026-06-08'))).toBe(0); // a Monday
    expect(weekdayOf(dayOf('2026-06-07'))).toBe(6);
    expect(weekdayOf(dayOf('1969-12-29'))).toBe(0); // before the epoch
  });

  it('moves a time in a spring-forward gap by the jump and takes the first of a time that happens twice', () => {
    expect(new Date(instantAt('America/New_York', dayOf('2026-03-08'), 2, 30)).toISOString()).toBe('2026-03-08T07:30:00.000Z');
    expect(new Date(instantAt('America/New_York', dayOf('2026-11-01'), 1, 30)).toISOString()).toBe('2026-11-01T05:30:00.000Z');
    expect(new Date(instantAt('Europe/London', dayOf('2026-03-29'), 1, 15)).toISOString()).toBe('2026-03-29T01:15:00.000Z');
    expect(new Date(instantAt('Europe/London', dayOf('2026-10-25'), 1, 15)).toISOString()).toBe('2026-10-25T00:15:00.000Z');
    // Santiago springs forward at midnight: the day starts at 01:00.
    expect(new Date(instantAt('America/Santiago', dayOf('2026-09-06'), 0, 0)).toISOString()).toBe('2026-09-06T04:00:00.000Z');
  });

  it('property: local days and weekdays agree with luxon', () => {
    fc.assert(
      fc.property(zones, fc.integer({ min: Date.parse('2025-01-01T00:00:00Z'), max: Date.parse('2028-12-31T00:00:00Z') }), (zone, instant) => {
        const local = DateTime.fromMillis(instant, { zone });
        const day = localDay(zone, instant);
        expect(day).toBe(Date.UTC(local.year, local.month - 1, local.day) / DAY_MS);
        expect(weekdayOf(day)).toBe(local.weekday - 1);
        expect(offsetMinutes(zone, instant)).toBe(local.offset);
      }),
      { numRuns: 500 },
    );
  });

  it('property: a local time of a day is the instant luxon gives, on and around clock changes', () => {
    const days = fc.oneof(fc.constantFrom(...transitionDays), fc.integer({ min: dayOf('2025-01-01'), max: dayOf('2028-12-31') }));
    fc.assert(
      fc.property(zones, days, fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }), (zone, day, hour, minute) => {
        expect(instantAt(zone, day, hour, minute)).toBe(luxonLocal(zone, day, hour, minute));
      }),
      { numRuns: 2000 },
    );
  });
});
