/**
 * What every ContactPolicyStore and FrequencyCapStore does (docs/CAMPAIGNS.md "Frequency caps"), as
 * observed through the ports: run on the in-memory fakes (test/unit/contracts) and the DynamoDB
 * adapters on dynalite (test/integration/contracts). Each test uses its own organization.
 */
import type { ContactPolicyStore, FrequencyCapStore } from '../../../shared/send-rules/ports';

let sequence = 0;
const freshOrganization = () => `org_${process.pid}x${Date.now().toString(36)}x${(sequence += 1)}caps`;
const DAY = 86_400_000;
const start = Date.parse('2026-12-01T10:00:00.000Z');
const at = (days: number) => new Date(start + days * DAY);

export function describeContactPolicyStoreContract(name: string, makeStore: () => ContactPolicyStore | Promise<ContactPolicyStore>): void {
  describe(`ContactPolicyStore contract: ${name}`, () => {
    let store: ContactPolicyStore;
    beforeAll(async () => {
      store = await makeStore();
    });

    it('has none by default; a set policy reads back, is replaced whole, and is removed', async () => {
      const org = freshOrganization();
      await expect(store.policyOf(org)).resolves.toBeUndefined();
      const first = {
        marketingPerPerson: 2,
        perDays: 7,
        categories: ['MARKETING' as const, 'UTILITY' as const],
        updatedAt: at(0).toISOString(),
        updatedBy: 'admin',
      };
      await store.setPolicy(org, first);
      await expect(store.policyOf(org)).resolves.toEqual(first);
      await expect(store.policyOf(`${org}other`)).resolves.toBeUndefined();
      const second = { marketingPerPerson: 1, perDays: 30, updatedAt: at(1).toISOString() };
      await store.setPolicy(org, second);
      await expect(store.policyOf(org)).resolves.toEqual(second);
      await store.setPolicy(org, undefined);
      await expect(store.policyOf(org)).resolves.toBeUndefined();
      // Removing what is not there is no error.
      await store.setPolicy(org, undefined);
    });
  });
}

export function describeFrequencyCapStoreContract(name: string, makeStore: () => FrequencyCapStore | Promise<FrequencyCapStore>): void {
  describe(`FrequencyCapStore contract: ${name}`, () => {
    let store: FrequencyCapStore;
    let org: string;
    const week = { count: 2, perDays: 7 };
    beforeAll(async () => {
      store = await makeStore();
    });
    beforeEach(() => {
      org = freshOrganization();
    });

    it('counts up to the cap, then refuses until the oldest send leaves the window', async () => {
      await expect(store.reserve(org, '447700900123', { sendId: 'pub_a#0', at: at(0) }, week)).resolves.toEqual({ reserved: true });
      await expect(store.reserve(org, '447700900123', { sendId: 'pub_b#0', at: at(1) }, week)).resolves.toEqual({ reserved: true });
      await expect(store.reserve(org, '447700900123', { sendId: 'pub_c#0', at: at(2) }, week)).resolves.toEqual({ reserved: false, allowedAt: at(7) });
      // Another person and another organization have their own counts.
      await expect(store.reserve(org, '447700900999', { sendId: 'pub_c#1', at: at(2) }, week)).resolves.toEqual({ reserved: true });
      await expect(store.reserve(`${org}other`, '447700900123', { sendId: 'pub_c#0', at: at(2) }, week)).resolves.toEqual({ reserved: true });
      // Expiry is checked in code: at 7 days the first send has left the window (dynalite has no TTL).
      await expect(store.reserve(org, '447700900123', { sendId: 'pub_c#0', at: at(7) }, week)).resolves.toEqual({ reserved: true });
      await expect(store.reserve(org, '447700900123', { sendId: 'pub_d#0', at: at(7.5) }, week)).resolves.toEqual({ reserved: false, allowedAt: at(8) });
    });

    it('counts a repeat of the same send once', async () => {
      const one = { count: 1, perDays: 7 };
      await expect(store.reserve(org, 'US.13491208655302741918', { sendId: 'pub_a#3', at: at(0) }, one)).resolves.toEqual({ reserved: true });
      await expect(store.reserve(org, 'US.13491208655302741918', { sendId: 'pub_a#3', at: at(0.1) }, one)).resolves.toEqual({ reserved: true });
      await expect(store.reserve(org, 'US.13491208655302741918', { sendId: 'pub_b#3', at: at(0.2) }, one)).resolves.toEqual({
        reserved: false,
        allowedAt: at(7),
      });
    });

    it('a release gives the place back; releasing what is not counted changes nothing', async () => {
      const one = { count: 1, perDays: 7 };
      await store.release(org, '447700900123', 'pub_x#0');
      await expect(store.reserve(org, '447700900123', { sendId: 'pub_a#0', at: at(0) }, one)).resolves.toEqual({ reserved: true });
      await store.release(org, '447700900123', 'pub_other#0');
      await expect(store.reserve(org, '447700900123', { sendId: 'pub_b#0', at: at(1) }, one)).resolves.toMatchObject({ reserved: false });
      await store.release(org, '447700900123', 'pub_a#0');
      await expect(store.reserve(org, '447700900123', { sendId: 'pub_b#0', at: at(1) }, one)).resolves.toEqual({ reserved: true });
      await expect(store.reserve(org, '447700900123', { sendId: 'pub_c#0', at: at(1) }, one)).resolves.toEqual({ reserved: false, allowedAt: at(8) });
    });

    it('a cap lowered since: the place frees when enough sends have left the window', async () => {
      const three = { count: 3, perDays: 7 };
      for (const [index, day] of [0, 1, 2].entries()) await store.reserve(org, '447700900123', { sendId: `pub_${index}#0`, at: at(day) }, three);
      await expect(store.reserve(org, '447700900123', { sendId: 'pub_z#0', at: at(3) }, { count: 1, perDays: 7 })).resolves.toEqual({
        reserved: false,
        allowedAt: at(9),
      });
    });

    it('is exact under concurrency: 20 parallel reservations for one person with a cap of 2 take exactly 2', async () => {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, index) => store.reserve(org, '447700900123', { sendId: `pub_${index}#0`, at: at(0) }, week)),
      );
      expect(answers.filter((answer) => answer.reserved)).toHaveLength(2);
      expect(answers.filter((answer) => !answer.reserved)).toHaveLength(18);
      await expect(store.reserve(org, '447700900123', { sendId: 'pub_late#0', at: at(1) }, week)).resolves.toMatchObject({ reserved: false });
    });
  });
}
