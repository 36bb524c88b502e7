/** The routes with their own handlers: phone-number list, bulk send, template migration, uploads, download. */
import { createWrapperKit, graphFailure, ids, ok, timeout, type WrapperKit } from '../../support/upstream-fakes';
import { reasonCode } from '../../../shared/upstream/migrate-templates';
import { pacedRate } from '../../../shared/sending/send-policy';
import { MAX_FILE_BYTES } from '../../../shared/upstream/media-uploads';

let kit: WrapperKit;
beforeEach(async () => {
  kit = await createWrapperKit();
});

const phoneList = (wabaId: string, numbers: Array<{ id: string; display_phone_number: string }>) =>
  ok({ data: numbers.map((number) => ({ ...number, verified_name: `name ${number.id}`, quality_rating: 'GREEN' })) });

describe('GET /upstream/phone-numbers', () => {
  it('lists every account and its numbers (ids the organization added), with the account waba_id on each', async () => {
    kit.graph.on(
      'GET',
      `/${ids.waba}/phone_numbers`,
      phoneList(ids.waba, [
        { id: ids.phone, display_phone_number: '+1 555-010-0001' },
        { id: '120000000000077', display_phone_number: '+1 555-010-0077' },
      ]),
    );
    kit.graph.on('GET', `/${ids.secondWaba}/phone_numbers`, phoneList(ids.secondWaba, [{ id: ids.secondWabaPhone, display_phone_number: '+1 555-010-0002' }]));
    const response = await kit.call('listPhoneNumbers', { query: { fields: 'display_phone_number' } });
    expect(response.status).toBe(200);
    expect(response.body.accounts).toEqual(
      expect.arrayContaining([
        { waba_id: ids.waba, name: 'Demo Retail', business_id: 'biz-demo', status: true },
        { waba_id: ids.secondWaba, name: 'Demo Retail EU', business_id: 'biz-demo', status: true },
      ]),
    );
    expect(response.body.phone_numbers).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: ids.phone, waba_id: ids.waba, display_phone_number: '+1 555-010-0001', quality_rating: 'GREEN' }),
        expect.objectContaining({ id: ids.secondWabaPhone, waba_id: ids.secondWaba }),
      ]),
    );
    expect(response.body.phone_numbers).toHaveLength(2);
    expect(kit.graph.requests.map((request) => request.query)).toEqual([
      { limit: '100', fields: 'id,display_phone_number' },
      { limit: '100', fields: 'id,display_phone_number' },
    ]);
    expect(kit.graph.requests.map((request) => request.accessToken).sort()).toEqual(['EAAG-demo', 'EAAG-demo-eu']);
  });

  it('shows an account whose token Meta rejects (190) with status false, flags it, and still resolves the others', async () => {
    kit.graph.on('GET', `/${ids.waba}/phone_numbers`, graphFailure(401, 190, { error_subcode: 463, message: 'Error validating access token' }));
    kit.graph.on('GET', `/${ids.secondWaba}/phone_numbers`, phoneList(ids.secondWaba, [{ id: ids.secondWabaPhone, display_phone_number: '+1' }]));
    const response = await kit.call('listPhoneNumbers');
    expect(response.status).toBe(200);
    const flagged = response.body.accounts.find((account: { waba_id: string }) => account.waba_id === ids.waba);
    expect(flagged).toEqual(expect.objectContaining({ status: false, error: expect.objectContaining({ code: 190, error_subcode: 463 }) }));
    expect(response.body.phone_numbers.map((number: { id: string }) => number.id)).toEqual([ids.secondWabaPhone]);
    expect((await kit.tenancy.repository.getBusinessAccount(kit.org, ids.waba))!.status).toBe('needs-authorization');

    // Next time the flagged account is not called at all.
    kit.graph.requests.length = 0;
    const again = await kit.call('listPhoneNumbers');
    expect(again.body.accounts.find((account: { waba_id: string }) => account.waba_id === ids.waba).status).toBe(false);
    expect(kit.graph.requests.map((request) => request.path)).toEqual([`/${ids.secondWaba}/phone_numbers`]);
  });

  it('answers 502 only when no account could be read because Meta did not answer', async () => {
    kit.graph.fallback = timeout;
    expect((await kit.call('listPhoneNumbers')).status).toBe(502);
    kit.graph.on('GET', `/${ids.secondWaba}/phone_numbers`, phoneList(ids.secondWaba, []));
    const partial = await kit.call('listPhoneNumbers');
    expect(partial.status).toBe(200);
    expect(partial.body.accounts.find((account: { waba_id: string }) => account.waba_id === ids.waba).error.code).toBe(502);
  });

  it("never shows another organization's accounts", async () => {
    const response = await kit.call('listPhoneNumbers', { token: kit.otherToken });
    expect(response.body.accounts.map((account: { waba_id: string }) => account.waba_id)).toEqual([ids.otherWaba]);
  });
});

