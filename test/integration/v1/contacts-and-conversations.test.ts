/** The generic v1 API through the local runtime: contacts, conversations, paging, filters, isolation. */
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { provisionV1Organization, type V1Organization } from './v1-test-kit';

const ID = /^ct_[0-9A-Z]{26}$/;
const CONVERSATION_ID = /^cv_[0-9A-Z]{26}$/;
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('generic v1 API: contacts and conversations', () => {
  let runtime: TestRuntime;
  let org: V1Organization;
  let other: V1Organization;

  const call = (method: string, path: string, auth: { authorization: string }, body?: unknown) => runtime.call(method, `/v1${path}`, { headers: auth, body });
  const createContact = (auth: { authorization: string }, body: Record<string, unknown>) => call('POST', '/contacts', auth, body);

  beforeAll(async () => {
    runtime = await startTestRuntime();
    org = await provisionV1Organization({ plan: 'enterprise', apiAddOn: false, senderCount: 2 });
    other = await provisionV1Organization({ plan: 'professional', apiAddOn: true, senderCount: 1 });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  describe('contacts', () => {
    it('an organization without contacts lists an empty first page', async () => {
      const response = await call('GET', '/contacts', org.auth);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, data: [], meta: { page: 1, pageSize: 20, total: 0 } });
    });

    it('creates a contact (201) and reads it back by id', async () => {
      const created = await createContact(org.auth, {
        phoneNumber: '447700900001',
        name: ' Ada Lovelace ',
        email: 'Ada@Example.com',
        tags: ['VIP', 'newsletter', 'vip'],
        attributes: { plan: 'gold', visits: 3, optedIn: true },
      });
      expect(created.status).toBe(201);
      expect(created.body).toEqual({
        success: true,
        data: {
          id: expect.stringMatching(ID),
          phoneNumber: '447700900001',
          name: 'Ada Lovelace',
          email: 'ada@example.com',
          tags: ['vip', 'newsletter'],
          attributes: { plan: 'gold', visits: 3, optedIn: true },
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
        },
        meta: { page: 1, total: 1 },
      });
      const read = await call('GET', `/contacts/${created.body.data.id}`, org.auth);
      expect(read).toMatchObject({ status: 200, body: { success: true, data: created.body.data } });
    });

    it('409 CONTACT_ALREADY_EXISTS for a phone number the organization already has; another organization may have it too', async () => {
      const existing = (await call('GET', '/contacts?search=447700900001', org.auth)).body.data[0];
      const duplicate = await createContact(org.auth, { phoneNumber: '447700900001', name: 'Someone else' });
      expect(duplicate.status).toBe(409);
      expect(duplicate.body).toEqual({
        success: false,
        error: { code: 'CONTACT_ALREADY_EXISTS', message: `A contact with phone number 447700900001 already exists: ${existing.id}` },
      });
      expect((await createContact(other.auth, { phoneNumber: '447700900001', name: 'Ada at Other' })).status).toBe(201);
    });

    it('400 VALIDATION_FAILED names the field and the rule', async () => {
      const cases: Array<[unknown, string]> = [
        [{ phoneNumber: '+44 7700 900002', name: 'x' }, 'phoneNumber must be 8 to 15 digits, country code included (no +, spaces or punctuation)'],
        [{ phoneNumber: '447700900002' }, 'name is required'],
        [{ phoneNumber: '447700900002', name: 'x', email: 'not-an-address' }, 'email must be an e-mail address'],
        [{ phoneNumber: '447700900002', name: 'x', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) }, 'tags must hold at most 20 tags'],
        [{ phoneNumber: '447700900002', name: 'x', attributes: { nested: { no: true } } }, 'attributes.nested must be a string, a number or a boolean'],
        [{ phoneNumber: '447700900002', name: 'x', tag: 'vip' }, 'tag is not a known field'],
        // Outside DynamoDB's number range: the table would refuse the write (it answered 500 before).
        [{ phoneNumber: '447700900002', name: 'x', attributes: { big: 1e200 } }, 'attributes.big must be 0 or of magnitude 1e-130 to 1e126'],
        [{ phoneNumber: '447700900002', name: 'x', attributes: { tiny: -1e-200 } }, 'attributes.tiny must be 0 or of magnitude 1e-130 to 1e126'],
      ];
      for (const [body, message] of cases) {
        const response = await createContact(org.auth, body as Record<string, unknown>);
        expect({ status: response.status, body: response.body }).toEqual({
          status: 400,
          body: { success: false, error: { code: 'VALIDATION_FAILED', message } },
        });
      }
      const malformed = await runtime.call('POST', '/v1/contacts', { headers: org.auth, rawBody: '{"name":' });
      expect(malformed.body).toEqual({ success: false, error: { code: 'MALFORMED_JSON', message: 'Request body is not valid JSON' } });
    });

    it('pages newest first with the total: full pages, the last page, pages past the end, and the pageSize bounds', async () => {
      const paged = await provisionV1Organization({ plan: 'enterprise', apiAddOn: false });
      for (let index = 1; index <= 5; index += 1) {
        expect((await createContact(paged.auth, { phoneNumber: `4420794600${index}0`, name: `Person ${index}` })).status).toBe(201);
      }
      const names = async (query: string) => {
        const response = await call('GET', `/contacts${query}`, paged.auth);
        expect(response.status).toBe(200);
        return { names: response.body.data.map((contact: { name: string }) => contact.name), meta: response.body.meta };
      };
      expect(await names('?pageSize=2')).toEqual({ names: ['Person 5', 'Person 4'], meta: { page: 1, pageSize: 2, total: 5 } });
      expect(await names('?pageSize=2&page=2')).toEqual({ names: ['Person 3', 'Person 2'], meta: { page: 2, pageSize: 2, total: 5 } });
      expect(await names('?pageSize=2&page=3')).toEqual({ names: ['Person 1'], meta: { page: 3, pageSize: 2, total: 5 } });
      expect(await names('?pageSize=2&page=4')).toEqual({ names: [], meta: { page: 4, pageSize: 2, total: 5 } });
      expect(await names('?pageSize=100')).toMatchObject({ meta: { page: 1, pageSize: 100, total: 5 } });
      for (const [query, message] of [
        ['?pageSize=101', 'pageSize must be at most 100'],
        ['?pageSize=0', 'pageSize must be a whole number from 1 to 100'],
        ['?page=0', 'page must be a whole number from 1 to 999999'],
        ['?page=two', 'page must be a whole number from 1 to 999999'],
      ]) {
        expect((await call('GET', `/contacts${query}`, paged.auth)).body).toEqual({ success: false, error: { code: 'VALIDATION_FAILED', message } });
      }
    });

    it('filters by tag and by search (name or number), totals counting the matches only', async () => {
      const filtered = await provisionV1Organization({ plan: 'enterprise', apiAddOn: false });
      await createContact(filtered.auth, { phoneNumber: '14155550101', name: 'Grace Hopper', tags: ['vip', 'navy'] });
      await createContact(filtered.auth, { phoneNumber: '14155550102', name: 'Alan Turing', tags: ['VIP'] });
      await createContact(filtered.auth, { phoneNumber: '442079460003', name: 'Ada Lovelace' });
      const list = async (query: string) => {
        const response = await call('GET', `/contacts${query}`, filtered.auth);
        return [response.body.meta.total, response.body.data.map((contact: { name: string }) => contact.name)];
      };
      expect(await list('?tag=vip')).toEqual([2, ['Alan Turing', 'Grace Hopper']]);
      expect(await list('?tag=Navy')).toEqual([1, ['Grace Hopper']]);
      expect(await list('?search=LOVE')).toEqual([1, ['Ada Lovelace']]);
      expect(await list(`?search=${encodeURIComponent('+1 415 555')}`)).toEqual([2, ['Alan Turing', 'Grace Hopper']]);
      expect(await list('?search=a&tag=vip&pageSize=1')).toEqual([2, ['Alan Turing']]);
      expect(await list('?search=a&tag=vip&pageSize=1&page=2')).toEqual([2, ['Grace Hopper']]);
      expect(await list('?tag=none')).toEqual([0, []]);
    });
  });

  describe('conversations', () => {
    let contactId: string;
    let secondContactId: string;

    beforeAll(async () => {
      contactId = (await createContact(org.auth, { phoneNumber: '491701234567', name: 'Konrad Zuse' })).body.data.id;
      secondContactId = (await createContact(org.auth, { phoneNumber: '491701234568', name: 'Lise Meitner' })).body.data.id;
    });

    it('opens a conversation (201), returns the open one again (200), and a second sender opens its own', async () => {
      const opened = await call('POST', '/conversations', org.auth, { contactId, senderPhoneNumber: org.senders[0] });
      expect(opened.status).toBe(201);
      expect(opened.body).toEqual({
        success: true,
        data: {
          id: expect.stringMatching(CONVERSATION_ID),
          contactId,
          senderPhoneNumber: org.senders[0],
          status: 'open',
          createdAt: expect.stringMatching(ISO),
          updatedAt: expect.stringMatching(ISO),
          closedAt: null,
          lastMessageAt: null,
          lastInboundAt: null,
        },
        meta: { page: 1, total: 1 },
      });
      const again = await call('POST', '/conversations', org.auth, { contactId, senderPhoneNumber: org.senders[0] });
      expect(again).toMatchObject({ status: 200, body: { data: opened.body.data } });
      const secondSender = await call('POST', '/conversations', org.auth, { contactId, senderPhoneNumber: org.senders[1] });
      expect(secondSender.status).toBe(201);
      expect(secondSender.body.data.id).not.toBe(opened.body.data.id);
      expect((await call('GET', `/conversations/${opened.body.data.id}`, org.auth)).body.data).toEqual(opened.body.data);
    });

    it('closes with PATCH; the next open is a new conversation; reopening the old one then conflicts (409)', async () => {
      const open = (await call('POST', '/conversations', org.auth, { contactId: secondContactId, senderPhoneNumber: org.senders[0] })).body.data;
      const closed = await call('PATCH', `/conversations/${open.id}`, org.auth, { status: 'closed' });
      expect(closed).toMatchObject({ status: 200, body: { success: true, data: { id: open.id, status: 'closed', closedAt: expect.stringMatching(ISO) } } });
      const reopenedElsewhere = await call('POST', '/conversations', org.auth, { contactId: secondContactId, senderPhoneNumber: org.senders[0] });
      expect(reopenedElsewhere.status).toBe(201);
      const conflict = await call('PATCH', `/conversations/${open.id}`, org.auth, { status: 'open' });
      expect(conflict).toMatchObject({
        status: 409,
        body: { success: false, error: { code: 'CONVERSATION_ALREADY_OPEN', message: expect.stringContaining(reopenedElsewhere.body.data.id) } },
      });
      await call('PATCH', `/conversations/${reopenedElsewhere.body.data.id}`, org.auth, { status: 'closed' });
      expect(await call('PATCH', `/conversations/${open.id}`, org.auth, { status: 'open' })).toMatchObject({
        status: 200,
        body: { data: { status: 'open', closedAt: null } },
      });
    });

    it('lists newest first with filters by status and contact, and their totals', async () => {
      const list = async (query: string) => {
        const response = await call('GET', `/conversations${query}`, org.auth);
        expect(response.status).toBe(200);
        return { total: response.body.meta.total, items: response.body.data as Array<{ id: string; contactId: string; status: string; createdAt: string }> };
      };
      const all = await list('');
      expect(all.total).toBe(4);
      expect(all.items.map((item) => item.createdAt)).toEqual([...all.items.map((item) => item.createdAt)].sort().reverse());
      const open = await list('?status=open');
      const closed = await list('?status=closed');
      expect([open.total, closed.total]).toEqual([3, 1]);
      expect(open.items.every((item) => item.status === 'open')).toBe(true);
      expect(closed.items.every((item) => item.status === 'closed')).toBe(true);
      const ofContact = await list(`?contactId=${secondContactId}`);
      expect(ofContact.total).toBe(2);
      expect(ofContact.items.every((item) => item.contactId === secondContactId)).toBe(true);
      expect((await list(`?contactId=${secondContactId}&status=closed`)).total).toBe(1);
      expect(await list('?pageSize=3&page=2')).toMatchObject({ total: 4, items: [all.items[3]] });
      expect(await list('?page=9')).toEqual({ total: 4, items: [] });
    });

    it('404 for senders and contacts that are not the organization’s', async () => {
      expect((await call('POST', '/conversations', org.auth, { contactId, senderPhoneNumber: other.senders[0] })).body).toEqual({
        success: false,
        error: { code: 'SENDER_NOT_FOUND', message: `Phone number ${other.senders[0]} is not a sender of this organization` },
      });
      expect(
        (await call('POST', '/conversations', org.auth, { contactId: 'ct_01ARZ3NDEKTSV4RRFFQ69G5FAV', senderPhoneNumber: org.senders[0] })).body.error.code,
      ).toBe('CONTACT_NOT_FOUND');
    });
  });

  describe('isolation between organizations', () => {
    it('no organization sees another’s contacts or conversations; their ids answer 404', async () => {
      const mine = (await call('GET', '/contacts?pageSize=100', org.auth)).body.data as Array<{ id: string; phoneNumber: string }>;
      const theirs = (await call('GET', '/contacts?pageSize=100', other.auth)).body.data as Array<{ id: string; phoneNumber: string }>;
      expect(theirs.map((contact) => contact.phoneNumber)).toEqual(['447700900001']);
      expect(mine.some((contact) => theirs.some((their) => their.id === contact.id))).toBe(false);

      const contact = mine[0]!;
      expect(await call('GET', `/contacts/${contact.id}`, other.auth)).toMatchObject({
        status: 404,
        body: { success: false, error: { code: 'CONTACT_NOT_FOUND', message: `Contact ${contact.id} does not exist` } },
      });
      expect((await call('GET', `/conversations?contactId=${contact.id}`, other.auth)).body.error.code).toBe('CONTACT_NOT_FOUND');
      expect((await call('POST', '/conversations', other.auth, { contactId: contact.id, senderPhoneNumber: other.senders[0] })).body.error.code).toBe(
        'CONTACT_NOT_FOUND',
      );

      const conversation = (await call('GET', '/conversations', org.auth)).body.data[0] as { id: string; status: string; updatedAt: string };
      expect((await call('GET', `/conversations/${conversation.id}`, other.auth)).body.error.code).toBe('CONVERSATION_NOT_FOUND');
      expect((await call('PATCH', `/conversations/${conversation.id}`, other.auth, { status: 'closed' })).status).toBe(404);
      expect((await call('GET', '/conversations', other.auth)).body).toEqual({ success: true, data: [], meta: { page: 1, pageSize: 20, total: 0 } });
      // The foreign PATCH changed nothing.
      expect((await call('GET', `/conversations/${conversation.id}`, org.auth)).body.data).toMatchObject({
        status: conversation.status,
        updatedAt: conversation.updatedAt,
      });
    });
  });
});
