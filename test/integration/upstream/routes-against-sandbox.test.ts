/**
 * The ordinary /upstream routes against the Cloud API sandbox, area by area: each answers what the
 * Cloud API answered (compared with a direct call where the route is a read), `messaging_product`
 * reaches Meta on message requests, and Meta's 4xx and rate limits map to 400 and 429.
 */
import { startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';
import { demoIds, FLOW_JSON, multipartCall, PNG_1X1, wrapperCall } from './upstream-kit';

let runtime: TestRuntime;
let phone: string;
let waba: string;
const DEMO_UPSTREAM_TOKEN = demoIds.upstreamToken;

beforeAll(async () => {
  runtime = await startTestRuntime();
  phone = runtime.demo.phoneNumberIds[0]!;
  waba = runtime.demo.wabaId;
}, 60_000);

afterAll(async () => {
  await runtime?.close();
});

/** The same Graph call made directly on the sandbox with the account's own token. */
async function direct(method: string, path: string, query: Record<string, string> = {}): Promise<TestResponse> {
  const search = Object.keys(query).length ? `?${new URLSearchParams(query)}` : '';
  const response = await fetch(`${runtime.sandboxUrl}/v25.0${path}${search}`, { method, headers: { Authorization: `Bearer ${DEMO_UPSTREAM_TOKEN}` } });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

const call = (method: string, path: string, options: { body?: unknown; query?: Record<string, string> } = {}) => wrapperCall(runtime, method, path, options);
const expectOk = (response: TestResponse) => {
  if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${JSON.stringify(response.body)}`);
  return response.body;
};
const now = () => Math.floor(Date.now() / 1000);

describe('reads pass through unchanged', () => {
  it.each([
    ['GET', () => `/phone-numbers/${phone}`, () => `/${phone}`, { fields: 'id,display_phone_number,verified_name,quality_rating' }],
    ['GET', () => `/phone-numbers/${phone}/business-profile`, () => `/${phone}/whatsapp_business_profile`, {}],
    ['GET', () => `/phone-numbers/${phone}/settings`, () => `/${phone}/settings`, {}],
    ['GET', () => `/wabas/${waba}/templates`, () => `/${waba}/message_templates`, { status: 'APPROVED', fields: 'id,name,status' }],
    ['GET', () => `/wabas/${waba}/templates/${demoIds.templateOrderUpdate}`, () => `/${demoIds.templateOrderUpdate}`, {}],
    ['GET', () => `/wabas/${waba}/subscribed-apps`, () => `/${waba}/subscribed_apps`, {}],
    ['GET', () => `/phone-numbers/${phone}/block-list`, () => `/${phone}/block_users`, {}],
  ] as const)('%s %s', async (method, ours, theirs, query) => {
    const wrapped = await call(method, ours(), { query });
    const upstream = await direct(method, theirs(), query);
    expect(upstream.status).toBe(200);
    expect(wrapped.status).toBe(200);
    expect(wrapped.body).toEqual(upstream.body);
  });

  it('GET automation reads the conversational_automation field of the number', async () => {
    const body = expectOk(await call('GET', `/phone-numbers/${phone}/automation`));
    expect(body).toEqual((await direct('GET', `/${phone}`, { fields: 'conversational_automation' })).body);
  });
});

describe('messaging', () => {
  let messageId: string;
  let imageId: string;

  it("sends a text with messaging_product added, answering Meta's body", async () => {
    const body = expectOk(
      await call('POST', `/phone-numbers/${phone}/messages`, { body: { to: '15557770001', type: 'text', text: { body: 'Hello from the wrapper' } } }),
    );
    expect(body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: '15557770001', wa_id: '15557770001' }],
      messages: [{ id: expect.stringMatching(/^wamid\./) }],
    });
    messageId = body.messages[0].id;
    const accepted = runtime.sandbox!.acceptedMessages().find((message) => message.messageId === messageId)!;
    expect(accepted.body).toEqual(expect.objectContaining({ messaging_product: 'whatsapp', to: '15557770001', type: 'text' }));
  });

  it.each([
    [
      'template',
      () => ({
        type: 'template',
        template: {
          name: 'order_update',
          language: { code: 'en_US' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'Ada' },
                { type: 'text', text: 'A-17' },
              ],
            },
          ],
        },
      }),
    ],
    ['image (uploaded id)', () => ({ type: 'image', image: { id: imageId, caption: 'Logo' } })],
    ['location', () => ({ type: 'location', location: { latitude: 52.52, longitude: 13.405, name: 'Berlin', address: 'Alexanderplatz' } })],
    [
      'contacts',
      () => ({
        type: 'contacts',
        contacts: [{ name: { formatted_name: 'Ada Lovelace', first_name: 'Ada' }, phones: [{ phone: '+15551234567', type: 'WORK' }] }],
      }),
    ],
    ['reaction', () => ({ type: 'reaction', reaction: { message_id: messageId, emoji: '👍' } })],
    [
      'interactive',
      () => ({
        type: 'interactive',
        interactive: { type: 'button', body: { text: 'Pick one' }, action: { buttons: [{ type: 'reply', reply: { id: 'a', title: 'A' } }] } },
      }),
    ],
  ])('sends a %s message', async (kind, message) => {
    if (kind.startsWith('image')) {
      imageId = expectOk(
        await multipartCall(runtime, `/phone-numbers/${phone}/media`, [{ name: 'file', value: PNG_1X1, filename: 'logo.png', type: 'image/png' }]),
      ).id;
    }
    const body = expectOk(await call('POST', `/phone-numbers/${phone}/messages`, { body: { to: '15557770002', ...message() } }));
    expect(body.messages[0].id).toMatch(/^wamid\./);
  });

  it('sends a marketing template through marketing_messages', async () => {
    const body = expectOk(
      await call('POST', `/phone-numbers/${phone}/marketing-messages`, {
        body: {
          to: '15557770003',
          recipient_type: 'individual',
          type: 'template',
          template: { name: 'spring_sale', language: { code: 'en' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }] },
        },
      }),
    );
    expect(body.messages[0].id).toMatch(/^wamid\./);
  });

  it('marks a message read and shows a typing indicator', async () => {
    expect(expectOk(await call('POST', `/phone-numbers/${phone}/messages/read`, { body: { message_id: messageId } }))).toEqual({ success: true });
    expect(expectOk(await call('POST', `/phone-numbers/${phone}/messages/typing`, { body: { message_id: messageId } }))).toEqual({ success: true });
  });

  it("passes Meta's rejection through as 400 (a template of the account in a language it lacks: 132001)", async () => {
    const response = await call('POST', `/phone-numbers/${phone}/messages`, {
      body: { to: '15557770004', type: 'template', template: { name: 'order_update', language: { code: 'fr' } } },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      status: false,
      message: expect.any(String),
      error: expect.objectContaining({ code: 132001, type: expect.any(String), fbtrace_id: expect.any(String) }),
    });
  });

  it("answers 404 for a template name the account does not have, before calling Meta (as for another organization's)", async () => {
    const response = await call('POST', `/phone-numbers/${phone}/messages`, {
      body: { to: '15557770004', type: 'template', template: { name: 'no_such_template', language: { code: 'en' } } },
    });
    expect(response.status).toBe(404);
    expect(response.body.error).toEqual(expect.objectContaining({ type: 'NOT_CONNECTED', code: 404 }));
  });

  it("answers 429 on Meta's throughput limit (130429) and an injected pair-rate limit (131056)", async () => {
    runtime.sandbox!.configure({ throughputByPhoneNumberId: { [phone]: 0 }, recipientErrors: { '15557770006': { code: 131056 } } });
    try {
      const throttled = await call('POST', `/phone-numbers/${phone}/messages`, { body: { to: '15557770005', type: 'text', text: { body: 'x' } } });
      expect(throttled.status).toBe(429);
      expect(throttled.body.error.code).toBe(130429);
      const pair = await call('POST', `/phone-numbers/${phone}/messages`, { body: { to: '15557770006', type: 'text', text: { body: 'x' } } });
      expect(pair.status).toBe(429);
      expect(pair.body.error.code).toBe(131056);
    } finally {
      runtime.sandbox!.configure({ throughputByPhoneNumberId: { [phone]: null }, recipientErrors: { '15557770006': null } });
    }
  });
});

describe('templates', () => {
  let createdId: string;

  it('creates a template, which starts PENDING', async () => {
    const body = expectOk(
      await call('POST', `/wabas/${waba}/templates`, {
        body: {
          name: 'it_shipping_notice',
          language: 'en_US',
          category: 'UTILITY',
          components: [{ type: 'BODY', text: 'Your parcel {{1}} is on its way.', example: { body_text: [['P-1']] } }],
        },
      }),
    );
    expect(body).toEqual(expect.objectContaining({ id: expect.any(String), status: 'PENDING', category: 'UTILITY' }));
    createdId = body.id;
    expect(expectOk(await call('GET', `/wabas/${waba}/templates/${createdId}`, { query: { fields: 'name,status' } }))).toEqual(
      expect.objectContaining({ name: 'it_shipping_notice', status: 'PENDING' }),
    );
  });

  it('edits it once reviewed', async () => {
    runtime.sandbox!.setTemplateStatus(createdId, 'APPROVED');
    const body = expectOk(
      await call('POST', `/wabas/${waba}/templates/${createdId}`, {
        body: { components: [{ type: 'BODY', text: 'Parcel {{1}} shipped.', example: { body_text: [['P-2']] } }] },
      }),
    );
    expect(body).toEqual(expect.objectContaining({ success: true }));
  });

  it('compares two of its templates', async () => {
    const body = expectOk(
      await call('GET', `/wabas/${waba}/templates/${demoIds.templateOrderUpdate}/compare`, {
        query: { template_ids: `[${demoIds.templateSpringSale}]`, start: String(now() - 7 * 86_400), end: String(now()) },
      }),
    );
    expect(body).toEqual(expect.objectContaining({ data: expect.any(Array) }));
  });

  it('browses the template library and creates a template from it', async () => {
    const library = expectOk(await call('GET', `/wabas/${waba}/template-library`, { query: { language: 'en_US' } }));
    expect(library.data.length).toBeGreaterThan(0);
    const plain = library.data.find((entry: { buttons?: unknown[] }) => !entry.buttons || entry.buttons.length === 0) ?? library.data[0];
    const body = expectOk(
      await call('POST', `/wabas/${waba}/template-library`, {
        body: { name: 'it_from_library', language: plain.language, category: plain.category, library_template_name: plain.name },
      }),
    );
    expect(body).toEqual(expect.objectContaining({ id: expect.any(String), category: plain.category }));
  });

  it('deletes a template by name (and a missing name is our 400 before Meta)', async () => {
    expect(expectOk(await call('DELETE', `/wabas/${waba}/templates`, { query: { name: 'it_shipping_notice' } }))).toEqual({ success: true });
    expect((await call('DELETE', `/wabas/${waba}/templates`)).body.message).toBe('query parameter name is required');
  });
});

describe('media', () => {
  let mediaId: string;
  it('uploads, reads metadata with a URL, downloads the bytes, and deletes', async () => {
    mediaId = expectOk(
      await multipartCall(runtime, `/phone-numbers/${phone}/media`, [{ name: 'file', value: PNG_1X1, filename: 'pixel.png', type: 'image/png' }]),
    ).id;
    const metadata = expectOk(await call('GET', `/phone-numbers/${phone}/media/${mediaId}`));
    expect(metadata).toEqual(
      expect.objectContaining({
        id: mediaId,
        mime_type: 'image/png',
        file_size: String(PNG_1X1.length),
        url: expect.any(String),
        messaging_product: 'whatsapp',
      }),
    );

    const download = await fetch(`${runtime.baseUrl}/staging/api/v2/upstream/phone-numbers/${phone}/media/${mediaId}/download`, {
      headers: { Authorization: `Bearer ${runtime.demo.accessToken}`, Accept: 'application/octet-stream' },
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await download.arrayBuffer())).toEqual(PNG_1X1);

    expect(expectOk(await call('DELETE', `/phone-numbers/${phone}/media/${mediaId}`))).toEqual({ success: true });
    // Gone: Meta's "does not exist" is our 404.
    expect((await call('GET', `/phone-numbers/${phone}/media/${mediaId}`)).status).toBe(404);
  });
});

describe('profile and settings', () => {
  it('updates the business profile and the settings', async () => {
    expect(expectOk(await call('POST', `/phone-numbers/${phone}/business-profile`, { body: { about: 'Wrapped!', vertical: 'RETAIL' } }))).toEqual({
      success: true,
    });
    const profile = expectOk(await call('GET', `/phone-numbers/${phone}/business-profile`, { query: { fields: 'about,vertical' } }));
    expect(JSON.stringify(profile)).toContain('Wrapped!');
    expect(expectOk(await call('POST', `/phone-numbers/${phone}/settings`, { body: { user_identity_change: { enabled: true } } }))).toEqual({ success: true });
  });
});

describe('analytics', () => {
  it.each([
    ['messaging', { granularity: 'DAY' }, 'analytics'],
    ['conversations', { granularity: 'DAILY', dimensions: 'CONVERSATION_CATEGORY' }, 'conversation_analytics'],
    ['pricing', { granularity: 'DAILY' }, 'pricing_analytics'],
  ])('%s analytics', async (kind, extra, field) => {
    const query = { start: String(now() - 86_400), end: String(now() + 3600), ...extra };
    const body = expectOk(await call('GET', `/wabas/${waba}/analytics/${kind}`, { query }));
    expect(body).toHaveProperty(field);
    expect(body.id).toBe(waba);
  });

  it('template analytics', async () => {
    const body = expectOk(
      await call('GET', `/wabas/${waba}/analytics/templates`, {
        query: { start: String(now() - 86_400), end: String(now()), granularity: 'DAILY', template_ids: `[${demoIds.templateOrderUpdate}]` },
      }),
    );
    expect(body.data).toEqual(expect.any(Array));
  });
});

describe('flows', () => {
  let flowId: string;
  it('creates, reads, updates, uploads its JSON, publishes and deprecates a flow', async () => {
    flowId = expectOk(await call('POST', `/wabas/${waba}/flows`, { body: { name: 'it_signup', categories: ['SIGN_UP'] } })).id;
    expect(expectOk(await call('GET', `/wabas/${waba}/flows`)).data.map((flow: { id: string }) => flow.id)).toContain(flowId);
    expect(expectOk(await call('GET', `/wabas/${waba}/flows/${flowId}`))).toEqual(expect.objectContaining({ id: flowId, name: 'it_signup', status: 'DRAFT' }));
    expect(expectOk(await call('POST', `/wabas/${waba}/flows/${flowId}`, { body: { name: 'it_signup_v2' } }))).toEqual({ success: true });
    const uploaded = expectOk(
      await multipartCall(runtime, `/wabas/${waba}/flows/${flowId}/assets`, [
        { name: 'file', value: FLOW_JSON, filename: 'flow.json', type: 'application/json' },
      ]),
    );
    expect(uploaded).toEqual(expect.objectContaining({ success: true, validation_errors: [] }));
    expect(expectOk(await call('GET', `/wabas/${waba}/flows/${flowId}/assets`)).data[0]).toEqual(expect.objectContaining({ asset_type: 'FLOW_JSON' }));
    expect(expectOk(await call('POST', `/wabas/${waba}/flows/${flowId}/publish`))).toEqual({ success: true });
    expect(expectOk(await call('POST', `/wabas/${waba}/flows/${flowId}/deprecate`))).toEqual({ success: true });
  });

  it("deletes a draft flow; deleting a deprecated one is Meta's 400", async () => {
    const draft = expectOk(await call('POST', `/wabas/${waba}/flows`, { body: { name: 'it_draft', categories: ['OTHER'] } })).id;
    expect(expectOk(await call('DELETE', `/wabas/${waba}/flows/${draft}`))).toEqual({ success: true });
    expect((await call('DELETE', `/wabas/${waba}/flows/${flowId}`)).status).toBe(400);
  });
});

describe('QR codes', () => {
  it('creates, reads, updates and deletes a QR code with a prefilled message', async () => {
    const created = expectOk(
      await call('POST', `/phone-numbers/${phone}/qr-codes`, { body: { prefilled_message: 'I want the spring sale', generate_qr_image: 'PNG' } }),
    );
    expect(created).toEqual(
      expect.objectContaining({ code: expect.any(String), prefilled_message: 'I want the spring sale', deep_link_url: expect.any(String) }),
    );
    const code = created.code;
    expect(expectOk(await call('GET', `/phone-numbers/${phone}/qr-codes`)).data.map((qr: { code: string }) => qr.code)).toContain(code);
    expect(expectOk(await call('POST', `/phone-numbers/${phone}/qr-codes/${code}`, { body: { prefilled_message: 'Changed' } }))).toEqual(
      expect.objectContaining({ code, prefilled_message: 'Changed' }),
    );
    expect(JSON.stringify(expectOk(await call('GET', `/phone-numbers/${phone}/qr-codes/${code}`)))).toContain('Changed');
    expect(expectOk(await call('DELETE', `/phone-numbers/${phone}/qr-codes/${code}`))).toEqual({ success: true });
    expect((await call('GET', `/phone-numbers/${phone}/qr-codes/${code}`)).status).toBe(404);
  });
});

describe('automation and administration', () => {
  it('sets ice breakers, commands and the welcome message', async () => {
    const update = { enable_welcome_message: true, prompts: ['Track my order'], commands: [{ command_name: 'help', command_description: 'Get help' }] };
    expect(expectOk(await call('POST', `/phone-numbers/${phone}/automation`, { body: update }))).toEqual({ success: true });
    expect(JSON.stringify(expectOk(await call('GET', `/phone-numbers/${phone}/automation`)))).toContain('Track my order');
  });

  it('sets the two-step PIN, registers and deregisters the number', async () => {
    expect(expectOk(await call('POST', `/phone-numbers/${phone}/two-step-verification`, { body: { pin: '246810' } }))).toEqual({ success: true });
    expect(expectOk(await call('POST', `/phone-numbers/${phone}/register`, { body: { pin: '246810' } }))).toEqual({ success: true });
    const mismatch = await call('POST', `/phone-numbers/${phone}/register`, { body: { pin: '111111' } });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.error.code).toBe(133005);
    expect(expectOk(await call('POST', `/phone-numbers/${phone}/deregister`))).toEqual({ success: true });
  });

  it("subscribes and unsubscribes the app to the account's webhooks", async () => {
    expect(expectOk(await call('POST', `/wabas/${waba}/subscribed-apps`, { body: {} }))).toEqual({ success: true });
    expect(expectOk(await call('GET', `/wabas/${waba}/subscribed-apps`)).data).toHaveLength(1);
    expect(expectOk(await call('DELETE', `/wabas/${waba}/subscribed-apps`))).toEqual({ success: true });
  });

  it('blocks and unblocks users', async () => {
    const blocked = expectOk(await call('POST', `/phone-numbers/${phone}/block-list`, { body: { block_users: [{ user: '15559990001' }] } }));
    expect(JSON.stringify(blocked)).toContain('15559990001');
    expect(JSON.stringify(expectOk(await call('GET', `/phone-numbers/${phone}/block-list`)))).toContain('15559990001');
    expectOk(await call('POST', `/phone-numbers/${phone}/block-list/unblock`, { body: { block_users: [{ user: '15559990001' }] } }));
    expect(JSON.stringify(expectOk(await call('GET', `/phone-numbers/${phone}/block-list`)))).not.toContain('15559990001');
  });

  it("requests a coexistence sync once (a repeat is Meta's 400)", async () => {
    expect(expectOk(await call('POST', `/phone-numbers/${phone}/coexistence/sync`, { body: { sync_type: 'smb_app_state_sync' } }))).toEqual(
      expect.objectContaining({ success: true, messaging_product: 'whatsapp' }),
    );
    expect((await call('POST', `/phone-numbers/${phone}/coexistence/sync`, { body: { sync_type: 'smb_app_state_sync' } })).status).toBe(400);
  });
});