describe('POST /upstream/phone-numbers/{phoneNumberId}/messages/bulk', () => {
  const recipients = (count: number) =>
    Array.from({ length: count }, (_, index) => ({ to: `1555000${String(index).padStart(4, '0')}`, parameters: [`name ${index}`, `A-${index}`] }));
  const bulkBody = (count: number) => ({ template: { name: 'order_update', language: 'en_US' }, recipients: recipients(count) });
  const sent = (request: { json?: unknown }) => ok({ messaging_product: 'whatsapp', messages: [{ id: `wamid.${(request.json as { to: string }).to}` }] });

  it("sends the template to each recipient with its variables, paced by the account's shared pacer, and summarises", async () => {
    kit.graph.on('POST', `/${ids.phone}/messages`, sent);
    const start = kit.time.nowMs();
    const response = await kit.call('sendBulkTemplate', { body: bulkBody(10) });
    expect(response.status).toBe(200);
    expect(response.body.summary).toEqual({ total: 10, sent: 10, failed: 0, unknown: 0, not_sent: 0 });
    expect(response.body.results[3]).toEqual({ to: '15550000003', status: 'sent', message_id: 'wamid.15550000003', attempts: 1 });
    expect(kit.graph.calls()[0]!.json).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '15550000000',
      type: 'template',
      template: {
        name: 'order_update',
        language: { code: 'en_US' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', text: 'name 0' },
              { type: 'text', text: 'A-0' },
            ],
          },
        ],
      },
      // Each recipient's send is its own (u1:<sendId>), found again by Meta's status events.
      biz_opaque_callback_data: expect.stringMatching(/^u1:snd_\d{4}$/),
    });
    // One reservation of 10 slots at the default 20/s, paced 2 % under: the last send starts 459 ms in.
    expect(kit.pacer.reservations).toEqual([expect.objectContaining({ accountKey: ids.waba, count: 10, ratePerSecond: pacedRate(20) })]);
    expect(kit.time.nowMs() - start).toBeGreaterThanOrEqual(9 * (1000 / pacedRate(20)));
  });

  it('retries rate limits and transient errors with backoff (holding the account), and reports definite failures', async () => {
    let throttled = 0;
    kit.graph.on('POST', `/${ids.phone}/messages`, (request) => {
      const to = (request.json as { to: string }).to;
      if (to === '15550000001' && throttled++ < 2) return graphFailure(400, 130429);
      if (to === '15550000002') return graphFailure(400, 131026, { message: 'Message undeliverable' });
      return sent(request);
    });
    const response = await kit.call('sendBulkTemplate', { body: bulkBody(3) });
    expect(response.body.summary).toEqual({ total: 3, sent: 2, failed: 1, unknown: 0, not_sent: 0 });
    expect(response.body.results[1]).toEqual(expect.objectContaining({ status: 'sent', attempts: 3 }));
    expect(response.body.results[2]).toEqual(expect.objectContaining({ status: 'failed', attempts: 1, error: expect.objectContaining({ code: 131026 }) }));
    expect(kit.pacer.holds).toHaveLength(2);
  });

  it('holds the account as broadcasts do: ten send intervals, doubling while rate-limit answers keep coming', async () => {
    kit = await createWrapperKit({ bulk: { rateLimitHoldMs: 1_000 } as never });
    const answeredAt: number[] = [];
    let throttled = 0;
    kit.graph.on('POST', `/${ids.phone}/messages`, (request) => {
      if (throttled++ < 2) {
        answeredAt.push(kit.time.nowMs());
        return graphFailure(400, 130429);
      }
      return sent(request);
    });
    const response = await kit.call('sendBulkTemplate', { body: bulkBody(1) });
    expect(response.body.results[0]).toEqual(expect.objectContaining({ status: 'sent', attempts: 3 }));
    // 20 messages/s: 500 ms, then 1,000 ms (the configured maximum).
    expect(kit.pacer.holds.map((hold, position) => hold.untilMs - answeredAt[position]!)).toEqual([500, 1_000]);
  });

  it('never retries an unknown outcome, and logs it for reconciliation without the recipient', async () => {
    kit.graph.on('POST', `/${ids.phone}/messages`, (request) => ((request.json as { to: string }).to === '15550000000' ? timeout() : sent(request)));
    const response = await kit.call('sendBulkTemplate', { body: bulkBody(2) });
    expect(response.body.summary).toEqual({ total: 2, sent: 1, failed: 0, unknown: 1, not_sent: 0 });
    expect(response.body.results[0]).toEqual(expect.objectContaining({ status: 'unknown', attempts: 1 }));
    expect(kit.graph.calls().filter((request) => (request.json as { to: string }).to === '15550000000')).toHaveLength(1);
    expect(kit.warnings).toEqual([
      {
        message: 'upstream send outcome unknown; reconcile through webhooks',
        facts: expect.objectContaining({ operation: 'sendBulkTemplate', phoneNumberId: ids.phone, reason: 'timeout' }),
      },
    ]);
    expect(JSON.stringify(kit.warnings)).not.toContain('15550000000');
  });

  it("classifies 5xx as the broadcast worker does: Meta's own error is retried, a gateway's 502 or a bodiless 503 is unknown", async () => {
    let metaFailures = 0;
    kit.graph.on('POST', `/${ids.phone}/messages`, (request) => {
      const to = (request.json as { to: string }).to;
      if (to === '15550000000' && metaFailures++ < 1) return graphFailure(503, 2);
      if (to === '15550000001') return ok({ error: { message: 'bad gateway', code: 1 } }, 502);
      if (to === '15550000002') return ok('<html>unavailable</html>', 503);
      return sent(request);
    });
    const response = await kit.call('sendBulkTemplate', { body: bulkBody(3) });
    expect(response.body.summary).toEqual({ total: 3, sent: 1, failed: 0, unknown: 2, not_sent: 0 });
    expect(response.body.results[0]).toEqual(expect.objectContaining({ status: 'sent', attempts: 2 }));
    expect(response.body.results[1]).toEqual(
      expect.objectContaining({
        status: 'unknown',
        attempts: 1,
        error: expect.objectContaining({ code: 502, message: 'Outcome unknown (HTTP 502); reconcile through webhooks before resending' }),
      }),
    );
    expect(response.body.results[2]).toEqual(
      expect.objectContaining({
        status: 'unknown',
        attempts: 1,
        error: expect.objectContaining({ message: 'Outcome unknown (HTTP 503); reconcile through webhooks before resending' }),
      }),
    );
    expect(kit.warnings.map((warning) => warning.facts.reason)).toEqual(['HTTP 502', 'HTTP 503']);
  });

  it("fails a recipient whose Meta 5xx error keeps coming once its attempts run out, with Meta's error", async () => {
    kit.graph.on('POST', `/${ids.phone}/messages`, graphFailure(500, 131000));
    const response = await kit.call('sendBulkTemplate', { body: bulkBody(1) });
    expect(response.body.summary).toEqual({ total: 1, sent: 0, failed: 1, unknown: 0, not_sent: 0 });
    expect(response.body.results[0]).toEqual(expect.objectContaining({ status: 'failed', error: expect.objectContaining({ code: 131000 }) }));
    expect(response.body.results[0].attempts).toBeGreaterThan(1);
    expect(kit.warnings).toEqual([]);
  });

  it('stops starting sends at the time budget and reports the rest not_sent', async () => {
    kit = await createWrapperKit({ bulk: { budgetMs: 3_000 } as never });
    kit.graph.on('POST', `/${ids.phone}/messages`, sent);
    // 100 recipients at 20/s (paced 2 % under: 51 ms apart) need 5.1 s; the budget (less a second of margin) covers the 40 slots before 2 s.
    const response = await kit.call('sendBulkTemplate', { body: bulkBody(100) });
    expect(response.body.summary.sent).toBe(40);
    expect(response.body.summary.not_sent).toBe(60);
    expect(response.body.results[99]).toEqual(
      expect.objectContaining({ status: 'not_sent', attempts: 0, error: expect.objectContaining({ type: 'WrapperTimeBudgetExceeded' }) }),
    );
  });

  it('validates recipients: at most 100, digits only, no duplicates', async () => {
    expect((await kit.call('sendBulkTemplate', { body: bulkBody(101) })).body.message).toMatch(/recipients must list at most 100 recipients/);
    expect((await kit.call('sendBulkTemplate', { body: { ...bulkBody(1), recipients: [{ to: '+1 555' }] } })).body.message).toMatch(
      /recipients\[0\]\.to must be 6 to 15 digits/,
    );
    const duplicate = { ...bulkBody(1), recipients: [...recipients(2), recipients(1)[0]!] };
    expect((await kit.call('sendBulkTemplate', { body: duplicate })).body.message).toBe('recipients[2].to duplicates recipients[0].to');
    expect(kit.graph.calls()).toEqual([]);
  });

  it("uses a recipient's own components, else shared components plus its body parameters", async () => {
    kit.graph.on('POST', `/${ids.phone}/messages`, sent);
    const header = { type: 'header', parameters: [{ type: 'image', image: { id: '999' } }] };
    const own = [{ type: 'body', parameters: [{ type: 'text', text: 'own' }] }];
    await kit.idRecords.recordMedia({ organizationId: kit.org, wabaId: ids.waba, phoneNumberId: ids.phone, id: '999', recordedAt: kit.time.now() });
    await kit.call('sendBulkTemplate', {
      body: {
        template: { name: 'order_update', language: 'en', components: [header] },
        recipients: [
          { to: '15550000001', parameters: ['p'] },
          { to: '15550000002', components: own },
        ],
      },
    });
    const bodies = kit.graph.calls().map((request) => (request.json as { template: { components: unknown[] } }).template.components);
    expect(bodies).toContainEqual([header, { type: 'body', parameters: [{ type: 'text', text: 'p' }] }]);
    expect(bodies).toContainEqual(own);
  });

  it("answers 404 for another organization's number before any send", async () => {
    const response = await kit.call('sendBulkTemplate', { pathParameters: { phoneNumberId: ids.otherPhone }, body: bulkBody(1) });
    expect(response.status).toBe(404);
    expect(kit.graph.requests).toEqual([]);
    expect(kit.pacer.reservations).toEqual([]);
  });
});

