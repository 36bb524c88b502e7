/**
 * What every AudienceStore does (saved audiences and their members), as observed through the port:
 * run on the in-memory fake (test/unit/contracts) and the DynamoDB adapter on dynalite
 * (test/integration/contracts). Each test uses its own organization.
 */
import type { Audience, AudienceMember } from '../../../shared/audiences/audience';
import type { AudienceStore, MemberUpsert } from '../../../shared/audiences/ports';

let sequence = 0;
const freshOrganization = () => `org_${process.pid}x${Date.now().toString(36)}x${(sequence += 1)}aud`;
const t1 = '2026-05-04T08:00:00.000Z';
const t2 = '2026-05-04T09:00:00.000Z';

const audienceOf = (organizationId: string, audienceId: string, name = 'VIP'): Audience => ({
  audienceId,
  organizationId,
  name,
  memberCount: 0,
  createdAt: t1,
  updatedAt: t1,
});

const phoneMember = (digits: string, extra: Partial<MemberUpsert> = {}): MemberUpsert => ({
  personKey: digits,
  to: digits,
  countryCode: digits.slice(0, 2),
  toPhoneNumber: digits.slice(2),
  attributes: { first_name: `P${digits.slice(-3)}` },
  tags: ['vip'],
  updatedAt: t1,
  ...extra,
});

