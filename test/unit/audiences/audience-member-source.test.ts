import { CONTACTS_AUDIENCE_ID } from '../../../shared/audiences/audience';
import type { Contact } from '../../../shared/inbox/inbox-entities';
import { AudienceMemberSource } from '../../../shared/module-bridges/audience-member-source';
import { fixedClock } from '../../../shared/ports/clock';
import { InMemoryAudienceStore } from '../../support/in-memory-audience-store';
import { InMemoryContactBook } from '../../support/in-memory-contact-book';
import { InMemoryInboxRepository } from '../../support/in-memory-inbox-repository';

const org = 'org_1';
const at = '2026-05-04T08:00:00.000Z';

const contact = (contactId: string, overrides: Partial<Contact>): Contact => ({
  contactId,
  organizationId: org,
  phoneNumber: null,
  name: '',
  tags: [],
  attributes: {},
  createdAt: at,
  updatedAt: at,
  ...overrides,
});

async function setUp() {
  const inbox = new InMemoryInboxRepository();
  const contactBook = new InMemoryContactBook();
  const audiences = new InMemoryAudienceStore();
  const add = async (each: Contact) => {
    await inbox.insertContact(each);
    for (const key of [each.phoneNumber, each.userId]) {
      if (key) await inbox.claimContactPhoneNumber({ organizationId: org, phoneNumber: key, contactId: each.contactId, claimedAt: at });
    }
  };
  await add(
    contact('ct_1', { phoneNumber: '447700900001', name: 'Ada', email: 'ada@example.com', tags: ['vip'], attributes: { city: 'Leeds', name: 'Ada L.' } }),
  );
  await add(contact('ct_2', { userId: 'GB.2' }));
  await add(contact('ct_3', { userId: 'GB.3' }));
  await add(contact('ct_4', { phoneNumber: '5215511112222' }));
  await contactBook.recordPair(org, { phoneNumber: '447700900003', userId: 'GB.3', at });
  const source = new AudienceMemberSource({ audiences, inbox, contactBook, clock: fixedClock('2026-05-05T00:00:00.000Z') });
  return { source, audiences };
}

describe('AudienceMemberSource: the contacts audience', () => {
  it('describes contacts as an audience counted by the inbox', async () => {
    const { source } = await setUp();
    await expect(source.describeAudience(org, CONTACTS_AUDIENCE_ID)).resolves.toEqual({
      audienceId: 'contacts',
      organizationId: org,
      name: 'contacts',
      memberCount: 4,
      createdAt: at,
      updatedAt: '2026-05-05T00:00:00.000Z',
    });
  });

  it('reads v1 contacts page by page with their tags and attributes, name and email added unless named already, BSUIDs keyed by their pair', async () => {
    const { source } = await setUp();
    const first = await source.readMembers(org, CONTACTS_AUDIENCE_ID, { limit: 3 });
    expect(first.nextCursor).toBeDefined();
    const second = await source.readMembers(org, CONTACTS_AUDIENCE_ID, { limit: 3, cursor: first.nextCursor });
    expect(second.nextCursor).toBeUndefined();
    const [ada, bsuidOnly, paired, mexican] = [...first.members, ...second.members];
    expect(ada).toEqual({
      personKey: '447700900001',
      to: '447700900001',
      countryCode: '44',
      toPhoneNumber: '7700900001',
      attributes: { city: 'Leeds', name: 'Ada L.', email: 'ada@example.com' },
      tags: ['vip'],
      updatedAt: at,
    });
    expect(bsuidOnly).toMatchObject({ personKey: 'GB.2', to: 'GB.2', countryCode: '', toPhoneNumber: '', userId: 'GB.2' });
    expect(paired).toMatchObject({ personKey: '447700900003', to: '447700900003', countryCode: '44', userId: 'GB.3' });
    expect(mexican).toMatchObject({ personKey: '525511112222', to: '5215511112222' });
  });

  it('answers which person keys are contacts: any form of a number, a BSUID, a number paired with a BSUID-only contact', async () => {
    const { source } = await setUp();
    const keys = ['447700900001', 'GB.2', '447700900003', '525511112222', '447700900099', 'GB.9'];
    await expect(source.membersAmong(org, CONTACTS_AUDIENCE_ID, keys)).resolves.toEqual(new Set(['447700900001', 'GB.2', '447700900003', '525511112222']));
    await expect(source.membersAmong('org_other', CONTACTS_AUDIENCE_ID, keys)).resolves.toEqual(new Set());
  });

  it('answers saved audiences from the audience store', async () => {
    const { source, audiences } = await setUp();
    await audiences.createAudience({ audienceId: 'aud_1', organizationId: org, name: 'VIP', memberCount: 0, createdAt: at, updatedAt: at });
    await audiences.upsertMembers(org, 'aud_1', [
      { personKey: '447700900001', to: '447700900001', countryCode: '44', toPhoneNumber: '7700900001', updatedAt: at },
    ]);
    await expect(source.describeAudience(org, 'aud_1')).resolves.toMatchObject({ memberCount: 1 });
    expect((await source.readMembers(org, 'aud_1', { limit: 5 })).members.map((member) => member.personKey)).toEqual(['447700900001']);
    await expect(source.membersAmong(org, 'aud_1', ['447700900001', 'GB.2'])).resolves.toEqual(new Set(['447700900001']));
    await expect(source.describeAudience('org_other', 'aud_1')).resolves.toBeUndefined();
  });
});