describe('POST /upstream/wabas/{wabaId}/templates/migrate', () => {
  const migrate = (body: unknown, wabaId: string = ids.waba) => kit.call('migrateTemplates', { pathParameters: { wabaId }, body });

  beforeEach(() => {
    kit.graph.on(
      'GET',
      `/${ids.secondWaba}/message_templates`,
      ok({
        data: [
          { id: 's1', name: 'order_update' },
          { id: 's2', name: 'spring_sale' },
          { id: 's3', name: 'bad_one' },
        ],
      }),
    );
    kit.graph.on('GET', `/${ids.waba}/message_templates`, ok({ data: [{ id: 'd9', name: 'welcome' }] }));
  });

  it('migrates one page and answers names for migrated templates and reason codes for failures', async () => {
    kit.graph.on(
      'POST',
      `/${ids.waba}/migrate_message_templates`,
      ok({ migrated_templates: ['s1'], failed_templates: { s2: 'Template name already exists', s3: 'Incorrect category' } }),
    );
    const response = await migrate({ sourceWabaId: ids.secondWaba, pageNumber: 1 });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      migrated_templates: [{ id: 's1', name: 'order_update' }],
      failed_templates: [
        { id: 's2', name: 'spring_sale', reason: 'TEMPLATE_NAME_ALREADY_EXISTS' },
        { id: 's3', name: 'bad_one', reason: 'INCORRECT_CATEGORY' },
      ],
    });
    const call = kit.graph.requests.find((request) => request.path.endsWith('/migrate_message_templates'))!;
    expect(call.json).toEqual({ source_waba_id: ids.secondWaba, page_number: 1 });
    expect(call.accessToken).toBe('EAAG-demo');
    // The source is read with its own credentials.
    expect(kit.graph.requests.find((request) => request.path === `/${ids.secondWaba}/message_templates`)!.accessToken).toBe('EAAG-demo-eu');
  });

  it("names copies by the destination's list when Meta answers destination ids", async () => {
    kit.graph.on('POST', `/${ids.waba}/migrate_message_templates`, ok({ migrated_templates: ['d9'], failed_templates: [] }));
    expect((await migrate({ sourceWabaId: ids.secondWaba, pageNumber: 0 })).body.migrated_templates).toEqual([{ id: 'd9', name: 'welcome' }]);
  });

  it('answers empty lists for a page past the end', async () => {
    kit.graph.on('POST', `/${ids.waba}/migrate_message_templates`, ok({ migrated_templates: [], failed_templates: {} }));
    expect((await migrate({ sourceWabaId: ids.secondWaba, pageNumber: 7 })).body).toEqual({ migrated_templates: [], failed_templates: [] });
  });

  it("answers 400 when the source is another organization's, of another business, flagged, the destination itself, or not accessible", async () => {
    await kit.tenancy.services.admin.connectBusinessAccount({
      organizationId: kit.org,
      wabaId: '110000000000003',
      businessId: 'biz-elsewhere',
      name: 'x',
      accessToken: 'EAAG-x',
    });
    for (const sourceWabaId of [ids.otherWaba, '110000000000003', ids.waba, '123']) {
      const response = await migrate({ sourceWabaId, pageNumber: 0 });
      expect(response.status).toBe(400);
      expect(response.body.error.type).toBe('MIGRATION_SOURCE_NOT_ALLOWED');
    }
    kit.graph.on('GET', `/${ids.secondWaba}/message_templates`, graphFailure(403, 200));
    expect((await migrate({ sourceWabaId: ids.secondWaba, pageNumber: 0 })).status).toBe(400);
    expect(kit.graph.requests.some((request) => request.path.endsWith('/migrate_message_templates'))).toBe(false);
  });

  it('answers 404 for a destination not connected to the organization, and validates the body', async () => {
    expect((await migrate({ sourceWabaId: ids.secondWaba, pageNumber: 0 }, ids.otherWaba)).status).toBe(404);
    expect((await migrate({ sourceWabaId: ids.secondWaba, pageNumber: -1 })).body.message).toMatch(/pageNumber must be 0 or more/);
    expect((await migrate({ pageNumber: 0 })).body.message).toBe('sourceWabaId is required');
  });

  it("passes Meta's rejection of the migration through, and a timeout as 502", async () => {
    kit.graph.on('POST', `/${ids.waba}/migrate_message_templates`, graphFailure(400, 100));
    expect((await migrate({ sourceWabaId: ids.secondWaba, pageNumber: 0 })).status).toBe(400);
    kit.graph.on('POST', `/${ids.waba}/migrate_message_templates`, timeout);
    expect((await migrate({ sourceWabaId: ids.secondWaba, pageNumber: 0 })).status).toBe(502);
  });

  it('turns free-text reasons into codes', () => {
    expect(reasonCode('Formatting error - dangling parameter')).toBe('FORMATTING_ERROR_DANGLING_PARAMETER');
    expect(reasonCode('TEMPLATE_NAME_ALREADY_EXISTS')).toBe('TEMPLATE_NAME_ALREADY_EXISTS');
    expect(reasonCode('A template with the same name already exists')).toBe('TEMPLATE_NAME_ALREADY_EXISTS');
  });
});

