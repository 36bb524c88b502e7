/**
 * What the fairness stores do, as observed through their ports (fakes test/support/customer-event-fairness-fakes.ts,
 * adapters DynamoDbWebhookEndpointHealth and DynamoDbRedeliveryQuota): leases that cap an endpoint and
 * expire, each slot's time held, failure counts and the breaker, an organization's share leases, a daily
 * quota granted whole or refused whole. Each test uses
 * its own organizations.
 */
import type { EndpointHealthStore, OrganizationShareStore } from '../../../shared/customer-events/delivery-ports';
import type { RedeliveryQuota } from '../../../shared/customer-events/redelivery-quota';

let sequence = 0;
const freshEndpoint = () => ({ organizationId: `org_fair${process.pid}x${(sequence += 1)}`, endpointId: 'whk_1' });
const at = (seconds: number) => new Date(Date.UTC(2026, 2, 1, 12, 0, seconds));

type FairnessStore = EndpointHealthStore & OrganizationShareStore;

export function describeEndpointHealthStoreContract(name: string, makeStore: () => FairnessStore | Promise<FairnessStore>): void {
  describe(`EndpointHealthStore contract: ${name}`, () => {
    let store: FairnessStore;
    beforeAll(async () => {
      store = await makeStore();
    });

    it('a fresh endpoint: no failures, no breaker, no lease', async () => {
      expect(await store.read(freshEndpoint(), at(0))).toEqual({ consecutiveFailures: 0, lastFailureTimedOut: false, opens: 0, leases: [] });
    });

    it('a slot holds one lease until it is released or expires; another endpoint has its own slots', async () => {
      const endpoint = freshEndpoint();
      const first = await store.tryLease(endpoint, 0, at(0), at(15));
      expect(first).toMatchObject({ slot: 0 });
      expect(await store.tryLease(endpoint, 0, at(1), at(16))).toBeUndefined();
      expect(await store.tryLease(freshEndpoint(), 0, at(1), at(16))).toMatchObject({ slot: 0 });
      const second = await store.tryLease(endpoint, 1, at(2), at(17));
      expect((await store.read(endpoint, at(3))).leases).toEqual([
        { slot: 0, acquiredAtMs: at(0).getTime(), expiresAtMs: at(15).getTime() },
        { slot: 1, acquiredAtMs: at(2).getTime(), expiresAtMs: at(17).getTime() },
      ]);
      await store.release(endpoint, second!);
      expect((await store.read(endpoint, at(3))).leases.map((lease) => lease.slot)).toEqual([0]);
      // Expired: not listed, and free to take; the old holder's release then leaves the new lease alone.
      expect((await store.read(endpoint, at(15))).leases).toEqual([]);
      const taken = await store.tryLease(endpoint, 0, at(15), at(30));
      expect(taken).toBeDefined();
      await store.release(endpoint, first!);
      expect((await store.read(endpoint, at(16))).leases.map((lease) => lease.slot)).toEqual([0]);
    });

    it("a release records the slot's time in calls (the last one per slot); one without it, or that lost its slot, records nothing", async () => {
      const endpoint = freshEndpoint();
      const first = await store.tryLease(endpoint, 0, at(0), at(15));
      const second = await store.tryLease(endpoint, 1, at(1), at(16));
      await store.release(endpoint, first!, { ms: 4_900, endedAt: at(5) });
      await store.release(endpoint, second!, { ms: 1_000, endedAt: at(2) });
      expect((await store.read(endpoint, at(6))).holds).toEqual([
        { slot: 0, heldMs: 4_900, endedAtMs: at(5).getTime() },
        { slot: 1, heldMs: 1_000, endedAtMs: at(2).getTime() },
      ]);
      const again = await store.tryLease(endpoint, 0, at(6), at(21));
      await store.release(endpoint, again!, { ms: 2_000, endedAt: at(8) });
      const uncalled = await store.tryLease(endpoint, 1, at(8), at(23));
      await store.release(endpoint, uncalled!);
      expect(await store.read(endpoint, at(9))).toMatchObject({
        leases: [],
        holds: [
          { slot: 0, heldMs: 2_000, endedAtMs: at(8).getTime() },
          { slot: 1, heldMs: 1_000, endedAtMs: at(2).getTime() },
        ],
      });
      const stale = await store.tryLease(endpoint, 1, at(10), at(12));
      await store.tryLease(endpoint, 1, at(12), at(27));
      await store.release(endpoint, stale!, { ms: 3_000, endedAt: at(13) });
      expect((await store.read(endpoint, at(13))).holds![1]).toEqual({ slot: 1, heldMs: 1_000, endedAtMs: at(2).getTime() });
    });

    it("an organization's share: one lease per slot until released or expired, apart from its endpoints' and from other organizations'", async () => {
      const { organizationId } = freshEndpoint();
      expect(await store.readShare(organizationId, at(0))).toEqual({ leases: [] });
      const first = await store.tryShareLease(organizationId, 0, at(0), at(15));
      expect(first).toMatchObject({ slot: 0 });
      expect(await store.tryShareLease(organizationId, 0, at(1), at(16))).toBeUndefined();
      expect(await store.tryShareLease(freshEndpoint().organizationId, 0, at(1), at(16))).toMatchObject({ slot: 0 });
      expect(await store.tryLease({ organizationId, endpointId: 'whk_1' }, 0, at(1), at(16))).toMatchObject({ slot: 0 });
      const second = await store.tryShareLease(organizationId, 1, at(2), at(17));
      expect(await store.readShare(organizationId, at(3))).toEqual({
        leases: [
          { slot: 0, acquiredAtMs: at(0).getTime(), expiresAtMs: at(15).getTime() },
          { slot: 1, acquiredAtMs: at(2).getTime(), expiresAtMs: at(17).getTime() },
        ],
      });
      await store.releaseShare(organizationId, second!);
      expect((await store.readShare(organizationId, at(3))).leases.map((lease) => lease.slot)).toEqual([0]);
      expect((await store.readShare(organizationId, at(15))).leases).toEqual([]);
      const taken = await store.tryShareLease(organizationId, 0, at(15), at(30));
      expect(taken).toBeDefined();
      await store.releaseShare(organizationId, first!);
      expect((await store.readShare(organizationId, at(16))).leases.map((lease) => lease.slot)).toEqual([0]);
    });

    it("counts failures in a row with the last one's kind, opens the breaker, and a success resets it all", async () => {
      const endpoint = freshEndpoint();
      expect(await store.recordFailures(endpoint, 3, false, at(0))).toBe(3);
      expect(await store.recordFailures(endpoint, 2, true, at(1))).toBe(5);
      await store.openBreaker(endpoint, at(31), 1, at(1));
      expect(await store.read(endpoint, at(2))).toEqual({
        consecutiveFailures: 5,
        lastFailureTimedOut: true,
        openUntilMs: at(31).getTime(),
        opens: 1,
        leases: [],
      });
      await store.recordSuccess(endpoint, at(40));
      expect(await store.read(endpoint, at(41))).toEqual({
        consecutiveFailures: 0,
        lastFailureTimedOut: false,
        opens: 0,
        lastSuccessAtMs: at(40).getTime(),
        leases: [],
      });
    });
  });
}

