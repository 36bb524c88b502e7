/**
 * What every PortfolioReach does, as observed through the port (fake InMemoryPortfolioReach in
 * test/support/broadcast-fakes.ts, adapter DynamoDbPortfolioReach): buckets by hour within a
 * window, binary sketches back byte for byte, and version-conditional writes. Each test uses its own portfolio.
 */
import type { PortfolioReach } from '../../../shared/broadcast/ports';
import { REGISTER_COUNT } from '../../../shared/broadcast/reach-sketch';

let sequence = 0;
const freshPortfolio = () => `biz-contract-${process.pid}-${Date.now().toString(36)}-${(sequence += 1)}`;

export function describePortfolioReachContract(name: string, makeReach: () => PortfolioReach | Promise<PortfolioReach>): void {
  describe(`PortfolioReach contract: ${name}`, () => {
    let reach: PortfolioReach;
    beforeAll(async () => {
      reach = await makeReach();
    });

    it('an unknown portfolio has no buckets', async () => {
      expect(await reach.bucketsOf(freshPortfolio(), '2026-03-01T00', '2026-03-02T00')).toEqual([]);
    });

    it('writes a bucket once from version 0, then only from the version it read', async () => {
      const portfolio = freshPortfolio();
      const first = { hour: '2026-03-01T09', sketch: Uint8Array.of(1, 0, 0, 0, 7), version: 1 };
      expect(await reach.writeBucket(portfolio, first, 0)).toBe(true);
      expect(await reach.writeBucket(portfolio, { ...first, sketch: Uint8Array.of(1) }, 0)).toBe(false);
      const second = { hour: first.hour, sketch: Uint8Array.of(1, 0, 0, 0, 7, 0, 0, 0, 9), version: 2 };
      expect(await reach.writeBucket(portfolio, second, 2)).toBe(false);
      expect(await reach.writeBucket(portfolio, second, 1)).toBe(true);
      expect(await reach.bucketsOf(portfolio, first.hour, first.hour)).toEqual([second]);
    });

    it('answers the buckets whose hour is within the window, both ends included, with their bytes unchanged', async () => {
      const portfolio = freshPortfolio();
      const dense = new Uint8Array(1 + REGISTER_COUNT).fill(3);
      dense[0] = 2;
      for (const [hour, sketch] of [
        ['2026-03-01T08', Uint8Array.of(1)],
        ['2026-03-01T09', dense],
        ['2026-03-02T09', Uint8Array.of(1, 255, 255, 255, 255)],
        ['2026-03-02T10', Uint8Array.of(1)],
      ] as const) {
        expect(await reach.writeBucket(portfolio, { hour, sketch, version: 1 }, 0)).toBe(true);
      }
      const window = await reach.bucketsOf(portfolio, '2026-03-01T09', '2026-03-02T09');
      expect(window.map((bucket) => bucket.hour).sort()).toEqual(['2026-03-01T09', '2026-03-02T09']);
      expect(window.find((bucket) => bucket.hour === '2026-03-01T09')?.sketch).toEqual(dense);
      expect(await reach.bucketsOf(freshPortfolio(), '2026-03-01T09', '2026-03-02T09')).toEqual([]);
    });

    it("keeps each organization's own part byte for byte, and a bucket without parts has none", async () => {
      const portfolio = freshPortfolio();
      const dense = new Uint8Array(1 + REGISTER_COUNT).fill(2);
      dense[0] = 2;
      const byOrganization = { org_a: Uint8Array.of(1, 0, 0, 0, 7), org_b: dense };
      expect(await reach.writeBucket(portfolio, { hour: '2026-03-01T09', sketch: dense, byOrganization, version: 1 }, 0)).toBe(true);
      expect(await reach.writeBucket(portfolio, { hour: '2026-03-01T10', sketch: Uint8Array.of(1), version: 1 }, 0)).toBe(true);
      const [withParts, withoutParts] = await reach.bucketsOf(portfolio, '2026-03-01T09', '2026-03-01T10');
      expect(withParts).toEqual({ hour: '2026-03-01T09', sketch: dense, byOrganization, version: 1 });
      expect(withoutParts).toEqual({ hour: '2026-03-01T10', sketch: Uint8Array.of(1), version: 1 });
    });
  });
}
