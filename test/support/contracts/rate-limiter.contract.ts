/**
 * What every RateLimiter does, as observed through the port (fake test/support/in-memory-rate-limiter.ts,
 * adapter DynamoDbRateLimiter): the sliding window of two weighted minutes, the exact Retry-After,
 * and buckets that never share a count. Each test uses its own bucket; times are explicit.
 */
import type { RateLimiter } from '../../../shared/rate-limiting/rate-limiter';

let sequence = 0;
const freshBucket = () => `contract#${process.pid}#${Date.now().toString(36)}#${(sequence += 1)}`;
/** A minute boundary, far from the real clock so the adapter's items never meet live ones. */
const minute = Date.UTC(2031, 0, 1, 12, 0, 0);
const at = (offsetMs: number) => new Date(minute + offsetMs);

export function describeRateLimiterContract(name: string, makeLimiter: () => RateLimiter | Promise<RateLimiter>): void {
  describe(`RateLimiter contract: ${name}`, () => {
    let limiter: RateLimiter;
    beforeAll(async () => {
      limiter = await makeLimiter();
    });

    it('admits up to the limit within a minute, counting down what remains, then refuses with the exact wait', async () => {
      const bucket = freshBucket();
      const decisions = [];
      for (let request = 0; request < 3; request += 1) decisions.push(await limiter.consume(bucket, 3, at(10_000)));
      expect(decisions).toEqual([
        { allowed: true, retryAfterSeconds: 0, remaining: 2 },
        { allowed: true, retryAfterSeconds: 0, remaining: 1 },
        { allowed: true, retryAfterSeconds: 0, remaining: 0 },
      ]);
      // Full until the previous minute weighs less than one request: 3 × (60 − e)/60 + 3 + 1 ≤ 3 → only
      // in the next minute, once 3 × (60 − e)/60 ≤ 2, i.e. e ≥ 20 s into it: 60 − 10 + 20 = 70 s.
      expect(await limiter.consume(bucket, 3, at(10_000))).toEqual({ allowed: false, retryAfterSeconds: 70, remaining: 0 });
    });

    it('does not let twice the limit through across a minute boundary', async () => {
      const bucket = freshBucket();
      for (let request = 0; request < 10; request += 1) expect((await limiter.consume(bucket, 10, at(59_000))).allowed).toBe(true);
      const afterBoundary = await limiter.consume(bucket, 10, at(60_000));
      expect(afterBoundary.allowed).toBe(false);
      expect(afterBoundary.retryAfterSeconds).toBe(6);
      // One more fits for every 6 s of the previous minute that slides out.
      expect((await limiter.consume(bucket, 10, at(66_000))).allowed).toBe(true);
      expect((await limiter.consume(bucket, 10, at(66_000))).allowed).toBe(false);
    });

    it('keeps buckets apart', async () => {
      const [first, second] = [freshBucket(), freshBucket()];
      expect((await limiter.consume(first, 1, at(1_000))).allowed).toBe(true);
      expect((await limiter.consume(first, 1, at(1_000))).allowed).toBe(false);
      expect((await limiter.consume(second, 1, at(1_000))).allowed).toBe(true);
    });
  });
}
