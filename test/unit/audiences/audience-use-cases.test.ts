import type { AudiencePorts } from '../../../shared/audiences/audience-use-cases';
import { createAudience, deleteAudience, getAudience, listAudiences, PURGE_MEMBERS_PER_REQUEST } from '../../../shared/audiences/audience-use-cases';
import {
  AudienceNotFoundError,
  AudienceOutsideKeyScopeError,
  ContactsAudienceReadOnlyError,
  InvalidAudienceCursorError,
} from '../../../shared/audiences/errors';
import { listMembers, membersCsv, removeMembers, upsertMembers } from '../../../shared/audiences/member-use-cases';
import { AudienceMemberSource } from '../../../shared/module-bridges/audience-member-source';
import { fixedClock } from '../../../shared/ports/clock';
import { sequentialIdGenerator } from '../../../shared/ports/id-generator';
import { InMemoryAudienceStore } from '../../support/in-memory-audience-store';
import { InMemoryContactBook } from '../../support/in-memory-contact-book';
import { InMemoryInboxRepository } from '../../support/in-memory-inbox-repository';
import { InMemoryOptOutRepository } from '../../support/in-memory-opt-out-repository';

const caller = { organizationId: 'org_1' };
const other = { organizationId: 'org_2' };

/** An idempotency guard in memory: the first answer per key, replayed for the same payload. */
function memoryGuard() {
  const stored = new Map<string, { hash: string; result: object }>();
  return {
    runs: 0,
    async run<T extends object>(key: string, payloadHash: string, work: () => Promise<T>): Promise<T> {
      const earlier = stored.get(key);
      if (earlier) {
        if (earlier.hash !== payloadHash) throw new Error('reused with another payload');
        return earlier.result as T;
      }
      this.runs += 1;
      const result = await work();
      stored.set(key, { hash: payloadHash, result });
      return result;
    },
  };
}

function setUp() {
  const audiences = new InMemoryAudienceStore();
  const inbox = new InMemoryInboxRepository();
  const contactBook = new InMemoryContactBook();
  const optOuts = new InMemoryOptOutRepository();
  const clock = fixedClock('2026-05-04T08:00:00.000Z');
  const ports: AudiencePorts = {
    audiences,
    members: new AudienceMemberSource({ audiences, inbox, contactBook, clock }),
    optOutKeys: optOuts,
    contactBook,
    idempotency: memoryGuard(),
    clock,
    ids: sequentialIdGenerator(),
  };
  return { ports, audiences, contactBook, optOuts, inbox };
}

const row = (digits: string, extra: Record<string, unknown> = {}) => ({ countryCode: digits.slice(0, 2), toPhoneNumber: digits.slice(2), ...extra });

