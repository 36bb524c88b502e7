/** The canary's and halt thresholds' arithmetic (shared/campaigns/canary-verdict.ts), with exact figures. */
import {
  MIN_HALT_SAMPLE,
  canarySliceSize,
  countsSince,
  haltCountsOf,
  measuredRatesOf,
  qualityDropped,
  verdictOf,
} from '../../../shared/campaigns/canary-verdict';
import { tallyCodes } from '../../../shared/delivery/recipient-status';

describe('haltCountsOf', () => {
  it('counts sends to Meta, its failures by code, 131050 as an opt-out and 131026 as a block; the platform’s own refusals are in no figure', () => {
    const codes: Array<[number, string]> = [
      [0, tallyCodes.sent],
      [1, '3D~3marketing~1'],
      [2, tallyCodes.read],
      [3, tallyCodes.held],
      [4, tallyCodes.unknown(new Date('2026-12-02T10:00:00Z'))],
      [5, tallyCodes.failedByWebhook(131050)],
      [6, tallyCodes.failedByWebhook(131026)],
      [7, tallyCodes.failedOnSend('131049')],
      [8, tallyCodes.failedOnSend('INVALID_PHONE_NUMBER')],
      [9, tallyCodes.failedOnSend('OPTED_OUT')],
      [10, tallyCodes.failedOnSend('FREQUENCY_CAPPED')],
      [11, tallyCodes.failedOnSend('MISSING_ATTRIBUTE')],
      [12, tallyCodes.cancelled],
      [13, tallyCodes.heldOut],
      [14, tallyCodes.waitingForWindow(new Date('2026-12-02T12:00:00Z'))],
      [15, tallyCodes.waitingForCap(new Date('2026-12-03T12:00:00Z'))],
      [16, tallyCodes.failedOnSend('WORKER_ERROR')],
    ];
    expect(haltCountsOf(codes, 2)).toEqual({ sent: 9, optOuts: 3, failures: 4, blocks: 2 });
    expect(haltCountsOf(codes, 0, (index) => index < 5)).toEqual({ sent: 5, optOuts: 0, failures: 0, blocks: 0 });
  });
});

describe('measuredRatesOf and countsSince', () => {
  it('gives shares of the sends, rounded to six decimals, and 0 with nothing sent', () => {
    expect(measuredRatesOf({ sent: 100, optOuts: 3, failures: 7, blocks: 1 }, false)).toEqual({
      optOutRate: 0.03,
      failureRate: 0.07,
      blockRate: 0.01,
      qualityDrop: false,
    });
    expect(measuredRatesOf({ sent: 3, optOuts: 1, failures: 0, blocks: 0 }, true)).toEqual({
      optOutRate: 0.333333,
      failureRate: 0,
      blockRate: 0,
      qualityDrop: true,
    });
    expect(measuredRatesOf({ sent: 0, optOuts: 2, failures: 0, blocks: 0 }, false)).toEqual({
      optOutRate: 0,
      failureRate: 0,
      blockRate: 0,
      qualityDrop: false,
    });
  });

  it('measures what came after a resumed halt', () => {
    expect(countsSince({ sent: 300, optOuts: 5, failures: 2, blocks: 0 }, { sent: 100, optOuts: 3, failures: 0, blocks: 1 })).toEqual({
      sent: 200,
      optOuts: 2,
      failures: 2,
      blocks: 0,
    });
    expect(countsSince({ sent: 1, optOuts: 0, failures: 0, blocks: 0 }, undefined)).toEqual({ sent: 1, optOuts: 0, failures: 0, blocks: 0 });
  });
});

