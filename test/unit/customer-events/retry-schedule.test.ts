import fc from 'fast-check';
import { MAX_SQS_DELAY_SECONDS, nextRetry } from '../../../shared/customer-events/retry-schedule';

const settings = { retryWindowMs: 24 * 3_600_000, backoffBaseMs: 10_000, backoffCapMs: 900_000 };
const first = new Date('2025-05-01T00:00:00.000Z');
const at = (ms: number) => new Date(first.getTime() + ms);

describe('retry schedule of customer event deliveries', () => {
  it('waits at most base × 2^(attempt−1), never more than 15 minutes, never past the window', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        fc.integer({ min: 0, max: settings.retryWindowMs - 1 }),
        (attempt, random, elapsed) => {
          const decision = nextRetry(settings, attempt, first, at(elapsed), () => random);
          expect(decision.kind).toBe('retry');
          if (decision.kind !== 'retry') return;
          const ceilingSeconds = Math.min(900, 10 * 2 ** (attempt - 1));
          expect(decision.delaySeconds).toBeGreaterThanOrEqual(0);
          expect(Number.isInteger(decision.delaySeconds)).toBe(true);
          expect(decision.delaySeconds).toBeLessThanOrEqual(ceilingSeconds);
          expect(decision.delaySeconds).toBeLessThanOrEqual(MAX_SQS_DELAY_SECONDS);
          expect(decision.delaySeconds * 1000).toBeLessThanOrEqual(settings.retryWindowMs - elapsed);
        },
      ),
    );
  });

  it('spreads waits over the whole range (full jitter)', () => {
    expect(nextRetry(settings, 1, first, first, () => 0)).toEqual({ kind: 'retry', delaySeconds: 0 });
    expect(nextRetry(settings, 1, first, first, () => 0.999)).toEqual({ kind: 'retry', delaySeconds: 9 });
    expect(nextRetry(settings, 4, first, first, () => 0.5)).toEqual({ kind: 'retry', delaySeconds: 40 });
    expect(nextRetry(settings, 30, first, first, () => 0.999)).toEqual({ kind: 'retry', delaySeconds: 899 });
  });

  it('gives up once the window from the first attempt is over', () => {
    expect(nextRetry(settings, 300, first, at(settings.retryWindowMs), () => 0.5)).toEqual({ kind: 'give-up' });
    expect(nextRetry(settings, 2, first, at(settings.retryWindowMs + 1), () => 0.5)).toEqual({ kind: 'give-up' });
    expect(nextRetry({ ...settings, retryWindowMs: 3_600_000 }, 2, first, at(3_600_000), () => 0)).toEqual({ kind: 'give-up' });
  });

  it("lands the last try at the window's end at the latest", () => {
    expect(nextRetry(settings, 20, first, at(settings.retryWindowMs - 5_000), () => 0.999)).toEqual({ kind: 'retry', delaySeconds: 5 });
  });
});
