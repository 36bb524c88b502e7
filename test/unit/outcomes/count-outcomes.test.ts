/** Counting a job's outcomes (shared/outcomes/count-outcomes.ts) and what the summary and cost make of them (shared/broadcast/outcome-summary.ts). */
import { outcomeSummaryOf, outcomeTotalsOf, perOutcome, withCostPerOutcome } from '../../../shared/broadcast/outcome-summary';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { countOutcomes } from '../../../shared/outcomes/count-outcomes';
import { emptyOutcomeCounts, type OutcomeFacts } from '../../../shared/outcomes/outcome-facts';

const t = (minute: number) => `2026-12-01T10:${String(minute).padStart(2, '0')}:00.000Z`;

describe('countOutcomes', () => {
  it('counts people who replied, clicked and tapped (each once per button), clicks and attributed opt-outs', () => {
    const outcomes: Array<[number, OutcomeFacts]> = [
      [0, { repliedAt: t(1), buttonTaps: [{ index: 0, payload: 'YES', at: t(1) }] }],
      [
        1,
        {
          repliedAt: t(2),
          buttonTaps: [
            { index: 1, payload: 'NO', at: t(2) },
            { index: 0, payload: 'YES', at: t(3) },
          ],
          optedOutAt: t(3),
        },
      ],
      [2, { firstClickAt: t(4), clicks: 3 }],
      [3, { repliedAt: t(5), firstClickAt: t(6), clicks: 1, buttonTaps: [{ index: -1, payload: 'Other', at: t(5) }] }],
    ];
    expect(
      countOutcomes(
        [
          [0, '4R'],
          [1, '3D'],
          [2, '3D'],
          [3, '1S'],
        ],
        outcomes,
      ),
    ).toEqual({
      replied: 3,
      clicked: 2,
      clicks: 4,
      optedOut: 1,
      buttons: [
        { index: -1, payload: 'Other', taps: 1 },
        { index: 0, payload: 'YES', taps: 2 },
        { index: 1, payload: 'NO', taps: 1 },
      ],
      holdout: { heldOut: 0, inbound: 0 },
    });
  });

  it('counts a held-out recipient (9H) as held out, and their reply as the holdout inbound, never as replied', () => {
    const counts = countOutcomes(
      [
        [0, tallyCodes.heldOut],
        [1, tallyCodes.heldOut],
        [2, '3D'],
        [3, tallyCodes.heldOut],
      ],
      [
        [0, { repliedAt: t(1) }],
        [2, { repliedAt: t(2) }],
      ],
    );
    expect(counts).toEqual({ ...emptyOutcomeCounts(), replied: 1, holdout: { heldOut: 3, inbound: 1 } });
  });

  it('is empty without facts', () => {
    expect(countOutcomes([[0, '3D']], [])).toEqual(emptyOutcomeCounts());
  });
});

describe('the summary fields', () => {
  it('are absent on a job no outcome reached (its answer unchanged)', () => {
    expect(outcomeSummaryOf(emptyOutcomeCounts())).toEqual({});
    expect(outcomeSummaryOf(undefined)).toEqual({});
  });

  it('give replied, clicked and buttons together once any outcome exists, repliedByStop and heldOut only above 0', () => {
    expect(outcomeSummaryOf({ ...emptyOutcomeCounts(), clicked: 1, clicks: 2 })).toEqual({ replied: 0, clicked: 1, buttons: [] });
    const full = { replied: 4, clicked: 2, clicks: 5, optedOut: 1, buttons: [{ index: 0, payload: 'YES', taps: 3 }], holdout: { heldOut: 10, inbound: 1 } };
    expect(outcomeSummaryOf(full)).toEqual({ replied: 4, clicked: 2, buttons: [{ index: 0, payload: 'YES', taps: 3 }], repliedByStop: 1, heldOut: 10 });
    expect(outcomeSummaryOf({ ...emptyOutcomeCounts(), holdout: { heldOut: 5, inbound: 0 } })).toEqual({ replied: 0, clicked: 0, buttons: [], heldOut: 5 });
  });

  it('are copied alone into a campaign total', () => {
    expect(outcomeTotalsOf({ replied: 1, clicked: 0, buttons: [] })).toEqual({ replied: 1, clicked: 0, buttons: [] });
    expect(outcomeTotalsOf(undefined)).toEqual({});
  });
});

describe('cost per outcome', () => {
  it('divides the amount by the count in micro-units, rounded half up, as a decimal string', () => {
    expect(perOutcome('1.00', 3)).toBe('0.333333');
    expect(perOutcome('2.00', 3)).toBe('0.666667');
    expect(perOutcome('0.529', 4)).toBe('0.13225');
    expect(perOutcome('52.90', 1)).toBe('52.90');
    expect(perOutcome('0.000001', 2)).toBe('0.000001');
    expect(perOutcome('0.10', 0)).toBeUndefined();
  });

  it('adds perReply and perClick to the cost, each absent while its count is 0', () => {
    const cost = { currency: 'USD', billed: 10, amount: '0.529', byCategory: { marketing: { billed: 10, amount: '0.529' } } };
    expect(withCostPerOutcome(cost, { ...emptyOutcomeCounts(), replied: 4, clicked: 0 })).toEqual({ ...cost, perReply: '0.13225' });
    expect(withCostPerOutcome(cost, { ...emptyOutcomeCounts(), replied: 0, clicked: 2 })).toEqual({ ...cost, perClick: '0.2645' });
    expect(withCostPerOutcome(cost, emptyOutcomeCounts())).toEqual(cost);
  });
});
