/**
 * Saved audiences through the local runtime (docs/CAMPAIGNS.md "Audiences"): create, list, get and
 * delete; 10,000 members upserted in one request and retried with the same Idempotency-Key; invalid
 * rows listed and not stored; a BSUID paired with a number merging into that number's member;
 * CSV pages; the `contacts` audience reflecting v1 contacts; another organization's key answered 404.
 */
import { getServices } from '../../../functions/composition';
import { createCompositionContext } from '../../../functions/composition/composition-context';
import { dynamoDbClients } from '../../../functions/composition/dynamodb-clients';
import { inboxRepositorySection } from '../../../functions/composition/inbox.section';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

jest.setTimeout(120_000);

const BASE = '/prod/api/v2/broadcast/public';
let runtime: TestRuntime;

const call = (method: string, path: string, options: { body?: unknown; key?: string; headers?: Record<string, string> } = {}) =>
  runtime.call(method, `${BASE}${path}`, { headers: { 'x-api-key': options.key ?? runtime.demo.apiKey, ...options.headers }, body: options.body });

const create = async (name: string, key?: string): Promise<string> => {
  const response = await call('POST', '/audiences', { body: { name }, key });
  expect(response.status).toBe(201);
  return response.body.data.audienceId;
};

const phoneRow = (index: number, extra: Record<string, unknown> = {}) => ({ countryCode: '91', toPhoneNumber: String(9_000_000_000 + index), ...extra });

beforeAll(async () => {
  runtime = await startTestRuntime();
}, 60_000);
afterAll(async () => runtime?.close());

