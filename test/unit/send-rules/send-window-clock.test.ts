import fc from 'fast-check';
import { SAMPLE_TIME_ZONES } from '../../support/sample-time-zones';
import { DateTime } from 'luxon';
import { windowState, windowZone } from '../../../shared/send-rules/send-window-clock';
import { WEEKDAYS, type SendWindow } from '../../../shared/send-rules/send-rules.schema';

const at = (iso: string) => new Date(iso);
const nineToEight: SendWindow = { from: '09:00', to: '20:00' };

describe('send window clock', () => {
  it('opens at local 09:00 and closes at 20:00 in the recipient zone', () => {
    expect(windowState(nineToEight, 'Asia/Calcutta', at('2026-06-01T02:00:00Z'))).toEqual({ open: false, opensAt: at('2026-06-01T03:30:00Z') });
    expect(windowState(nineToEight, 'Asia/Calcutta', at('2026-06-01T03:30:00Z'))).toEqual({ open: true, closesAt: at('2026-06-01T14:30:00Z') });
    expect(windowState(nineToEight, 'Asia/Calcutta', at('2026-06-01T14:30:00Z'))).toEqual({ open: false, opensAt: at('2026-06-02T03:30:00Z') });
    expect(windowState(nineToEight, 'America/Los_Angeles', at('2026-06-01T14:30:00Z'))).toEqual({ open: false, opensAt: at('2026-06-01T16:00:00Z') });
  });

  it('spans midnight when from is after to, belonging to the day it opens', () => {
    const night: SendWindow = { from: '22:00', to: '06:00' };
    expect(windowState(night, 'Europe/London', at('2026-06-01T02:00:00Z'))).toEqual({ open: true, closesAt: at('2026-06-01T05:00:00Z') });
    expect(windowState(night, 'Europe/London', at('2026-06-01T12:00:00Z'))).toEqual({ open: false, opensAt: at('2026-06-01T21:00:00Z') });
    // Friday's window runs into Saturday morning (2026-06-06 is a Saturday).
    expect(windowState({ ...night, days: ['fri'] }, 'Europe/London', at('2026-06-06T02:00:00Z'))).toEqual({ open: true, closesAt: at('2026-06-06T05:00:00Z') });
    expect(windowState({ ...night, days: ['fri'] }, 'Europe/London', at('2026-06-06T06:00:00Z'))).toEqual({ open: false, opensAt: at('2026-06-12T21:00:00Z') });
  });

  it('an always-open window closes no sooner than a week on; days in a row join', () => {
    expect(windowState({ from: '00:00', to: '24:00' }, 'UTC', at('2026-06-06T10:00:00Z'))).toEqual({ open: true, closesAt: at('2026-06-14T00:00:00Z') });
    expect(windowState({ from: '00:00', to: '24:00', days: ['sat', 'sun'] }, 'UTC', at('2026-06-06T10:00:00Z'))).toEqual({
      open: true,
      closesAt: at('2026-06-08T00:00:00Z'),
    });
  });

  it('keeps to its days and to 24:00', () => {
    // 2026-06-06 is a Saturday: a weekday window opens on Monday.
    expect(windowState({ ...nineToEight, days: ['mon', 'tue', 'wed', 'thu', 'fri'] }, 'UTC', at('2026-06-06T10:00:00Z'))).toEqual({
      open: false,
      opensAt: at('2026-06-08T09:00:00Z'),
    });
    expect(windowState({ from: '18:00', to: '24:00' }, 'UTC', at('2026-06-06T23:59:00Z'))).toEqual({ open: true, closesAt: at('2026-06-07T00:00:00Z') });
  });

  it('follows daylight-saving changes from the zone data', () => {
    // New York: EST (UTC-5) until 2026-03-08 02:00, then EDT (UTC-4).
    expect(windowState(nineToEight, 'America/New_York', at('2026-03-07T12:00:00Z'))).toEqual({ open: false, opensAt: at('2026-03-07T14:00:00Z') });
    expect(windowState(nineToEight, 'America/New_York', at('2026-03-08T12:00:00Z'))).toEqual({ open: false, opensAt: at('2026-03-08T13:00:00Z') });
    // A time inside the skipped hour moves by the jump: 02:30 reads 03:30 EDT.
    expect(windowState({ from: '02:30', to: '05:00' }, 'America/New_York', at('2026-03-08T05:00:00Z'))).toEqual({
      open: false,
      opensAt: at('2026-03-08T07:30:00Z'),
    });
    // London's autumn change: the 20:00 close is one hour later in UTC after it.
    expect(windowState(nineToEight, 'Europe/London', at('2026-10-26T12:00:00Z'))).toEqual({ open: true, closesAt: at('2026-10-26T20:00:00Z') });
  });

  it('the window zone is the rules own zone when named, else the recipient zone', () => {
    expect(windowZone({ ...nineToEight, timeZone: 'Europe/London' }, () => 'Asia/Calcutta')).toBe('Europe/London');
    expect(windowZone({ ...nineToEight, timeZone: 'recipient' }, () => 'Asia/Calcutta')).toBe('Asia/Calcutta');
    expect(windowZone(nineToEight, () => 'Asia/Calcutta')).toBe('Asia/Calcutta');
  });

  const zones = fc.constantFrom(...SAMPLE_TIME_ZONES);
  const time = fc
    .tuple(fc.integer({ min: 0, max: 23 }), fc.constantFrom(0, 15, 30, 45))
    .map(([hour, minute]) => `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`);
  const windows = fc
    .record({ from: time, to: fc.oneof(time, fc.constant('24:00')), days: fc.option(fc.subarray([...WEEKDAYS], { minLength: 1 }), { nil: undefined }) })
    .filter((window) => window.from !== window.to)
    .map(({ days, ...window }): SendWindow => (days === undefined ? window : { ...window, days }));
  const instants = fc.date({ min: at('2025-01-01T00:00:00Z'), max: at('2028-12-31T00:00:00Z'), noInvalidDate: true });

  it('property: a closed window opens later and is open then; an open one closes later and is closed then', () => {
    fc.assert(
      fc.property(windows, zones, instants, (window, zone, now) => {
        const state = windowState(window, zone, now);
        if (state.open) {
          expect(state.closesAt.getTime()).toBeGreaterThan(now.getTime());
          // A window open every hour of every day reports a close a week on, where it is still open.
          if (state.closesAt.getTime() - now.getTime() < 7 * 86_400_000) expect(windowState(window, zone, state.closesAt).open).toBe(false);
        } else {
          expect(state.opensAt.getTime()).toBeGreaterThan(now.getTime());
          expect(state.opensAt.getTime() - now.getTime()).toBeLessThanOrEqual(8 * 86_400_000);
          expect(windowState(window, zone, state.opensAt).open).toBe(true);
          // Nothing in between is open: a minute before the opening is still closed.
          if (state.opensAt.getTime() - 60_000 > now.getTime()) expect(windowState(window, zone, new Date(state.opensAt.getTime() - 60_000)).open).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('property: an opening falls on an allowed day at the local from time (unless a gap moved it)', () => {
    fc.assert(
      fc.property(windows, zones, instants, (window, zone, now) => {
        const state = windowState(window, zone, now);
        if (state.open) return;
        const local = DateTime.fromJSDate(state.opensAt, { zone });
        if (window.days) expect(window.days).toContain(WEEKDAYS[local.weekday - 1]);
        const minutes = local.hour * 60 + local.minute;
        const from = Number(window.from.slice(0, 2)) * 60 + Number(window.from.slice(3));
        expect(minutes === from || local.offset !== local.minus({ hours: 3 }).offset).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
