/**
 * The /upstream routes with their own handlers, end to end: the phone-number list with a connection
 * that needs authorization, bulk template sends with a delivery summary, template migration with
 * paging and name clashes, multipart uploads and their limits.
 */
import { getServices } from '../../../functions/composition';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { connectMigrationSource, MIGRATION_SOURCE, multipartCall, PNG_1X1, wrapperCall } from './upstream-kit';

let runtime: TestRuntime;
let phone: string;
let waba: string;

beforeAll(async () => {
  runtime = await startTestRuntime({ environment: { UPSTREAM_TIMEOUT_MS: '500' } });
  phone = runtime.demo.phoneNumberIds[0]!;
  waba = runtime.demo.wabaId;
  await connectMigrationSource(runtime);
}, 60_000);

afterAll(async () => {
  await runtime?.close();
});

describe('GET /upstream/phone-numbers', () => {
  it("lists the organization's accounts and numbers with upstream fields", async () => {
    const response = await wrapperCall(runtime, 'GET', '/phone-numbers');
    expect(response.status).toBe(200);
    expect(response.body.accounts).toEqual(
      expect.arrayContaining([
        { waba_id: waba, name: 'Demo Retail', business_id: '110000000000000', status: true },
        { waba_id: MIGRATION_SOURCE.wabaId, name: MIGRATION_SOURCE.name, business_id: '110000000000000', status: true },
      ]),
    );
    const ids = response.body.phone_numbers.map((number: { id: string }) => number.id).sort();
    expect(ids).toEqual([...runtime.demo.phoneNumberIds, MIGRATION_SOURCE.phoneNumbers[0]!.id].sort());
    const first = response.body.phone_numbers.find((number: { id: string }) => number.id === phone);
    expect(first).toEqual(
      expect.objectContaining({ waba_id: waba, display_phone_number: expect.any(String), verified_name: 'Demo Retail', quality_rating: 'GREEN' }),
    );
    // The other organization sees only its own.
    const other = await wrapperCall(runtime, 'GET', '/phone-numbers', { token: runtime.demo.otherOrg.accessToken });
    expect(other.body.accounts.map((account: { waba_id: string }) => account.waba_id)).toEqual([runtime.demo.otherOrg.wabaId]);
    expect(other.body.phone_numbers.map((number: { id: string }) => number.id)).toEqual([runtime.demo.otherOrg.phoneNumberId]);
  });

  it('passes fields through for the numbers', async () => {
    const response = await wrapperCall(runtime, 'GET', '/phone-numbers', { query: { fields: 'display_phone_number' } });
    for (const number of response.body.phone_numbers) expect(Object.keys(number).sort()).toEqual(['display_phone_number', 'id', 'waba_id']);
  });

  it('shows an account whose token expired with status false (190), flags it, while the others resolve', async () => {
    runtime.sandbox!.setTokenExpired(MIGRATION_SOURCE.wabaId, true);
    try {
      const response = await wrapperCall(runtime, 'GET', '/phone-numbers');
      expect(response.status).toBe(200);
      const expired = response.body.accounts.find((account: { waba_id: string }) => account.waba_id === MIGRATION_SOURCE.wabaId);
      expect(expired).toEqual(expect.objectContaining({ status: false, error: expect.objectContaining({ code: 190, type: 'OAuthException' }) }));
      expect(response.body.accounts.find((account: { waba_id: string }) => account.waba_id === waba).status).toBe(true);
      expect(response.body.phone_numbers.map((number: { id: string }) => number.id).sort()).toEqual([...runtime.demo.phoneNumberIds].sort());

      const stored = await getServices().tenancy.repository.getBusinessAccount(runtime.demo.organizationId, MIGRATION_SOURCE.wabaId);
      expect(stored!.status).toBe('needs-authorization');
      // Its routes answer Meta's OAuth error without calling Meta, until it is connected again.
      const profile = await wrapperCall(runtime, 'GET', `/phone-numbers/${MIGRATION_SOURCE.phoneNumbers[0]!.id}/business-profile`);
      expect(profile.status).toBe(400);
      expect(profile.body.error).toEqual(expect.objectContaining({ code: 190, type: 'OAuthException' }));
    } finally {
      runtime.sandbox!.setTokenExpired(MIGRATION_SOURCE.wabaId, false);
      await connectMigrationSource(runtime);
    }
    const again = await wrapperCall(runtime, 'GET', '/phone-numbers');
    expect(again.body.accounts.every((account: { status: boolean }) => account.status)).toBe(true);
  });
});