describe('audiences', () => {
  it('creates, lists (contacts first), reads and deletes an audience', async () => {
    const created = await call('POST', '/audiences', { body: { name: ' VIP customers ' } });
    expect(created.status).toBe(201);
    expect(created.body.data).toEqual({ audienceId: expect.stringMatching(/^aud_/), name: 'VIP customers', memberCount: 0, createdAt: expect.any(String) });
    const audienceId = created.body.data.audienceId as string;
    const second = await create('Second');

    const listed = await call('GET', '/audiences?limit=2');
    expect(listed.status).toBe(200);
    expect(listed.body.data.audiences.map((audience: { audienceId: string }) => audience.audienceId)).toEqual(['contacts', second]);
    const next = await call('GET', `/audiences?limit=50&cursor=${listed.body.data.nextCursor}`);
    expect(next.body.data.audiences.map((audience: { audienceId: string }) => audience.audienceId)).toContain(audienceId);

    const read = await call('GET', `/audiences/${audienceId}`);
    expect(read.body.data).toMatchObject({ audienceId, name: 'VIP customers', memberCount: 0, optedOutCount: 0, byCountry: {} });

    expect((await call('POST', `/audiences/${audienceId}/members`, { body: { members: [phoneRow(1), phoneRow(2)] } })).body.data).toMatchObject({ added: 2 });
    const deleted = await call('DELETE', `/audiences/${audienceId}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body.data).toEqual({ audienceId, deleted: true });
    expect((await call('GET', `/audiences/${audienceId}`)).status).toBe(404);
    expect((await call('POST', `/audiences/${audienceId}/members`, { body: { members: [phoneRow(3)] } })).status).toBe(404);
    expect((await call('DELETE', `/audiences/${audienceId}`)).status).toBe(404);
    const contacts = await call('DELETE', '/audiences/contacts');
    expect(contacts.status).toBe(409);
    expect(contacts.body.data.error.code).toBe('CONTACTS_AUDIENCE_READ_ONLY');
  });

  it('upserts 10,000 members in one request; a retry with the same Idempotency-Key changes nothing', async () => {
    const audienceId = await create('Ten thousand');
    const members = Array.from({ length: 10_000 }, (_, index) => phoneRow(index, { attributes: { first_name: `P${index}` }, tags: ['Import'] }));
    const headers = { 'idempotency-key': `import-${audienceId}` };
    const started = Date.now();
    const first = await call('POST', `/audiences/${audienceId}/members`, { body: { members }, headers });
    const elapsed = Date.now() - started;
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual({ added: 10_000, updated: 0, invalid: [] });
    const retry = await call('POST', `/audiences/${audienceId}/members`, { body: { members }, headers });
    expect(retry.body.data).toEqual({ added: 10_000, updated: 0, invalid: [] });
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    const reused = await call('POST', `/audiences/${audienceId}/members`, { body: { members: members.slice(0, 1) }, headers });
    expect([reused.status, reused.body.data.error.code]).toEqual([422, 'IDEMPOTENCY_KEY_REUSED']);
    const read = await call('GET', `/audiences/${audienceId}`);
    expect(read.body.data).toMatchObject({ memberCount: 10_000, byCountry: { '91': 10_000 } });
    // Without the key the same rows are updates, counted once each.
    expect((await call('POST', `/audiences/${audienceId}/members`, { body: { members: members.slice(0, 3) } })).body.data).toEqual({
      added: 0,
      updated: 3,
      invalid: [],
    });
    console.info(`10,000 members upserted in one request: ${elapsed} ms`);
  });

  it('lists invalid rows with index, field and rule and stores nothing for them; the same person twice counts once', async () => {
    const audienceId = await create('Invalid rows');
    const rows = [
      phoneRow(1, { tags: ['VIP', 'vip'] }),
      { countryCode: '91', toPhoneNumber: '12' },
      { userId: 'not-a-bsuid' },
      phoneRow(2, { attributes: { 'bad name': 'x' } }),
      phoneRow(3, { attributes: { city: 'x'.repeat(1025) } }),
      { toPhoneNumber: '9000000004' },
      phoneRow(1, { attributes: { city: 'Pune' } }),
      phoneRow(5, { phone: '1' }),
    ];
    const response = await call('POST', `/audiences/${audienceId}/members`, { body: { members: rows } });
    expect(response.status).toBe(200);
    expect(response.body.data.added).toBe(1);
    expect(response.body.data.updated).toBe(0);
    expect(response.body.data.invalid).toEqual([
      { index: 1, field: 'toPhoneNumber', rule: 'must have at least 4 digits' },
      { index: 2, field: 'userId', rule: expect.stringContaining('must be a business-scoped user id') },
      { index: 3, field: 'attributes.bad name', rule: expect.stringContaining('names must be') },
      { index: 4, field: 'attributes.city', rule: 'must be at most 1024 characters' },
      { index: 5, field: 'countryCode', rule: 'is required with toPhoneNumber' },
      { index: 7, field: 'phone', rule: 'is not a known field' },
    ]);
    const members = (await call('GET', `/audiences/${audienceId}/members`)).body.data.members;
    // The last row of the person wins: its attributes, and the tags it did not give kept from nowhere (absent: empty).
    expect(members).toEqual([{ countryCode: '91', toPhoneNumber: '9000000001', attributes: { city: 'Pune' }, tags: [], updatedAt: expect.any(String) }]);
    const tooMany = await call('POST', `/audiences/${audienceId}/members`, {
      body: { members: Array.from({ length: 10_001 }, (_, index) => phoneRow(index)) },
    });
    expect(tooMany.status).toBe(400);
  });

  it('merges a BSUID the contact book pairs with a number into that number’s member, keeping the BSUID', async () => {
    const audienceId = await create('Pairs');
    const { organizationId } = runtime.demo;
    const inbox = inboxRepositorySection(createCompositionContext(getServices().config), dynamoDbClients(createCompositionContext(getServices().config)))();
    await inbox.recordPair(organizationId, { phoneNumber: '447700900123', userId: 'GB.77001', at: '2026-05-04T08:00:00.000Z' });
    await call('POST', `/audiences/${audienceId}/members`, {
      body: { members: [{ countryCode: '44', toPhoneNumber: '07700900123', attributes: { first_name: 'Ada' }, tags: ['vip'] }] },
    });
    const merged = await call('POST', `/audiences/${audienceId}/members`, {
      body: { members: [{ userId: 'GB.77001', attributes: { first_name: 'Ada L.' } }, { userId: 'GB.77002' }] },
    });
    expect(merged.body.data).toEqual({ added: 1, updated: 1, invalid: [] });
    const members = (await call('GET', `/audiences/${audienceId}/members`)).body.data.members;
    expect(members).toEqual([
      {
        countryCode: '44',
        toPhoneNumber: '07700900123',
        userId: 'GB.77001',
        attributes: { first_name: 'Ada L.' },
        tags: ['vip'],
        updatedAt: expect.any(String),
      },
      { countryCode: '', toPhoneNumber: '', userId: 'GB.77002', attributes: {}, tags: [], updatedAt: expect.any(String) },
    ]);
    const removed = await call('DELETE', `/audiences/${audienceId}/members`, {
      body: { members: [{ userId: 'GB.77001' }, { countryCode: '44', toPhoneNumber: '7700900999' }] },
    });
    expect(removed.body.data).toEqual({ removed: 1, invalid: [] });
    expect((await call('GET', `/audiences/${audienceId}`)).body.data).toMatchObject({ memberCount: 1, byCountry: { '44': 1 } });
  });

  it('pages members as CSV with the next cursor in X-Next-Cursor, and counts opted-out members', async () => {
    const audienceId = await create('CSV');
    const rows = Array.from({ length: 5 }, (_, index) =>
      phoneRow(100 + index, { attributes: { city: index === 0 ? 'Pune, MH' : 'Delhi', n: index }, tags: ['a', 'b'] }),
    );
    await call('POST', `/audiences/${audienceId}/members`, { body: { members: rows } });
    const v1 = (body: unknown) => runtime.call('POST', '/v1/opt-outs', { headers: { authorization: `Bearer ${runtime.demo.v1ApiKey}` }, body });
    expect((await v1({ phoneNumber: '919000000101' })).status).toBeLessThan(300);
    const lines: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await call('GET', `/audiences/${audienceId}/members?format=csv&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
      const [header, ...body] = String(response.body).trim().split('\r\n');
      expect(header).toBe('countryCode,toPhoneNumber,userId,tags,city,n');
      lines.push(...body);
      cursor = response.headers.get('x-next-cursor');
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(lines).toEqual([
      '91,9000000100,,a|b,"Pune, MH",0',
      '91,9000000101,,a|b,Delhi,1',
      '91,9000000102,,a|b,Delhi,2',
      '91,9000000103,,a|b,Delhi,3',
      '91,9000000104,,a|b,Delhi,4',
    ]);
    expect((await call('GET', `/audiences/${audienceId}`)).body.data).toMatchObject({ memberCount: 5, optedOutCount: 1 });
    expect((await call('GET', `/audiences/${audienceId}/members?cursor=${Buffer.from('{"a":"aud_x","k":"1"}').toString('base64url')}`)).status).toBe(400);
  });

  it('the contacts audience reflects v1 contacts with their tags and attributes and is read-only', async () => {
    const v1 = (body: unknown) => runtime.call('POST', '/v1/contacts', { headers: { authorization: `Bearer ${runtime.demo.v1ApiKey}` }, body });
    expect((await v1({ phoneNumber: '447700900888', name: 'Grace', email: 'grace@example.com', tags: ['VIP'], attributes: { city: 'Leeds' } })).status).toBe(
      201,
    );
    const read = await call('GET', '/audiences/contacts');
    expect(read.status).toBe(200);
    expect(read.body.data.memberCount).toBeGreaterThanOrEqual(1);
    expect(read.body.data.byCountry['44']).toBeGreaterThanOrEqual(1);
    const members: Array<Record<string, unknown>> = [];
    let cursor: string | null = null;
    do {
      const page = await call('GET', `/audiences/contacts/members?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
      members.push(...page.body.data.members);
      cursor = page.body.data.nextCursor;
    } while (cursor);
    expect(members).toContainEqual({
      countryCode: '44',
      toPhoneNumber: '7700900888',
      attributes: { city: 'Leeds', name: 'Grace', email: 'grace@example.com' },
      tags: ['vip'],
      updatedAt: expect.any(String),
    });
    const write = await call('POST', '/audiences/contacts/members', { body: { members: [phoneRow(1)] } });
    expect(write.status).toBe(409);
    expect(write.body.data.error.message).toContain('/v1/contacts');
  });

  it('answers another organization’s key 404 on every audience route, changing nothing', async () => {
    const audienceId = await create('Ours');
    await call('POST', `/audiences/${audienceId}/members`, { body: { members: [phoneRow(1)] } });
    const key = runtime.demo.otherOrg.apiKey;
    const answers = [
      await call('GET', `/audiences/${audienceId}`, { key }),
      await call('GET', `/audiences/${audienceId}/members`, { key }),
      await call('GET', `/audiences/${audienceId}/members?format=csv`, { key }),
      await call('POST', `/audiences/${audienceId}/members`, { key, body: { members: [phoneRow(2)] } }),
      await call('DELETE', `/audiences/${audienceId}/members`, { key, body: { members: [phoneRow(1)] } }),
      await call('DELETE', `/audiences/${audienceId}`, { key }),
    ];
    expect(answers.map((answer) => [answer.status, answer.body.data?.error?.code])).toEqual(Array(6).fill([404, 'AUDIENCE_NOT_FOUND']));
    expect((await call('GET', '/audiences', { key })).body.data.audiences.map((audience: { audienceId: string }) => audience.audienceId)).not.toContain(
      audienceId,
    );
    expect((await call('GET', `/audiences/${audienceId}`)).body.data).toMatchObject({ memberCount: 1 });
  });
});
