/**
 * What every TouchStore does (a person's latest touch, docs/OUTCOMES.md "Attribution"), as observed
 * through the port: run on the in-memory fake (test/unit/contracts) and the DynamoDB adapter on
 * dynalite (test/integration/contracts). Each test uses its own organization.
 */
import type { Touch, TouchStore } from '../../../shared/outcomes/ports';

let sequence = 0;
const freshOrganization = () => `org_${process.pid}x${Date.now().toString(36)}x${(sequence += 1)}touch`;
const touch = (jobId: string, at: string, extra: Partial<Touch> = {}): Touch => ({ jobId, chunkIndex: 0, index: 3, at, windowHours: 72, ...extra });

export function describeTouchStoreContract(name: string, makeStore: () => TouchStore | Promise<TouchStore>): void {
  describe(`TouchStore contract: ${name}`, () => {
    let store: TouchStore;
    let org: string;
    beforeAll(async () => {
      store = await makeStore();
    });
    beforeEach(() => {
      org = freshOrganization();
    });

    it('finds a touch under each of its keys, and nothing under another key or organization', async () => {
      const first = touch('pub_a', '2026-12-01T10:00:00.000Z', { campaignId: 'cmp_1', index: 7 });
      await store.recordTouches(org, [{ personKeys: ['12025550123', 'US.13491208655302741918'], touch: first }]);
      await expect(store.latestTouch(org, ['12025550123'])).resolves.toEqual(first);
      await expect(store.latestTouch(org, ['US.13491208655302741918'])).resolves.toEqual(first);
      await expect(store.latestTouch(org, ['12025550999'])).resolves.toBeUndefined();
      await expect(store.latestTouch(`${org}other`, ['12025550123'])).resolves.toBeUndefined();
      await expect(store.latestTouch(org, [])).resolves.toBeUndefined();
    });

    it('keeps the newer touch: a later one replaces it, an older one arriving late does not', async () => {
      await store.recordTouches(org, [{ personKeys: ['12025550123'], touch: touch('pub_a', '2026-12-01T10:00:00.000Z') }]);
      await store.recordTouches(org, [{ personKeys: ['12025550123'], touch: touch('pub_b', '2026-12-02T10:00:00.000Z', { windowHours: 24 }) }]);
      await store.recordTouches(org, [{ personKeys: ['12025550123'], touch: touch('pub_c', '2026-12-01T12:00:00.000Z') }]);
      // The same touch again (a redelivered webhook) changes nothing.
      await store.recordTouches(org, [{ personKeys: ['12025550123'], touch: touch('pub_b', '2026-12-02T10:00:00.000Z', { windowHours: 24 }) }]);
      await expect(store.latestTouch(org, ['12025550123'])).resolves.toEqual(touch('pub_b', '2026-12-02T10:00:00.000Z', { windowHours: 24 }));
    });

    it('keeps the delivery of a send when its read comes later (the window runs from delivery), and a read alone is a touch', async () => {
      await store.recordTouches(org, [{ personKeys: ['12025550123'], touch: touch('pub_a', '2026-12-01T10:00:00.000Z') }]);
      await store.recordTouches(org, [{ personKeys: ['12025550123'], touch: touch('pub_a', '2026-12-01T11:30:00.000Z') }]);
      await expect(store.latestTouch(org, ['12025550123'])).resolves.toEqual(touch('pub_a', '2026-12-01T10:00:00.000Z'));
      // Another recipient of the same job is another send.
      await store.recordTouches(org, [{ personKeys: ['12025550123'], touch: touch('pub_a', '2026-12-01T12:00:00.000Z', { index: 4 }) }]);
      await expect(store.latestTouch(org, ['12025550123'])).resolves.toEqual(touch('pub_a', '2026-12-01T12:00:00.000Z', { index: 4 }));
    });

    it('answers the newest touch among the keys, a held-out one included', async () => {
      await store.recordTouches(org, [
        { personKeys: ['12025550123'], touch: touch('pub_a', '2026-12-01T10:00:00.000Z') },
        { personKeys: ['US.13491208655302741918'], touch: touch('pub_h', '2026-12-03T10:00:00.000Z', { campaignId: 'cmp_2', heldOut: true }) },
      ]);
      await expect(store.latestTouch(org, ['12025550123', 'US.13491208655302741918'])).resolves.toEqual(
        touch('pub_h', '2026-12-03T10:00:00.000Z', { campaignId: 'cmp_2', heldOut: true }),
      );
    });
  });
}