describe('audience use cases', () => {
  it('creates audiences and lists contacts first, then the saved ones newest first, in pages', async () => {
    const { ports } = setUp();
    const first = await createAudience(ports, caller, { name: 'One' });
    expect(first).toEqual({ audienceId: 'aud_0001', name: 'One', memberCount: 0, createdAt: '2026-05-04T08:00:00.000Z' });
    await createAudience(ports, caller, { name: 'Two' });
    await createAudience(ports, other, { name: 'Theirs' });
    const page1 = await listAudiences(ports, caller, { limit: 1 });
    expect(page1.audiences.map((audience) => audience.audienceId)).toEqual(['contacts']);
    const page2 = await listAudiences(ports, caller, { limit: 1, cursor: page1.nextCursor! });
    expect(page2.audiences.map((audience) => audience.audienceId)).toEqual(['aud_0002']);
    const page3 = await listAudiences(ports, caller, { limit: 5, cursor: page2.nextCursor! });
    expect(page3).toEqual({ audiences: [expect.objectContaining({ audienceId: 'aud_0001' })], nextCursor: null });
    await expect(listAudiences(ports, caller, { limit: 5, cursor: 'bm90LWEtY3Vyc29y' })).rejects.toThrow(InvalidAudienceCursorError);
    expect(await listAudiences(ports, { organizationId: 'org_3' }, { limit: 1 })).toEqual({
      audiences: [expect.objectContaining({ audienceId: 'contacts', memberCount: 0 })],
      nextCursor: null,
    });
  });

  it('upserts by person: invalid rows listed and not stored, tags lower-cased and unique, the last row of a person wins', async () => {
    const { ports, audiences } = setUp();
    const { audienceId } = await createAudience(ports, caller, { name: 'VIP' });
    const result = await upsertMembers(
      ports,
      caller,
      audienceId,
      [
        row('919876543210', { tags: ['VIP', 'vip', 'New'] }),
        row('91987', { toPhoneNumber: '1' }),
        { countryCode: '971', toPhoneNumber: '12345678901234' },
        row('447700900001', { attributes: { n: 1e200 } }),
        row('919876543210', { attributes: { city: 'Pune' } }),
        'not a row',
      ],
      {},
    );
    expect(result).toEqual({
      added: 1,
      updated: 0,
      invalid: [
        { index: 1, field: 'toPhoneNumber', rule: 'must have at least 4 digits' },
        { index: 2, field: 'toPhoneNumber', rule: 'countryCode and toPhoneNumber together must have at most 15 digits' },
        { index: 3, field: 'attributes.n', rule: 'must be 0 or of magnitude 1e-130 to 1e126' },
        { index: 5, field: 'row', rule: expect.stringContaining('must be object') },
      ],
    });
    const [member] = (await audiences.readMembers('org_1', audienceId, { limit: 5 })).members;
    expect(member).toMatchObject({ personKey: '919876543210', attributes: { city: 'Pune' }, tags: [] });
    await upsertMembers(ports, caller, audienceId, [row('919876543210', { tags: ['VIP', 'vip', 'New'] })], {});
    expect((await audiences.readMembers('org_1', audienceId, { limit: 5 })).members[0]).toMatchObject({ attributes: { city: 'Pune' }, tags: ['vip', 'new'] });
  });

  it('keys a Mexican mobile’s two forms as one person, and a paired BSUID as its number', async () => {
    const { ports, contactBook } = setUp();
    const { audienceId } = await createAudience(ports, caller, { name: 'MX' });
    await contactBook.recordPair('org_1', { phoneNumber: '5215511112222', userId: 'MX.1', at: 'T' });
    const result = await upsertMembers(
      ports,
      caller,
      audienceId,
      [row('5215511112222'), { countryCode: '52', toPhoneNumber: '5511112222' }, { userId: 'MX.1' }, { userId: 'MX.2' }],
      {},
    );
    expect(result).toEqual({ added: 2, updated: 0, invalid: [] });
    const { members } = await listMembers(ports, caller, audienceId, { limit: 10 });
    expect(members).toEqual([
      // The person's last row (the BSUID) wins; its number is the pair's, in the form Meta showed it.
      { countryCode: '52', toPhoneNumber: '15511112222', userId: 'MX.1', attributes: {}, tags: [], updatedAt: '2026-05-04T08:00:00.000Z' },
      { countryCode: '', toPhoneNumber: '', userId: 'MX.2', attributes: {}, tags: [], updatedAt: '2026-05-04T08:00:00.000Z' },
    ]);
  });

  it('replays an Idempotency-Key’s first answer without writing again', async () => {
    const { ports, audiences } = setUp();
    const { audienceId } = await createAudience(ports, caller, { name: 'Keyed' });
    const rows = [row('919876543210'), row('919876543211')];
    expect(await upsertMembers(ports, caller, audienceId, rows, { idempotencyKey: 'k1' })).toEqual({ added: 2, updated: 0, invalid: [] });
    const writes = audiences.memberWrites;
    expect(await upsertMembers(ports, caller, audienceId, rows, { idempotencyKey: 'k1' })).toEqual({ added: 2, updated: 0, invalid: [], replayed: true });
    expect(audiences.memberWrites).toBe(writes);
  });

  it('counts members by calling code and those on the opt-out list', async () => {
    const { ports, optOuts } = setUp();
    const { audienceId } = await createAudience(ports, caller, { name: 'Counts' });
    await upsertMembers(ports, caller, audienceId, [row('919876543210'), row('919876543211'), row('447700900001'), { userId: 'US.123' }], {});
    optOuts.seed('org_1', { phoneNumber: '919876543211', source: 'api', createdAt: 'T' });
    optOuts.seed('org_1', { phoneNumber: '919999999999', source: 'api', createdAt: 'T' });
    optOuts.seed('org_2', { phoneNumber: '919876543210', source: 'api', createdAt: 'T' });
    expect(await getAudience(ports, caller, audienceId)).toMatchObject({ memberCount: 4, optedOutCount: 1, byCountry: { '91': 2, '44': 1, '1': 1 } });
    await expect(getAudience(ports, other, audienceId)).rejects.toThrow(AudienceNotFoundError);
  });

  it('removes by person; contacts is read-only; a generate-key key may not touch audiences', async () => {
    const { ports } = setUp();
    const { audienceId } = await createAudience(ports, caller, { name: 'Remove' });
    await upsertMembers(ports, caller, audienceId, [row('919876543210'), row('919876543211')], {});
    expect(await removeMembers(ports, caller, audienceId, [row('919876543210'), row('919876543299'), { userId: 'bad' }])).toEqual({
      removed: 1,
      invalid: [{ index: 2, field: 'userId', rule: expect.stringContaining('business-scoped user id') }],
    });
    await expect(upsertMembers(ports, caller, 'contacts', [row('919876543210')], {})).rejects.toThrow(ContactsAudienceReadOnlyError);
    await expect(removeMembers(ports, caller, 'contacts', [row('919876543210')])).rejects.toThrow(ContactsAudienceReadOnlyError);
    await expect(deleteAudience(ports, caller, 'contacts')).rejects.toThrow(ContactsAudienceReadOnlyError);
    const minted = { organizationId: 'org_1', scope: { kind: 'earlier-sender' as const, phoneNumber: '15550001111' } };
    await expect(listAudiences(ports, minted as never, { limit: 5 })).rejects.toThrow(AudienceOutsideKeyScopeError);
  });

  it('deletes at once and purges members in pages; a second DELETE continues, then the id is unknown', async () => {
    const { ports, audiences } = setUp();
    const { audienceId } = await createAudience(ports, caller, { name: 'Big' });
    const rows = Array.from({ length: PURGE_MEMBERS_PER_REQUEST + 5 }, (_, index) => ({ countryCode: '91', toPhoneNumber: String(9_000_000_000 + index) }));
    for (let start = 0; start < rows.length; start += 10_000) await upsertMembers(ports, caller, audienceId, rows.slice(start, start + 10_000), {});
    expect(await deleteAudience(ports, caller, audienceId)).toEqual({ audienceId, deleted: true, membersRemaining: true });
    await expect(getAudience(ports, caller, audienceId)).rejects.toThrow(AudienceNotFoundError);
    await expect(upsertMembers(ports, caller, audienceId, [row('919876543210')], {})).rejects.toThrow(AudienceNotFoundError);
    expect(await deleteAudience(ports, caller, audienceId)).toEqual({ audienceId, deleted: true, membersRemaining: false });
    expect(audiences.audiences.size).toBe(0);
    await expect(deleteAudience(ports, caller, audienceId)).rejects.toThrow(AudienceNotFoundError);
  });

  it('writes a page of members as CSV: attribute columns of the page sorted, tags joined by |, formulas kept as text', () => {
    const csv = membersCsv([
      { countryCode: '91', toPhoneNumber: '9876543210', attributes: { city: 'Pune, MH', vip: true }, tags: ['a', 'b'], updatedAt: 'T' },
      { countryCode: '', toPhoneNumber: '', userId: 'US.1', attributes: { age: 40, city: '=cmd' }, tags: [], updatedAt: 'T' },
    ]);
    expect(csv).toBe('countryCode,toPhoneNumber,userId,tags,age,city,vip\r\n91,9876543210,,a|b,,"Pune, MH",true\r\n,,US.1,,40,\'=cmd,\r\n');
  });
});