describe('verdictOf', () => {
  const haltIf = { optOutRate: 0.01, failureRate: 0.05, blockRate: 0.005, qualityDrop: true };

  it('halts on a rate strictly above its threshold and reports the figures beside the thresholds', () => {
    expect(verdictOf({ stage: 'canary', haltIf, counts: { sent: 100, optOuts: 3, failures: 5, blocks: 0 }, qualityDrop: false, minSample: 1 })).toEqual({
      halt: true,
      figures: {
        stage: 'canary',
        measured: { optOutRate: 0.03, failureRate: 0.05, blockRate: 0, qualityDrop: false },
        thresholds: haltIf,
        exceeded: ['optOutRate'],
        sent: 100,
        counts: { optOuts: 3, failures: 5, blocks: 0 },
      },
    });
  });

  it('passes within every threshold, and names every one exceeded', () => {
    expect(verdictOf({ stage: 'canary', haltIf, counts: { sent: 200, optOuts: 2, failures: 10, blocks: 1 }, qualityDrop: false, minSample: 1 }).halt).toBe(
      false,
    );
    const all = verdictOf({
      stage: 'running',
      haltIf,
      counts: { sent: 200, optOuts: 3, failures: 11, blocks: 2 },
      qualityDrop: true,
      minSample: MIN_HALT_SAMPLE,
    });
    expect(all.figures.exceeded).toEqual(['optOutRate', 'failureRate', 'blockRate', 'qualityDrop']);
    expect(all.figures.measured).toEqual({ optOutRate: 0.015, failureRate: 0.055, blockRate: 0.01, qualityDrop: true });
  });

  it('judges no rate below the minimum sample, but a quality drop always; a drop is ignored without qualityDrop: true', () => {
    const few = { sent: MIN_HALT_SAMPLE - 1, optOuts: 50, failures: 50, blocks: 50 };
    expect(verdictOf({ stage: 'running', haltIf: { optOutRate: 0.01 }, counts: few, qualityDrop: true, minSample: MIN_HALT_SAMPLE }).halt).toBe(false);
    expect(verdictOf({ stage: 'running', haltIf, counts: few, qualityDrop: true, minSample: MIN_HALT_SAMPLE }).figures.exceeded).toEqual(['qualityDrop']);
    expect(
      verdictOf({ stage: 'running', haltIf: { optOutRate: 0.01 }, counts: { ...few, sent: MIN_HALT_SAMPLE }, qualityDrop: false, minSample: MIN_HALT_SAMPLE })
        .figures.exceeded,
    ).toEqual(['optOutRate']);
    expect(
      verdictOf({ stage: 'canary', haltIf: { optOutRate: 0.5 }, counts: { sent: 0, optOuts: 0, failures: 0, blocks: 0 }, qualityDrop: false, minSample: 1 })
        .halt,
    ).toBe(false);
  });
});

describe('qualityDropped', () => {
  it('is a fall in Meta’s rating: GREEN > YELLOW > RED, no rating or UNKNOWN counting as GREEN', () => {
    expect(qualityDropped('GREEN', 'YELLOW')).toBe(true);
    expect(qualityDropped('YELLOW', 'RED')).toBe(true);
    expect(qualityDropped(undefined, 'RED')).toBe(true);
    expect(qualityDropped('UNKNOWN', 'YELLOW')).toBe(true);
    expect(qualityDropped('RED', 'YELLOW')).toBe(false);
    expect(qualityDropped('GREEN', 'GREEN')).toBe(false);
    expect(qualityDropped('YELLOW', undefined)).toBe(false);
  });
});

describe('canarySliceSize', () => {
  const haltIf = { optOutRate: 0.01 };
  it('takes count, or percent of the audience rounded up, the smaller of both, 5 % of neither, at least one', () => {
    expect(canarySliceSize({ count: 100 }, 200)).toBe(100);
    expect(canarySliceSize({ percent: 5, count: 500 }, 4000)).toBe(200);
    expect(canarySliceSize({ percent: 10, count: 50 }, 4000)).toBe(50);
    expect(canarySliceSize({}, 1001)).toBe(51);
    expect(canarySliceSize({ percent: 1 }, 0)).toBe(1);
    expect(canarySliceSize({ count: 500, ...{ observeMinutes: 30, haltIf } }, 10)).toBe(500);
  });
});
