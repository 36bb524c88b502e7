/** The chunk worker's in-flight budget: Little's law plus a Poisson tail, between a floor and a cap; the latency estimate behind it. */
import { DEFAULT_LATENCY_PRIOR_MS, SendLatencyEstimate, inFlightBudget } from '../../../shared/sending/in-flight-budget';

const bounds = { floor: 16, cap: 512 };

describe('inFlightBudget', () => {
  it.each([
    // L = rate x W; lanes = ceil(L + 3 sqrt(L)).
    [1000, 291, 343], // Meta-like p50 200 / p99 1,500 ms (mean 291 ms) at 1,000/s: 291 + 51.2
    [1000, 366, 424], // the same with 0.5 % sends held to a 15 s timeout (mean 366 ms)
    [80, 291, 38], // 23.3 + 14.5
    [250, 200, 72], // 50 + 21.2
  ])('at %i/s with a lane busy %i ms per send: %i lanes', (rate, busyMs, lanes) => {
    expect(inFlightBudget(rate, busyMs, bounds)).toBe(lanes);
  });

  it('covers at least rate x latency, so the pacer never waits for a lane', () => {
    for (const rate of [1, 30, 80, 250, 1000])
      for (const busyMs of [1, 50, 200, 500, 1500])
        expect(inFlightBudget(rate, busyMs, { floor: 1, cap: 10_000 })).toBeGreaterThanOrEqual((rate * busyMs) / 1000);
  });

  it('keeps the floor when the upstream is fast or the rate low', () => {
    expect(inFlightBudget(1000, 1, bounds)).toBe(16);
    expect(inFlightBudget(30, 200, bounds)).toBe(16);
    expect(inFlightBudget(0, 200, bounds)).toBe(16);
  });

  it('never exceeds the cap, which wins over the floor', () => {
    expect(inFlightBudget(1000, 15_000, bounds)).toBe(512);
    expect(inFlightBudget(1000, 300, { floor: 16, cap: 4 })).toBe(4);
    expect(inFlightBudget(1, 1, { floor: 16, cap: 1 })).toBe(1);
  });
});

describe('SendLatencyEstimate', () => {
  it('starts from the prior', () => {
    expect(new SendLatencyEstimate().meanMs).toBe(DEFAULT_LATENCY_PRIOR_MS);
    expect(new SendLatencyEstimate(300).meanMs).toBe(300);
  });

  it('moves to the mean of what it observes, a timeout counting with its whole duration', () => {
    const estimate = new SendLatencyEstimate(500);
    for (let index = 0; index < 2000; index += 1) estimate.observe(index % 200 === 0 ? 15_000 : 200);
    // Mean of the samples: 0.995 x 200 + 0.005 x 15,000 = 274 ms; the last timeout is 199 samples back.
    expect(estimate.meanMs).toBeGreaterThan(200);
    expect(estimate.meanMs).toBeLessThan(300);
    expect(estimate.observed).toBe(2000);
  });

  it('follows a change of latency within a few hundred sends', () => {
    const estimate = new SendLatencyEstimate(500);
    for (let index = 0; index < 400; index += 1) estimate.observe(5);
    expect(estimate.meanMs).toBeLessThan(10);
    for (let index = 0; index < 400; index += 1) estimate.observe(800);
    expect(estimate.meanMs).toBeGreaterThan(790);
  });

  it('ignores a negative or non-finite duration', () => {
    const estimate = new SendLatencyEstimate(300);
    estimate.observe(-5);
    estimate.observe(Number.NaN);
    expect(estimate.meanMs).toBe(300);
    expect(estimate.observed).toBe(0);
  });
});