describe('POST /upstream/phone-numbers/{phoneNumberId}/messages/bulk', () => {
  it('sends one template to many recipients with their variables and answers a delivery summary', async () => {
    runtime.sandbox!.configure({ recipientErrors: { '15553330004': { code: 131026 }, '15553330005': { code: 130429, times: 1 } } });
    const recipients = Array.from({ length: 8 }, (_, index) => ({ to: `1555333000${index}`, parameters: [`Name ${index}`, `O-${index}`] }));
    const response = await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/bulk`, {
      body: { template: { name: 'order_update', language: 'en_US' }, recipients },
    });
    runtime.sandbox!.configure({ recipientErrors: { '15553330004': null, '15553330005': null } });
    expect(response.status).toBe(200);
    expect(response.body.summary).toEqual({ total: 8, sent: 7, failed: 1, unknown: 0, not_sent: 0 });
    expect(response.body.results[4]).toEqual(
      expect.objectContaining({ to: '15553330004', status: 'failed', error: expect.objectContaining({ code: 131026 }) }),
    );
    // The rate-limited recipient was retried after backoff.
    expect(response.body.results[5]).toEqual(expect.objectContaining({ to: '15553330005', status: 'sent', attempts: 2 }));

    const accepted = runtime.sandbox!.acceptedMessages().filter((message) => message.recipient.startsWith('155533300'));
    expect(accepted).toHaveLength(7);
    const third = accepted.find((message) => message.recipient === '15553330003')!;
    expect(third.messageId).toBe(response.body.results[3].message_id);
    expect(third.body).toEqual(
      expect.objectContaining({
        messaging_product: 'whatsapp',
        type: 'template',
        template: {
          name: 'order_update',
          language: { code: 'en_US' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Name 3' },
                { type: 'text', text: 'O-3' },
              ],
            },
          ],
        },
      }),
    );
  });

  it("reports Meta's rejection per recipient (wrong variable count) and refuses more than 100 recipients", async () => {
    const response = await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/bulk`, {
      body: { template: { name: 'order_update', language: 'en_US' }, recipients: [{ to: '15553331000', parameters: ['only one'] }] },
    });
    expect(response.body.summary.failed).toBe(1);
    expect(response.body.results[0].error.code).toBe(132000);
    const tooMany = Array.from({ length: 101 }, (_, index) => ({ to: String(15553340000 + index) }));
    const refused = await wrapperCall(runtime, 'POST', `/phone-numbers/${phone}/messages/bulk`, {
      body: { template: { name: 'welcome_message', language: 'en_US' }, recipients: tooMany },
    });
    expect(refused.status).toBe(400);
  });
});

