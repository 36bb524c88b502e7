import { admits, currentWindowAllowance, secondsUntilAdmitted } from '../../../shared/rate-limiting/sliding-window';
import { InMemoryRateLimiter } from '../../support/in-memory-rate-limiter';

/** A fake clock: milliseconds after 09:00:00 of a fixed day (a minute boundary). */
const minute0 = Date.parse('2026-03-01T09:00:00.000Z');
const at = (seconds: number) => new Date(minute0 + Math.round(seconds * 1000));

async function send(limiter: InMemoryRateLimiter, count: number, atSeconds: number, limit = 10, bucket = 'send#key#sender') {
  const decisions = [];
  for (let index = 0; index < count; index += 1) decisions.push(await limiter.consume(bucket, limit, at(atSeconds)));
  return decisions;
}

/** Brute force: the first whole second at which the rule admits, checked the long way. */
function firstAdmittingSecond(limit: number, previous: number, current: number, nowMs: number) {
  for (let seconds = 1; seconds <= 200; seconds += 1) {
    const laterMs = nowMs + seconds * 1000;
    const windowsAhead = Math.floor(laterMs / 60_000) - Math.floor(nowMs / 60_000);
    const counts = windowsAhead === 0 ? { previous, current } : windowsAhead === 1 ? { previous: current, current: 0 } : { previous: 0, current: 0 };
    if (admits(limit, counts, laterMs)) return seconds;
  }
  throw new Error('never admitted');
}

describe('sliding-window rate limit (two weighted windows)', () => {
  it('refuses 10 more at 1:00 after 10 at 0:59 (limit 10): no double burst across the boundary', async () => {
    const limiter = new InMemoryRateLimiter();
    const first = await send(limiter, 10, 59);
    expect(first.every((decision) => decision.allowed)).toBe(true);
    const second = await send(limiter, 10, 60);
    expect(second.filter((decision) => decision.allowed)).toHaveLength(0);
    // 1/10 of the previous minute must slide out: 6 s after 1:00.
    expect(second.every((decision) => decision.retryAfterSeconds === 6 && decision.remaining === 0)).toBe(true);
  });

  it('after a burst at the last millisecond of a minute, admits one more per 6 s of the next (limit 10)', async () => {
    const limiter = new InMemoryRateLimiter();
    await send(limiter, 10, 59.999);
    expect((await send(limiter, 1, 60))[0]).toEqual({ allowed: false, retryAfterSeconds: 6, remaining: 0 });
    expect((await send(limiter, 1, 65.999))[0]).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    expect((await send(limiter, 2, 66)).map((decision) => decision.allowed)).toEqual([true, false]);
    expect((await send(limiter, 2, 72)).map((decision) => decision.allowed)).toEqual([true, false]);
  });

  it('gives back the previous minute linearly as it slides out', async () => {
    const limiter = new InMemoryRateLimiter();
    await send(limiter, 10, 30);
    // At 1:30 half of the previous minute is still inside the window: 5 more fit.
    const decisions = await send(limiter, 7, 90);
    expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false, false]);
    expect(decisions.slice(0, 5).map((decision) => decision.remaining)).toEqual([4, 3, 2, 1, 0]);
    // Estimate 10 × 30/60 + 5 = 10; one more fits once 6 s more of the previous minute have slid out.
    expect(decisions[5]!.retryAfterSeconds).toBe(6);
  });

  it('Retry-After is exact: refused a whole second before it, admitted at it', async () => {
    const cases: Array<[limit: number, firstBurstAt: number, refusedAt: number]> = [
      [10, 59, 60],
      [10, 0, 20.3],
      [10, 59.999, 60.001],
      [1, 59.5, 59.5],
      [1, 0, 0],
      [30, 45.25, 61.75],
      [1000, 12, 40],
      [3, 59.999, 60.5],
    ];
    for (const [limit, firstBurstAt, refusedAt] of cases) {
      const limiter = new InMemoryRateLimiter();
      await send(limiter, limit, firstBurstAt, limit);
      const [refused] = await send(limiter, 1, refusedAt, limit);
      expect(refused!.allowed).toBe(false);
      const retry = refused!.retryAfterSeconds;
      expect(retry).toBeGreaterThanOrEqual(1);
      const probeEarly = new InMemoryRateLimiter();
      const probeOnTime = new InMemoryRateLimiter();
      for (const probe of [probeEarly, probeOnTime]) {
        await send(probe, limit, firstBurstAt, limit);
        await send(probe, 1, refusedAt, limit);
      }
      if (retry > 1) expect((await send(probeEarly, 1, refusedAt + retry - 1, limit))[0]!.allowed).toBe(false);
      expect((await send(probeOnTime, 1, refusedAt + retry, limit))[0]!.allowed).toBe(true);
    }
  });

  it('agrees with a brute-force search for every previous/current count and instant', () => {
    for (const limit of [1, 2, 10, 30]) {
      for (let previous = 0; previous <= limit; previous += 1) {
        for (let current = 0; current <= limit; current += 1) {
          for (const elapsedMs of [0, 1, 999, 1000, 29_999, 30_000, 59_000, 59_999]) {
            const nowMs = minute0 + elapsedMs;
            if (admits(limit, { previous, current }, nowMs)) continue;
            expect(secondsUntilAdmitted(limit, { previous, current }, nowMs)).toBe(firstAdmittingSecond(limit, previous, current, nowMs));
          }
        }
      }
    }
  });

  it('is exact at the boundaries of the allowance', () => {
    // Start of a minute: the previous minute counts in full.
    expect(currentWindowAllowance(10, 10, minute0)).toBe(0);
    expect(currentWindowAllowance(10, 0, minute0)).toBe(10);
    // Last millisecond: 10 × 1/60 000 of the previous minute still counts, so 9 whole requests fit.
    expect(currentWindowAllowance(10, 10, minute0 + 59_999)).toBe(9);
    // 6 s in: exactly one request's worth has slid out.
    expect(currentWindowAllowance(10, 10, minute0 + 5_999)).toBe(0);
    expect(currentWindowAllowance(10, 10, minute0 + 6_000)).toBe(1);
  });

  it('counts buckets apart and a quiet minute resets both windows', async () => {
    const limiter = new InMemoryRateLimiter();
    await send(limiter, 3, 10, 3);
    expect((await send(limiter, 1, 20, 3, 'send#other'))[0]).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 2 });
    expect((await send(limiter, 1, 120, 3))[0]).toEqual({ allowed: true, retryAfterSeconds: 0, remaining: 2 });
  });

  it('refuses a limit below 1 rather than looping', () => {
    expect(() => secondsUntilAdmitted(0, { previous: 0, current: 0 }, minute0)).toThrow(RangeError);
  });
});
