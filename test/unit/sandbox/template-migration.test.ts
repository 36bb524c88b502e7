/** POST /{dest-waba-id}/migrate_message_templates: same-business rule, paging, clashes. */
import type { SandboxBusinessAccount, SandboxTemplate } from '../../../sandbox/cloud-api-sandbox';
import { useSandbox, startSandboxClient } from '../../support/use-sandbox';
import { OTHER_TOKEN, WABA_ID, accountA, accountB, expectGraphError } from './sandbox-test-helpers';

const SOURCE = '6000001';
const SOURCE_TOKEN = 'token-source';
const DESTINATION = '6000002';
const DESTINATION_TOKEN = 'token-destination';
const BUSINESS = '6000000';

function template(id: number, name: string, status: SandboxTemplate['status'] = 'APPROVED', language = 'en_US'): SandboxTemplate {
  return { id: String(id), name, language, category: 'UTILITY', status, components: [{ type: 'BODY', text: `Message ${name} {{1}}` }] };
}

function source(): SandboxBusinessAccount {
  return {
    wabaId: SOURCE,
    businessId: BUSINESS,
    name: 'Old BSP WABA',
    accessToken: SOURCE_TOKEN,
    phoneNumbers: [],
    // Seven approved (ids out of order, to show paging is by id), one pending, one rejected.
    templates: [
      template(6100007, 'seventh'),
      template(6100001, 'first'),
      template(6100002, 'second'),
      template(6100003, 'third'),
      template(6100004, 'fourth'),
      template(6100005, 'fifth'),
      template(6100006, 'sixth'),
      template(6100008, 'not_yet', 'PENDING'),
      template(6100009, 'refused', 'REJECTED'),
    ],
  };
}

function destination(templates: SandboxTemplate[] = []): SandboxBusinessAccount {
  return { wabaId: DESTINATION, businessId: BUSINESS, name: 'New WABA', accessToken: DESTINATION_TOKEN, phoneNumbers: [], templates };
}

const client = useSandbox({ accounts: [accountA(), accountB(), source(), destination()] });

beforeEach(() => {
  // Registering again starts both accounts from their fixtures.
  client.sandbox.registerBusinessAccount(source());
  client.sandbox.registerBusinessAccount(destination([template(6200001, 'third', 'APPROVED'), template(6200002, 'fifth', 'REJECTED', 'en_US')]));
});

const migrate = (body: Record<string, unknown>, path = `/${DESTINATION}/migrate_message_templates`) =>
  client.graph('POST', path, { token: DESTINATION_TOKEN, body });

const destinationTemplates = async () =>
  (await client.graph('GET', `/${DESTINATION}/message_templates?limit=100`, { token: DESTINATION_TOKEN })).body.data as Array<Record<string, any>>;

describe('migrate_message_templates', () => {
  it('migrates approved templates page by page, failing name + language clashes with a reason', async () => {
    const first = await migrate({ source_waba_id: SOURCE, page_number: 0 });
    expect(first.status).toBe(200);
    // Page 0 holds the five lowest ids; "third" and "fifth" already exist in the destination.
    expect(first.body).toEqual({
      migrated_templates: ['6100001', '6100002', '6100004'],
      failed_templates: {
        '6100003': 'A template named third in en_US already exists in the destination WhatsApp Business Account',
        '6100005': 'A template named fifth in en_US already exists in the destination WhatsApp Business Account',
      },
    });
    const second = await migrate({ source_waba_id: SOURCE, page_number: 1 });
    expect(second.body).toEqual({ migrated_templates: ['6100006', '6100007'], failed_templates: {} });
    expect((await migrate({ source_waba_id: SOURCE, page_number: 2 })).body).toEqual({ migrated_templates: [], failed_templates: {} });

    const migrated = (await destinationTemplates()).filter((stored) => !['6200001', '6200002'].includes(stored.id));
    expect(migrated.map((stored) => stored.name).sort()).toEqual(['first', 'fourth', 'second', 'seventh', 'sixth']);
    for (const stored of migrated) {
      // Recreated, not moved: new ids, same content, approved.
      expect(stored.id).not.toMatch(/^61/);
      expect(stored).toMatchObject({
        status: 'APPROVED',
        category: 'UTILITY',
        language: 'en_US',
        components: [{ type: 'BODY', text: `Message ${stored.name} {{1}}` }],
      });
    }
    // The source keeps its templates.
    expect((await client.graph('GET', `/${SOURCE}/message_templates?limit=100`, { token: SOURCE_TOKEN })).body.data).toHaveLength(9);
    // Migrating the same page again now clashes with the copies.
    const again = await migrate({ source_waba_id: SOURCE, page_number: 1 });
    expect(again.body.migrated_templates).toEqual([]);
    expect(Object.keys(again.body.failed_templates)).toEqual(['6100006', '6100007']);
  });

  it('takes its parameters from the query string too, and count overrides the page size', async () => {
    const all = await migrate({}, `/${DESTINATION}/migrate_message_templates?source_waba_id=${SOURCE}&page_number=0&count=10`);
    expect(all.body.migrated_templates).toEqual(['6100001', '6100002', '6100004', '6100006', '6100007']);
    expect(Object.keys(all.body.failed_templates)).toEqual(['6100003', '6100005']);
  });

  it('migrates only the template_ids asked for, with reasons for ones it cannot', async () => {
    const result = await migrate({ source_waba_id: SOURCE, template_ids: ['6100002', '6100008', '999'] });
    expect(result.body).toEqual({
      migrated_templates: ['6100002'],
      failed_templates: {
        '6100008': 'Only APPROVED templates can be migrated; this one is PENDING',
        '999': 'Template does not exist in the source WhatsApp Business Account',
      },
    });
  });

  it('refuses a source owned by another business, the destination itself and unknown WABAs', async () => {
    for (const sourceId of [WABA_ID, '7777777']) {
      const refused = await migrate({ source_waba_id: sourceId });
      expectGraphError(refused, 400, 100);
      expect(refused.body.error.message).toContain(`owned by the same business as ${DESTINATION}`);
    }
    expect((await migrate({ source_waba_id: DESTINATION })).body.error.message).toContain('must differ from the destination');
    expect((await migrate({})).body.error.message).toBe('(#100) The parameter source_waba_id is required.');
    expect((await migrate({ source_waba_id: SOURCE, page_number: -1 })).body.error.message).toContain('page_number must be >= 0');
    expect((await migrate({ source_waba_id: SOURCE, count: 501 })).body.error.message).toContain('count must be >= 1 and <= 500');
    expect(await destinationTemplates()).toHaveLength(2);
  });

  it("needs the destination's token", async () => {
    expectGraphError(
      await client.graph('POST', `/${DESTINATION}/migrate_message_templates`, { token: OTHER_TOKEN, body: { source_waba_id: SOURCE } }),
      401,
      190,
    );
    expectGraphError(
      await client.graph('POST', `/${DESTINATION}/migrate_message_templates`, { token: SOURCE_TOKEN, body: { source_waba_id: SOURCE } }),
      401,
      190,
    );
  });

  it('pages by the configured templateMigrationPageSize', async () => {
    const small = await startSandboxClient({ accounts: [source(), destination()], templateMigrationPageSize: 2 });
    try {
      const page = await small.graph('POST', `/${DESTINATION}/migrate_message_templates`, {
        token: DESTINATION_TOKEN,
        body: { source_waba_id: SOURCE, page_number: 3 },
      });
      expect(page.body).toEqual({ migrated_templates: ['6100007'], failed_templates: {} });
    } finally {
      await small.close();
    }
  });
});
