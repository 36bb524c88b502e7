import { abandonedClaimAfterMs } from '../../../shared/inbox/contact-use-cases';
import { ContactAlreadyExistsError, ContactNotFoundError } from '../../../shared/inbox/errors';
import { matchesContactFilter } from '../../../shared/inbox/inbox-entities';
import { createInboxTestKit } from './inbox-test-kit';

const ada = { organizationId: 'org_a', phoneNumber: '447700900001', name: 'Ada Lovelace' };

describe('creating contacts', () => {
  test('stores the normalized contact: trimmed name, lower-case e-mail, unique lower-case tags', async () => {
    const { services } = createInboxTestKit();
    const contact = await services.createContact({
      ...ada,
      name: '  Ada Lovelace ',
      email: ' Ada@Example.COM ',
      tags: ['VIP', 'vip', ' Newsletter '],
      attributes: { plan: 'gold', visits: 3, optedIn: true },
    });
    expect(contact).toEqual({
      contactId: 'ct_0001',
      organizationId: 'org_a',
      phoneNumber: '447700900001',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      tags: ['vip', 'newsletter'],
      attributes: { plan: 'gold', visits: 3, optedIn: true },
      createdAt: '2026-03-02T09:00:00.000Z',
      updatedAt: '2026-03-02T09:00:00.000Z',
    });
    expect(await services.getContact('org_a', 'ct_0001')).toEqual(contact);
  });

  test('a phone number is unique per organization (409 names the holder), but two organizations may share one', async () => {
    const { services } = createInboxTestKit();
    const first = await services.createContact(ada);
    await expect(services.createContact({ ...ada, name: 'Someone else' })).rejects.toEqual(new ContactAlreadyExistsError(ada.phoneNumber, first.contactId));
    await expect(services.createContact({ ...ada, organizationId: 'org_b' })).resolves.toMatchObject({ organizationId: 'org_b' });
  });

  test('a claim whose contact never got written (crash in between) blocks the number only until it is abandoned', async () => {
    const { services, repository, clock } = createInboxTestKit();
    repository.failOnce('insertContact');
    await expect(services.createContact(ada)).rejects.toThrow('insertContact crashed');
    // A concurrent create may still be under way: conflict.
    await expect(services.createContact(ada)).rejects.toBeInstanceOf(ContactAlreadyExistsError);
    clock.advanceBy(abandonedClaimAfterMs);
    const retried = await services.createContact(ada);
    expect(retried.contactId).toBe('ct_0003');
    expect(repository.phoneClaims.get('org_a#447700900001')?.contactId).toBe('ct_0003');
    await expect(services.createContact(ada)).rejects.toEqual(new ContactAlreadyExistsError(ada.phoneNumber, 'ct_0003'));
  });

  test('contacts of another organization are not found', async () => {
    const { services } = createInboxTestKit();
    const contact = await services.createContact(ada);
    await expect(services.getContact('org_b', contact.contactId)).rejects.toBeInstanceOf(ContactNotFoundError);
  });
});

describe('listing contacts', () => {
  test('pages newest first with the total; pages past the end are empty but keep the total', async () => {
    const { services, clock } = createInboxTestKit();
    for (let index = 1; index <= 5; index += 1) {
      await services.createContact({ organizationId: 'org_a', phoneNumber: `4477009000${index}0`, name: `Contact ${index}` });
      clock.advanceBy(1000);
    }
    const list = (page: number, pageSize: number) => services.listContacts({ organizationId: 'org_a', filter: {}, page, pageSize });
    expect(await list(1, 2)).toMatchObject({ page: 1, pageSize: 2, total: 5, items: [{ name: 'Contact 5' }, { name: 'Contact 4' }] });
    expect(await list(3, 2)).toMatchObject({ page: 3, total: 5, items: [{ name: 'Contact 1' }] });
    expect(await list(4, 2)).toMatchObject({ page: 4, total: 5, items: [] });
    expect(await services.listContacts({ organizationId: 'org_b', filter: {}, page: 1, pageSize: 20 })).toMatchObject({ total: 0, items: [] });
  });

  test('filters by tag (case-insensitive) and by search over name or number, with the matching total', async () => {
    const { services } = createInboxTestKit();
    await services.createContact({ organizationId: 'org_a', phoneNumber: '447700900001', name: 'Ada Lovelace', tags: ['vip'] });
    await services.createContact({ organizationId: 'org_a', phoneNumber: '15551230002', name: 'Grace Hopper', tags: ['vip', 'navy'] });
    await services.createContact({ organizationId: 'org_a', phoneNumber: '15551230003', name: 'Alan Turing' });
    const list = (filter: { tag?: string; search?: string }) =>
      services.listContacts({ organizationId: 'org_a', filter, page: 1, pageSize: 10 }).then((page) => [page.total, page.items.map((c) => c.name)]);
    expect(await list({ tag: 'VIP' })).toEqual([2, ['Grace Hopper', 'Ada Lovelace']]);
    expect(await list({ search: 'hopper' })).toEqual([1, ['Grace Hopper']]);
    expect(await list({ search: '+1 555 123' })).toEqual([2, ['Alan Turing', 'Grace Hopper']]);
    expect(await list({ search: 'a', tag: 'navy' })).toEqual([1, ['Grace Hopper']]);
    expect(await list({ search: 'nobody' })).toEqual([0, []]);
  });

  test('the filter definition: digits in a name-like search do not match numbers', () => {
    const contact = { name: 'Room 101', phoneNumber: '15551010101', tags: [] };
    expect(matchesContactFilter(contact, { search: 'room 1' })).toBe(true);
    expect(matchesContactFilter(contact, { search: '(555) 101' })).toBe(true);
    expect(matchesContactFilter({ ...contact, name: 'X' }, { search: 'x1' })).toBe(false);
  });
});