/** A multipart body as a client would send it. */
function multipart(parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>, boundary = 'XyZ-boundary-42') {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`));
    chunks.push(typeof part.value === 'string' ? Buffer.from(part.value) : part.value);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { rawBody: Buffer.concat(chunks), headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } };
}

describe('POST /upstream/phone-numbers/{phoneNumberId}/media', () => {
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(1000, 7)]);

  it("re-encodes the file for Meta with messaging_product and type, and passes Meta's id through", async () => {
    kit.graph.on('POST', `/${ids.phone}/media`, ok({ id: '1500000000123' }));
    const response = await kit.call('uploadMedia', multipart([{ name: 'file', value: png, filename: 'logo.png', type: 'image/png' }]));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ id: '1500000000123' });
    const request = kit.graph.requests[0]!;
    expect(request.multipart!.fields).toEqual([
      ['messaging_product', 'whatsapp'],
      ['type', 'image/png'],
    ]);
    expect(request.multipart!.files).toEqual([{ field: 'file', filename: 'logo.png', contentType: 'image/png', data: png }]);
  });

  it('refuses unsupported types, missing files and non-multipart bodies with 400', async () => {
    expect((await kit.call('uploadMedia', multipart([{ name: 'file', value: 'x', filename: 'a.gif', type: 'image/gif' }]))).body.message).toMatch(
      /type image\/gif is not supported by WhatsApp/,
    );
    expect((await kit.call('uploadMedia', multipart([{ name: 'type', value: 'image/png' }]))).body.message).toBe('multipart field file is required');
    // As Python's requests sends a file: a filename, no Content-Type (RFC 7578 would read it as text/plain).
    expect((await kit.call('uploadMedia', multipart([{ name: 'file', value: png, filename: 'logo.png' }]))).body.message).toBe(
      'multipart field type (the MIME type) is required when the file part has no Content-Type',
    );
    expect((await kit.call('uploadMedia', { rawBody: Buffer.from('{}'), headers: { 'Content-Type': 'application/json' } })).body.message).toMatch(
      /Content-Type must be multipart\/form-data/,
    );
    expect(kit.graph.requests).toEqual([]);
  });

  it("enforces size limits with 413 naming the limit: 4 MB through this API, stickers by WhatsApp's", async () => {
    const image = await kit.call(
      'uploadMedia',
      multipart([{ name: 'file', value: Buffer.alloc(MAX_FILE_BYTES + 1), filename: 'big.jpg', type: 'image/jpeg' }]),
    );
    expect(image.status).toBe(413);
    expect(image.body.message).toMatch(/image uploads through this API are limited to 4 MB \(WhatsApp allows 5 MB/);
    const sticker = await kit.call('uploadMedia', multipart([{ name: 'file', value: Buffer.alloc(150 * 1024), filename: 's.webp', type: 'image/webp' }]));
    expect(sticker.status).toBe(413);
    expect(sticker.body.message).toMatch(/static stickers are limited to 100 KB by WhatsApp/);
    const animated = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8X'), Buffer.from([0x0a, 0, 0, 0, 0x02]), Buffer.alloc(150 * 1024)]);
    kit.graph.on('POST', `/${ids.phone}/media`, ok({ id: '1' }));
    expect((await kit.call('uploadMedia', multipart([{ name: 'file', value: animated, filename: 'a.webp', type: 'image/webp' }]))).status).toBe(200);
    const whole = await kit.call('uploadMedia', {
      rawBody: Buffer.alloc(MAX_FILE_BYTES + 128 * 1024),
      headers: { 'Content-Type': 'multipart/form-data; boundary=b' },
    });
    expect(whole.status).toBe(413);
  });

  it("answers 404 for another organization's number without reading the body", async () => {
    expect(
      (
        await kit.call('uploadMedia', {
          pathParameters: { phoneNumberId: ids.otherPhone },
          ...multipart([{ name: 'file', value: png, filename: 'x.png', type: 'image/png' }]),
        })
      ).status,
    ).toBe(404);
  });
});

describe('POST /upstream/wabas/{wabaId}/flows/{flowId}/assets', () => {
  it("uploads valid flow JSON as flow.json / FLOW_JSON after checking the flow is the account's", async () => {
    kit.graph.on('POST', `/${ids.flow}/assets`, ok({ success: true, validation_errors: [] }));
    const response = await kit.call(
      'uploadFlowJson',
      multipart([{ name: 'file', value: '{"version":"7.0","screens":[]}', filename: 'flow.json', type: 'application/json' }]),
    );
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, validation_errors: [] });
    const upload = kit.graph.requests.find((request) => request.multipart)!;
    expect(upload.multipart!.fields).toEqual([
      ['name', 'flow.json'],
      ['asset_type', 'FLOW_JSON'],
    ]);
  });

  it("refuses invalid JSON (400) and another account's flow (404)", async () => {
    expect((await kit.call('uploadFlowJson', multipart([{ name: 'file', value: '{not json', filename: 'flow.json' }]))).body.message).toBe(
      'multipart field file must be valid JSON (the flow JSON)',
    );
    const foreign = await kit.call('uploadFlowJson', {
      pathParameters: { wabaId: ids.waba, flowId: ids.otherFlow },
      ...multipart([{ name: 'file', value: '{}', filename: 'flow.json' }]),
    });
    expect(foreign.status).toBe(404);
  });
});

describe('GET /upstream/phone-numbers/{phoneNumberId}/media/{mediaId}/download', () => {
  it('reads the metadata scoped to the number, then fetches the file with the account token and answers it binary', async () => {
    kit.graph.on(
      'GET',
      `/${ids.media}`,
      ok({ url: 'https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1', mime_type: 'image/jpeg', sha256: 'abc', file_size: 8, id: ids.media }),
    );
    const response = await kit.call('downloadMedia');
    expect(response.status).toBe(200);
    expect(response.raw.isBase64Encoded).toBe(true);
    expect(response.headers['Content-Type']).toBe('image/jpeg');
    expect(response.body).toEqual(Buffer.from('JPEGDATA'));
    expect(kit.graph.requests[0]!.query).toEqual({ phone_number_id: ids.phone });
    expect(kit.graph.downloads).toEqual([{ url: 'https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=1', accessToken: 'EAAG-demo' }]);
  });

  it("never sends the token to a host that is not Meta's (or the configured Graph URL)", async () => {
    kit.graph.on('GET', `/${ids.media}`, ok({ url: 'https://evil.example/steal', mime_type: 'image/jpeg' }));
    expect((await kit.call('downloadMedia')).status).toBe(502);
    expect(kit.graph.downloads).toEqual([]);
  });

  it('answers 404 for an id Meta resolves to something that is not a media file (no URL), and fetches nothing', async () => {
    kit.graph.on('GET', `/${ids.media}`, ok({ id: ids.media, name: 'Demo Retail' }));
    const response = await kit.call('downloadMedia');
    expect(response.status).toBe(404);
    expect(kit.graph.downloads).toEqual([]);
  });

  it("refuses files above 4 MB with 413, and passes Meta's errors through", async () => {
    kit.graph.on('GET', `/${ids.media}`, ok({ url: 'https://lookaside.fbsbx.com/x', mime_type: 'video/mp4', file_size: '9000000' }));
    expect((await kit.call('downloadMedia')).status).toBe(413);
    kit.graph.on('GET', `/${ids.media}`, graphFailure(400, 100, { error_subcode: 2494010 }));
    expect((await kit.call('downloadMedia')).status).toBe(400);
    // Another owner's media (or none): 404, as on the metadata route.
    kit.graph.on('GET', `/${ids.media}`, graphFailure(400, 100, { error_subcode: 33 }));
    expect((await kit.call('downloadMedia')).status).toBe(404);
  });
});
