import { planSends, whenRecipientsFit } from '../../../shared/campaigns/limit-plan';

const now = new Date('2026-05-04T10:30:00.000Z');

describe('the messaging limit plan', () => {
  it('sends everything now without a limit, or within the headroom', () => {
    expect(planSends({ limit: null, usedLast24h: 0, hours: [], now }, 5000)).toEqual({ headroom: null, plan: [{ from: now.toISOString(), recipients: 5000 }] });
    expect(planSends({ limit: 1000, usedLast24h: 100, hours: [{ hour: '2026-05-04T09', recipients: 100 }], now }, 800)).toEqual({
      headroom: 900,
      plan: [{ from: now.toISOString(), recipients: 800 }],
    });
  });

  it('sends what fits now, then more as each hour of the window frees, then as its own sends free', () => {
    const window = {
      limit: 1000,
      usedLast24h: 900,
      hours: [
        { hour: '2026-05-03T12', recipients: 600 },
        { hour: '2026-05-04T08', recipients: 300 },
      ],
      now,
    };
    expect(planSends(window, 2500)).toEqual({
      headroom: 100,
      plan: [
        { from: '2026-05-04T10:30:00.000Z', recipients: 100 },
        // 2026-05-03T12 frees 25 h after its start.
        { from: '2026-05-04T13:00:00.000Z', recipients: 600 },
        { from: '2026-05-05T09:00:00.000Z', recipients: 300 },
        // The campaign's own first hour frees.
        { from: '2026-05-05T11:00:00.000Z', recipients: 100 },
        { from: '2026-05-05T14:00:00.000Z', recipients: 600 },
        { from: '2026-05-06T10:00:00.000Z', recipients: 300 },
        { from: '2026-05-06T12:00:00.000Z', recipients: 100 },
        { from: '2026-05-06T15:00:00.000Z', recipients: 400 },
      ],
    });
  });

  it('never frees more than the window counted (a person in two hours is one)', () => {
    const window = {
      limit: 100,
      usedLast24h: 100,
      hours: [
        { hour: '2026-05-04T01', recipients: 80 },
        { hour: '2026-05-04T05', recipients: 80 },
      ],
      now,
    };
    // The older bucket's 60 surplus frees nothing: the first 20 free at 02:00 the next day.
    expect(whenRecipientsFit(window, 10)).toEqual(new Date('2026-05-05T02:00:00.000Z'));
    expect(whenRecipientsFit(window, 50)).toEqual(new Date('2026-05-05T06:00:00.000Z'));
    expect(whenRecipientsFit(window, 0)).toEqual(now);
    expect(whenRecipientsFit(window, 101)).toBeUndefined();
  });
});
