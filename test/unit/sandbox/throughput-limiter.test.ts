import { ThroughputLimiter } from '../../../sandbox/throughput-limiter';

function acquireMany(limiter: ThroughputLimiter, key: string, limit: number, now: number, count: number): number {
  let accepted = 0;
  for (let index = 0; index < count; index += 1) if (limiter.tryAcquire(key, limit, now)) accepted += 1;
  return accepted;
}

describe('ThroughputLimiter', () => {
  it('accepts up to the limit within one window and rejects the rest', () => {
    const limiter = new ThroughputLimiter(1000);
    expect(acquireMany(limiter, 'phone', 5, 0, 8)).toBe(5);
  });

  it('slides: a slot frees exactly one window after it was taken', () => {
    const limiter = new ThroughputLimiter(1000);
    expect(limiter.tryAcquire('phone', 2, 0)).toBe(true);
    expect(limiter.tryAcquire('phone', 2, 500)).toBe(true);
    expect(limiter.tryAcquire('phone', 2, 999)).toBe(false);
    expect(limiter.tryAcquire('phone', 2, 1000)).toBe(true); // the t=0 slot left the window
    expect(limiter.tryAcquire('phone', 2, 1400)).toBe(false); // t=500 is still inside
    expect(limiter.tryAcquire('phone', 2, 1500)).toBe(true);
  });

  it('never allows more than the limit in any window, unlike fixed buckets at an edge', () => {
    const limiter = new ThroughputLimiter(1000);
    expect(acquireMany(limiter, 'phone', 10, 900, 10)).toBe(10);
    expect(acquireMany(limiter, 'phone', 10, 1100, 10)).toBe(0);
    expect(acquireMany(limiter, 'phone', 10, 1900, 10)).toBe(10);
  });

  it('keeps separate windows per key', () => {
    const limiter = new ThroughputLimiter(1000);
    expect(acquireMany(limiter, 'a', 3, 0, 5)).toBe(3);
    expect(acquireMany(limiter, 'b', 3, 0, 5)).toBe(3);
  });

  it('honours a changed limit while keeping the recent history', () => {
    const limiter = new ThroughputLimiter(1000);
    expect(acquireMany(limiter, 'phone', 3, 0, 3)).toBe(3);
    expect(acquireMany(limiter, 'phone', 5, 100, 5)).toBe(2);
    expect(acquireMany(limiter, 'phone', 2, 200, 5)).toBe(0);
    expect(acquireMany(limiter, 'phone', 2, 1050, 5)).toBe(0); // the kept t=100 entries still count
    expect(acquireMany(limiter, 'phone', 2, 1100, 5)).toBe(2);
  });

  it('rejects everything at limit 0 and forgets history on clear', () => {
    const limiter = new ThroughputLimiter(1000);
    expect(limiter.tryAcquire('phone', 0, 0)).toBe(false);
    acquireMany(limiter, 'other', 1, 0, 1);
    limiter.clear();
    expect(limiter.tryAcquire('other', 1, 1)).toBe(true);
  });

  it('handles a high limit at constant cost per call', () => {
    const limiter = new ThroughputLimiter(1000);
    const started = performance.now();
    let now = 0;
    let accepted = 0;
    for (let index = 0; index < 200_000; index += 1) {
      now += 0.5; // 2,000 attempts per simulated second
      if (limiter.tryAcquire('phone', 1000, now)) accepted += 1;
    }
    expect(accepted).toBe(100_000);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