export function describeAudienceStoreContract(name: string, makeStore: () => AudienceStore | Promise<AudienceStore>): void {
  describe(`AudienceStore contract: ${name}`, () => {
    let store: AudienceStore;
    let organizationId: string;
    beforeAll(async () => {
      store = await makeStore();
    });
    beforeEach(() => {
      organizationId = freshOrganization();
    });

    it('creates, reads and lists audiences newest first in pages, never another organization’s', async () => {
      for (const id of ['aud_01', 'aud_02', 'aud_03']) await store.createAudience(audienceOf(organizationId, id, `List ${id}`));
      await expect(store.getAudience(organizationId, 'aud_02')).resolves.toEqual(audienceOf(organizationId, 'aud_02', 'List aud_02'));
      await expect(store.getAudienceDetail(organizationId, 'aud_02')).resolves.toEqual({
        ...audienceOf(organizationId, 'aud_02', 'List aud_02'),
        byCountry: {},
      });
      const first = await store.listAudiences(organizationId, { limit: 2 });
      expect(first.audiences.map((audience) => audience.audienceId)).toEqual(['aud_03', 'aud_02']);
      expect(first.nextCursor).toBeDefined();
      const second = await store.listAudiences(organizationId, { limit: 2, cursor: first.nextCursor });
      expect(second).toEqual({ audiences: [audienceOf(organizationId, 'aud_01', 'List aud_01')] });
      await expect(store.getAudience(freshOrganization(), 'aud_02')).resolves.toBeUndefined();
      await expect(store.listAudiences(freshOrganization(), { limit: 5 })).resolves.toEqual({ audiences: [] });
    });

    it('upserts members by person key: counts only what was added, replaces the fields given, keeps the rest', async () => {
      await store.createAudience(audienceOf(organizationId, 'aud_1'));
      await expect(store.upsertMembers(organizationId, 'aud_1', [phoneMember('447700900001'), phoneMember('919876543210')])).resolves.toEqual({
        added: 2,
        updated: 0,
      });
      const again = await store.upsertMembers(organizationId, 'aud_1', [
        { ...phoneMember('447700900001', { updatedAt: t2 }), attributes: undefined, tags: ['new'] },
        phoneMember('447700900002'),
      ]);
      expect(again).toEqual({ added: 1, updated: 1 });
      const detail = await store.getAudienceDetail(organizationId, 'aud_1');
      expect(detail).toMatchObject({ memberCount: 3, byCountry: { '44': 2, '91': 1 } });
      const found = await store.membersAmong(organizationId, 'aud_1', ['447700900001', '000', '919876543210']);
      expect([...found.keys()].sort()).toEqual(['447700900001', '919876543210']);
      expect(found.get('447700900001')).toEqual<AudienceMember>({
        personKey: '447700900001',
        to: '447700900001',
        countryCode: '44',
        toPhoneNumber: '7700900001',
        attributes: { first_name: 'P001' },
        tags: ['new'],
        updatedAt: t2,
      });
    });

    it('a number learned from a pair fills a member without one and never replaces a number given', async () => {
      await store.createAudience(audienceOf(organizationId, 'aud_1'));
      await store.upsertMembers(organizationId, 'aud_1', [phoneMember('447700900001', { toPhoneNumber: '07700900001' })]);
      const fromPair: MemberUpsert = { ...phoneMember('447700900001'), userId: 'GB.1', numberFromPair: true, attributes: { city: 'Leeds' }, tags: undefined };
      await expect(
        store.upsertMembers(organizationId, 'aud_1', [fromPair, { ...fromPair, personKey: '447700900009', to: '447700900009', userId: 'GB.9' }]),
      ).resolves.toEqual({ added: 1, updated: 1 });
      const found = await store.membersAmong(organizationId, 'aud_1', ['447700900001', '447700900009']);
      expect(found.get('447700900001')).toMatchObject({ toPhoneNumber: '07700900001', userId: 'GB.1', attributes: { city: 'Leeds' }, tags: ['vip'] });
      expect(found.get('447700900009')).toMatchObject({ to: '447700900009', userId: 'GB.9', tags: [] });
    });

    it('removes by person key, counting only what it removed, and reads in person-key order in pages', async () => {
      await store.createAudience(audienceOf(organizationId, 'aud_1'));
      const digits = Array.from({ length: 7 }, (_, index) => `4477009000${String(index).padStart(2, '0')}`);
      await store.upsertMembers(
        organizationId,
        'aud_1',
        [...digits].reverse().map((each) => phoneMember(each)),
      );
      await expect(store.removeMembers(organizationId, 'aud_1', [digits[0]!, digits[0]!, '447700999999'])).resolves.toEqual({ removed: 1 });
      await expect(store.getAudienceDetail(organizationId, 'aud_1')).resolves.toMatchObject({ memberCount: 6, byCountry: { '44': 6 } });
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await store.readMembers(organizationId, 'aud_1', { limit: 3, cursor });
        seen.push(...page.members.map((member) => member.personKey));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== undefined);
      expect(seen).toEqual(digits.slice(1));
      expect(pages).toBe(2);
      await expect(store.readMembers(organizationId, 'aud_other', { limit: 3 })).resolves.toEqual({ members: [] });
    });

    it('a deleted audience is gone at once; its members are purged in pages, then the id is free of marks', async () => {
      await store.createAudience(audienceOf(organizationId, 'aud_1'));
      await store.createAudience(audienceOf(organizationId, 'aud_2'));
      await store.upsertMembers(
        organizationId,
        'aud_1',
        ['447700900001', '447700900002', '447700900003'].map((each) => phoneMember(each)),
      );
      await expect(store.purgeDeletedMembers(organizationId, 'aud_1', 10)).resolves.toBeUndefined();
      await expect(store.deleteAudience(organizationId, 'aud_1')).resolves.toBe(true);
      await expect(store.deleteAudience(organizationId, 'aud_1')).resolves.toBe(false);
      await expect(store.getAudience(organizationId, 'aud_1')).resolves.toBeUndefined();
      expect((await store.listAudiences(organizationId, { limit: 1 })).audiences.map((audience) => audience.audienceId)).toEqual(['aud_2']);
      await expect(store.purgeDeletedMembers(organizationId, 'aud_1', 2)).resolves.toEqual({ removed: 2, done: false });
      await expect(store.purgeDeletedMembers(organizationId, 'aud_1', 2)).resolves.toEqual({ removed: 1, done: true });
      await expect(store.purgeDeletedMembers(organizationId, 'aud_1', 2)).resolves.toBeUndefined();
      await expect(store.readMembers(organizationId, 'aud_1', { limit: 5 })).resolves.toEqual({ members: [] });
      await expect(store.deleteAudience(organizationId, 'aud_missing')).resolves.toBe(false);
    });

    it('keeps the count exact under concurrent upserts of the same people', async () => {
      await store.createAudience(audienceOf(organizationId, 'aud_1'));
      const people = Array.from({ length: 40 }, (_, index) => phoneMember(`9198765432${String(index).padStart(2, '0')}`));
      const results = await Promise.all([
        store.upsertMembers(organizationId, 'aud_1', people),
        store.upsertMembers(organizationId, 'aud_1', [...people].reverse()),
      ]);
      expect(results.reduce((sum, result) => sum + result.added, 0)).toBe(40);
      await expect(store.getAudienceDetail(organizationId, 'aud_1')).resolves.toMatchObject({ memberCount: 40, byCountry: { '91': 40 } });
    });
  });
}