describe('POST /upstream/wabas/{wabaId}/templates/migrate', () => {
  const migrate = (body: unknown, token?: string) => wrapperCall(runtime, 'POST', `/wabas/${waba}/templates/migrate`, { body, token });

  it('migrates page by page; clashing names fail with TEMPLATE_NAME_ALREADY_EXISTS', async () => {
    const first = await migrate({ sourceWabaId: MIGRATION_SOURCE.wabaId, pageNumber: 0 });
    expect(first.status).toBe(200);
    expect(first.body.migrated_templates).toEqual([
      { id: '160000000000003', name: 'eu_welcome' },
      { id: '160000000000004', name: 'eu_receipt' },
      { id: '160000000000005', name: 'eu_delivery' },
    ]);
    expect(first.body.failed_templates).toEqual([
      { id: '160000000000001', name: 'order_update', reason: 'TEMPLATE_NAME_ALREADY_EXISTS' },
      { id: '160000000000002', name: 'spring_sale', reason: 'TEMPLATE_NAME_ALREADY_EXISTS' },
    ]);
    const second = await migrate({ sourceWabaId: MIGRATION_SOURCE.wabaId, pageNumber: 1 });
    expect(second.body).toEqual({
      migrated_templates: [
        { id: '160000000000006', name: 'eu_survey' },
        { id: '160000000000007', name: 'eu_goodbye' },
      ],
      failed_templates: [],
    });
    expect((await migrate({ sourceWabaId: MIGRATION_SOURCE.wabaId, pageNumber: 2 })).body).toEqual({ migrated_templates: [], failed_templates: [] });

    // The copies exist in the destination now; migrating page 0 again clashes on every name.
    const again = await migrate({ sourceWabaId: MIGRATION_SOURCE.wabaId, pageNumber: 0 });
    expect(again.body.migrated_templates).toEqual([]);
    expect(again.body.failed_templates.map((failure: { reason: string }) => failure.reason)).toEqual(Array(5).fill('TEMPLATE_NAME_ALREADY_EXISTS'));
    const names = (await wrapperCall(runtime, 'GET', `/wabas/${waba}/templates`, { query: { fields: 'name' } })).body.data.map(
      (template: { name: string }) => template.name,
    );
    expect(names).toEqual(expect.arrayContaining(['eu_welcome', 'eu_goodbye']));
  });

  it('answers 400 for a source of another organization or business, and 404 for a destination not connected', async () => {
    const otherOrgs = await migrate({ sourceWabaId: runtime.demo.otherOrg.wabaId, pageNumber: 0 });
    expect(otherOrgs.status).toBe(400);
    expect(otherOrgs.body.error.type).toBe('MIGRATION_SOURCE_NOT_ALLOWED');
    const foreignDestination = await wrapperCall(runtime, 'POST', `/wabas/${runtime.demo.otherOrg.wabaId}/templates/migrate`, {
      body: { sourceWabaId: MIGRATION_SOURCE.wabaId, pageNumber: 0 },
    });
    expect(foreignDestination.status).toBe(404);
    expect((await migrate({ sourceWabaId: MIGRATION_SOURCE.wabaId })).status).toBe(400);
  });
});

describe('multipart uploads', () => {
  it('uploads media of each kind within its limits, and refuses others with 400/413 naming the limit', async () => {
    const upload = (value: Buffer, filename: string, type: string) =>
      multipartCall(runtime, `/phone-numbers/${phone}/media`, [{ name: 'file', value, filename, type }]);
    expect((await upload(PNG_1X1, 'a.png', 'image/png')).status).toBe(200);
    expect((await upload(Buffer.from('%PDF-1.4\n%%EOF'), 'a.pdf', 'application/pdf')).status).toBe(200);
    const big = await upload(Buffer.alloc(4 * 1024 * 1024 + 10, 1), 'big.mp4', 'video/mp4');
    expect(big.status).toBe(413);
    expect(big.body.message).toMatch(/limited to 4 MB \(WhatsApp allows 16 MB/);
    const sticker = await upload(Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 '), Buffer.alloc(120 * 1024)]), 's.webp', 'image/webp');
    expect(sticker.status).toBe(413);
    expect(sticker.body.message).toMatch(/static stickers are limited to 100 KB/);
    const gif = await upload(Buffer.from('GIF89a'), 'a.gif', 'image/gif');
    expect(gif.status).toBe(400);
    expect(gif.body.message).toMatch(/image\/gif is not supported/);
  });

  it('refuses a flow JSON that is not JSON', async () => {
    const flow = await wrapperCall(runtime, 'POST', `/wabas/${waba}/flows`, { body: { name: 'it_bad_json', categories: ['OTHER'] } });
    const response = await multipartCall(runtime, `/wabas/${waba}/flows/${flow.body.id}/assets`, [
      { name: 'file', value: '{"version": ', filename: 'flow.json', type: 'application/json' },
    ]);
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('multipart field file must be valid JSON (the flow JSON)');
  });
});