export function describeRedeliveryQuotaContract(name: string, makeQuota: () => RedeliveryQuota | Promise<RedeliveryQuota>): void {
  describe(`RedeliveryQuota contract: ${name}`, () => {
    let quota: RedeliveryQuota;
    beforeAll(async () => {
      quota = await makeQuota();
    });

    it('grants up to the limit, refuses a request that would pass it whole, per organization and day', async () => {
      const { organizationId } = freshEndpoint();
      expect(await quota.reserve(organizationId, '2026-03-01', 3_000, 5_000)).toEqual({ granted: true, used: 3_000 });
      expect(await quota.reserve(organizationId, '2026-03-01', 2_001, 5_000)).toEqual({ granted: false, used: 3_000 });
      expect(await quota.reserve(organizationId, '2026-03-01', 2_000, 5_000)).toEqual({ granted: true, used: 5_000 });
      expect(await quota.reserve(organizationId, '2026-03-01', 1, 5_000)).toEqual({ granted: false, used: 5_000 });
      expect(await quota.reserve(organizationId, '2026-03-02', 1, 5_000)).toEqual({ granted: true, used: 1 });
      expect(await quota.reserve(freshEndpoint().organizationId, '2026-03-01', 5_000, 5_000)).toEqual({ granted: true, used: 5_000 });
    });

    it('a request larger than the whole quota is refused without counting', async () => {
      const { organizationId } = freshEndpoint();
      expect(await quota.reserve(organizationId, '2026-03-01', 5_001, 5_000)).toEqual({ granted: false, used: 0 });
      expect(await quota.reserve(organizationId, '2026-03-01', 5_000, 5_000)).toEqual({ granted: true, used: 5_000 });
    });

    it('concurrent requests never pass the limit together', async () => {
      const { organizationId } = freshEndpoint();
      const answers = await Promise.all(Array.from({ length: 8 }, () => quota.reserve(organizationId, '2026-03-01', 1_000, 5_000)));
      expect(answers.filter((answer) => answer.granted)).toHaveLength(5);
      expect(Math.max(...answers.map((answer) => answer.used))).toBe(5_000);
    });
  });
}
