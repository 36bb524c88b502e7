/**
 * Every path of Meta's OpenAPI description (v23.0) that the sandbox serves, held against it:
 *
 * - responses fit the operation's 200 schema;
 * - every request example Meta publishes for the operation is accepted (placeholders such as
 *   `<TEMPLATE_NAME>` replaced by real values), except the few listed with the reason;
 * - the bodies these tests send fit the request schema, limits included;
 * - bodies that break the request schema's required fields, enums or limits are refused by the
 *   sandbox's hand-written checks — the YAML is only read here, never by the sandbox.
 *
 * Skipped where the checkout has no `../shared/meta`.
 */
import { checkShape, describeIfMetaSpec, loadMetaSpec, requestExamples, requestSchema, responseSchema, type OpenApiDocument } from './openapi-shape';
import { useSandbox } from '../../support/use-sandbox';
import { PHONE_ID, RECIPIENT, SECOND_PHONE_ID, WABA_ID, expectGraphError, uploadForm, type HttpResult, fixtureAccounts } from './sandbox-test-helpers';

const spec = loadMetaSpec();
const describeWithSpec = describeIfMetaSpec(spec);

/** The YAML operations the sandbox serves; each must be checked below (last test). */
const SERVED = [
  'GET /{Version}/{WABA-ID}',
  'POST /{Version}/{WABA-ID}',
  'GET /{Version}/{WABA-ID}/phone_numbers',
  'GET /{Version}/{Phone-Number-ID}',
  'POST /{Version}/{Phone-Number-ID}',
  'POST /{Version}/{Phone-Number-ID}/marketing_messages',
  'GET /{Version}/{WABA-ID}/message_templates',
  'POST /{Version}/{WABA-ID}/message_templates',
  'DELETE /{Version}/{WABA-ID}/message_templates',
  'GET /{Version}/{TEMPLATE_ID}',
  'POST /{Version}/{TEMPLATE_ID}',
  'POST /{Version}/{Phone-Number-ID}/media',
  'GET /{Version}/{Media-ID}',
  'DELETE /{Version}/{Media-ID}',
  'GET /{Version}/{Media-URL}',
  'GET /{Version}/{Phone-Number-ID}/whatsapp_business_profile',
  'POST /{Version}/{Phone-Number-ID}/whatsapp_business_profile',
  'GET /{Version}/{Phone-Number-ID}/settings',
  'POST /{Version}/{Phone-Number-ID}/settings',
  'GET /{Version}/{WABA-ID}/flows',
  'POST /{Version}/{WABA-ID}/flows',
  'GET /{Version}/{Flow-ID}',
  'POST /{Version}/{Flow-ID}',
  'DELETE /{Version}/{Flow-ID}',
  'GET /{Version}/{Flow-ID}/assets',
  'POST /{Version}/{Flow-ID}/assets',
  'POST /{Version}/{Flow-ID}/publish',
  'POST /{Version}/{Flow-ID}/deprecate',
  'GET /{Version}/{Phone-Number-ID}/message_qrdls',
  'POST /{Version}/{Phone-Number-ID}/message_qrdls',
  'GET /{Version}/{Phone-Number-ID}/message_qrdls/{QR-Code-ID}',
  'DELETE /{Version}/{Phone-Number-ID}/message_qrdls/{QR-Code-ID}',
  'POST /{Version}/{Phone-Number-ID}/conversational_automation',
  'POST /{Version}/{Phone-Number-ID}/register',
  'POST /{Version}/{Phone-Number-ID}/deregister',
  'GET /{Version}/{WABA-ID}/subscribed_apps',
  'POST /{Version}/{WABA-ID}/subscribed_apps',
  'DELETE /{Version}/{WABA-ID}/subscribed_apps',
  'GET /{Version}/{Phone-Number-ID}/block_users',
  'POST /{Version}/{Phone-Number-ID}/block_users',
  'DELETE /{Version}/{Phone-Number-ID}/block_users',
];

const FLOW_JSON = JSON.stringify({ version: '7.0', screens: [{ id: 'WELCOME', terminal: true, layout: { type: 'SingleColumnLayout', children: [] } }] });

describeWithSpec("Meta's OpenAPI description (v23.0): every served path", () => {
  const doc = spec as OpenApiDocument;
  const checked = new Set<string>();
  let sequence = 0;

  const client = useSandbox({ accounts: fixtureAccounts() });

  const unique = (prefix: string) => {
    sequence += 1;
    return `${prefix}_${sequence}`;
  };

  /** The response is a 200 that fits the operation's schema. */
  function expectFits(operation: string, result: HttpResult): void {
    const [method = '', path = ''] = operation.split(' ');
    expect({ operation, status: result.status, body: result.status === 200 ? 'ok' : result.body }).toEqual({ operation, status: 200, body: 'ok' });
    expect(checkShape(doc, responseSchema(doc, path, method.toLowerCase(), '200'), result.body)).toEqual([]);
    checked.add(operation);
  }

  /** A body this suite sends fits the YAML's request schema, limits included. */
  function expectValidRequest(operation: string, body: unknown, contentType = 'application/json'): void {
    const [method = '', path = ''] = operation.split(' ');
    expect(checkShape(doc, requestSchema(doc, path, method.toLowerCase(), contentType), body, { constraints: true })).toEqual([]);
  }

  /** Posts each published example; `except` lists examples the sandbox refuses, with the reason. */
  async function postExamples(operation: string, send: (name: string, body: any) => Promise<HttpResult>, except: Record<string, string> = {}): Promise<void> {
    const [method = '', path = ''] = operation.split(' ');
    const examples = requestExamples(doc, path, method.toLowerCase());
    expect(Object.keys(examples).length).toBeGreaterThan(0);
    const outcomes: string[] = [];
    for (const [name, body] of Object.entries(examples)) {
      const result = await send(name, structuredClone(body));
      const accepted = result.status === 200;
      if (accepted && name in except) outcomes.push(`${name}: accepted, but listed as refused`);
      if (!accepted && !(name in except)) outcomes.push(`${name}: ${JSON.stringify(result.body?.error?.message)}`);
      if (accepted) expect(checkShape(doc, responseSchema(doc, path, method.toLowerCase(), '200'), result.body)).toEqual([]);
    }
    expect(outcomes).toEqual([]);
    checked.add(operation);
  }

  /** A body breaking the YAML's request schema: the YAML says so, and the sandbox refuses it. */
  async function expectMirroredRejection(operation: string, body: unknown, send: () => Promise<HttpResult>): Promise<void> {
    const [method = '', path = ''] = operation.split(' ');
    expect(checkShape(doc, requestSchema(doc, path, method.toLowerCase()), body, { constraints: true })).not.toEqual([]);
    expectGraphError(await send(), 400, 100);
  }

  describe('accounts and numbers', () => {
    it('GET /{WABA-ID} with fields fits WhatsAppBusinessAccount', async () => {
      expectFits(
        'GET /{Version}/{WABA-ID}',
        await client.graph('GET', `/${WABA_ID}?fields=name,timezone_id,account_review_status,business_verification_status,ownership_type,currency`),
      );
    });

    it('POST /{WABA-ID}: examples and limits', async () => {
      const operation = 'POST /{Version}/{WABA-ID}';
      await postExamples(operation, (_name, body) => client.graph('POST', `/${WABA_ID}`, { body }));
      await expectMirroredRejection(operation, { name: '' }, () => client.graph('POST', `/${WABA_ID}`, { body: { name: '' } }));
      await expectMirroredRejection(operation, { name: 'x'.repeat(101) }, () => client.graph('POST', `/${WABA_ID}`, { body: { name: 'x'.repeat(101) } }));
      expect((await client.graph('GET', `/${WABA_ID}?fields=name,timezone_id`)).body).toEqual({ id: WABA_ID, name: 'Updated Business Name', timezone_id: '2' });
      expect((await client.graph('POST', `/${WABA_ID}`, { body: { name: 'Account A', timezone_id: '1' } })).status).toBe(200);
    });

    it('GET /{WABA-ID}/phone_numbers and GET /{Phone-Number-ID} are covered by meta-openapi-conformance.test.ts', () => {
      checked.add('GET /{Version}/{WABA-ID}/phone_numbers');
      checked.add('GET /{Version}/{Phone-Number-ID}');
    });

    it('POST /{Phone-Number-ID}: examples and limits', async () => {
      const operation = 'POST /{Version}/{Phone-Number-ID}';
      await postExamples(operation, (_name, body) => client.graph('POST', `/${SECOND_PHONE_ID}`, { body }), {
        update_connection_status: 'connection_status is not a setting the Cloud API documents',
        configure_webhook: 'webhook_url is not a setting the Cloud API documents (webhook_configuration is)',
        set_username: 'usernames are not part of the Cloud API documentation yet',
        comprehensive_update: 'carries connection_status, webhook_url and username',
      });
      const body = { pin: '123456' };
      expectValidRequest(operation, body);
      expectFits(operation, await client.graph('POST', `/${PHONE_ID}`, { body }));
      await expectMirroredRejection(operation, { new_display_name: 'A' }, () => client.graph('POST', `/${PHONE_ID}`, { body: { new_display_name: 'A' } }));
    });

    it('register and deregister: examples and limits', async () => {
      const register = 'POST /{Version}/{Phone-Number-ID}/register';
      await postExamples(register, (_name, body) => client.graph('POST', `/${SECOND_PHONE_ID}/register`, { body }));
      for (const invalid of [
        { messaging_product: 'whatsapp' },
        { messaging_product: 'whatsapp', pin: '12345' },
        { messaging_product: 'whatsapp', pin: '123456', tier: 'GOLD' },
        { messaging_product: 'whatsapp', pin: '123456', meta_store_retention_minutes: 30 },
      ]) {
        await expectMirroredRejection(register, invalid, () => client.graph('POST', `/${SECOND_PHONE_ID}/register`, { body: invalid }));
      }
      expectFits('POST /{Version}/{Phone-Number-ID}/deregister', await client.graph('POST', `/${SECOND_PHONE_ID}/deregister`));
      expectFits(register, await client.graph('POST', `/${SECOND_PHONE_ID}/register`, { body: { messaging_product: 'whatsapp', pin: '123456' } }));
    });

    it('subscribed_apps: examples and responses', async () => {
      await postExamples('POST /{Version}/{WABA-ID}/subscribed_apps', (_name, body) => {
        if (typeof body.override_callback_uri === 'string') body.override_callback_uri = 'https://hooks.example.com/waba';
        return client.graph('POST', `/${WABA_ID}/subscribed_apps`, { body });
      });
      expectFits('GET /{Version}/{WABA-ID}/subscribed_apps', await client.graph('GET', `/${WABA_ID}/subscribed_apps`));
      expectFits('DELETE /{Version}/{WABA-ID}/subscribed_apps', await client.graph('DELETE', `/${WABA_ID}/subscribed_apps`));
    });

    it('block_users: examples and responses', async () => {
      await postExamples('POST /{Version}/{Phone-Number-ID}/block_users', (_name, body) => client.graph('POST', `/${PHONE_ID}/block_users`, { body }));
      expectFits('GET /{Version}/{Phone-Number-ID}/block_users', await client.graph('GET', `/${PHONE_ID}/block_users`));
      await postExamples('DELETE /{Version}/{Phone-Number-ID}/block_users', (_name, body) => client.graph('DELETE', `/${PHONE_ID}/block_users`, { body }));
    });

    it('conversational_automation: examples and limits', async () => {
      const operation = 'POST /{Version}/{Phone-Number-ID}/conversational_automation';
      await postExamples(operation, (_name, body) => client.graph('POST', `/${PHONE_ID}/conversational_automation`, { body }));
      const invalid = [
        { commands: [{ command_name: 'two words', command_description: 'x' }] },
        { commands: [{ command_name: 'help', command_description: 'x'.repeat(257) }] },
        { commands: Array.from({ length: 31 }, (_, index) => ({ command_name: `c${index}`, command_description: 'x' })) },
        { prompts: ['x'.repeat(81)] },
      ];
      for (const body of invalid)
        await expectMirroredRejection(operation, body, () => client.graph('POST', `/${PHONE_ID}/conversational_automation`, { body }));
    });
  });

  describe('profile and settings', () => {
    it('whatsapp_business_profile: examples, response and limits', async () => {
      const operation = 'POST /{Version}/{Phone-Number-ID}/whatsapp_business_profile';
      await postExamples(operation, (_name, body) => client.graph('POST', `/${PHONE_ID}/whatsapp_business_profile`, { body }));
      expectFits(
        'GET /{Version}/{Phone-Number-ID}/whatsapp_business_profile',
        await client.graph('GET', `/${PHONE_ID}/whatsapp_business_profile?fields=about,address,description,email,profile_picture_url,websites,vertical`),
      );
      const invalid = [
        { about: 'x' },
        { messaging_product: 'whatsapp', about: 'x'.repeat(140) },
        { messaging_product: 'whatsapp', websites: ['https://a.example', 'https://b.example', 'https://c.example'] },
        { messaging_product: 'whatsapp', vertical: 'SPACE' },
      ];
      for (const body of invalid)
        await expectMirroredRejection(operation, body, () => client.graph('POST', `/${PHONE_ID}/whatsapp_business_profile`, { body }));
    });

    it('settings: examples, response and required fields', async () => {
      const operation = 'POST /{Version}/{Phone-Number-ID}/settings';
      await postExamples(operation, (_name, body) => client.graph('POST', `/${PHONE_ID}/settings`, { body }));
      expectFits('GET /{Version}/{Phone-Number-ID}/settings', await client.graph('GET', `/${PHONE_ID}/settings`));
      await expectMirroredRejection(operation, { calling: { call_icon_visibility: 'visible' } }, () =>
        client.graph('POST', `/${PHONE_ID}/settings`, { body: { calling: { call_icon_visibility: 'visible' } } }),
      );
    });
  });

  describe('templates', () => {
    let flowId = '';
    let flowName = '';

    beforeAll(async () => {
      flowName = unique('template flow');
      flowId = (await client.graph('POST', `/${WABA_ID}/flows`, { body: { name: flowName, categories: ['OTHER'] } })).body.id;
    });

    it('POST /{WABA-ID}/message_templates accepts every published example', async () => {
      await postExamples('POST /{Version}/{WABA-ID}/message_templates', (_name, body) => {
        // Several examples share a name; each gets its own so none clashes with another.
        body.name = unique(typeof body.name === 'string' && /^[a-z0-9_]+$/.test(body.name) ? body.name : 'example');
        for (const component of body.components ?? []) {
          for (const button of component.buttons ?? []) {
            if (button.flow_id === '{{Flow-ID}}') button.flow_id = flowId;
            if (button.flow_name === '{{Flow-Name}}') button.flow_name = flowName;
          }
        }
        return client.graph('POST', `/${WABA_ID}/message_templates`, { body });
      });
    });

    it('GET, POST (edit example) and DELETE templates fit their schemas', async () => {
      const editOperation = 'POST /{Version}/{TEMPLATE_ID}';
      const example = requestExamples(doc, '/{Version}/{TEMPLATE_ID}', 'post')['Edit template'];
      const created = await client.graph('POST', `/${WABA_ID}/message_templates`, {
        body: { name: example.name, language: example.language, category: example.category, components: [{ type: 'BODY', text: 'Fall sale' }] },
      });
      expectFits('GET /{Version}/{TEMPLATE_ID}', await client.graph('GET', `/${created.body.id}`));
      client.sandbox.setTemplateStatus(created.body.id, 'APPROVED');
      await postExamples(editOperation, (_name, body) => client.graph('POST', `/${created.body.id}`, { body }));
      expectFits(
        'DELETE /{Version}/{WABA-ID}/message_templates',
        await client.graph('DELETE', `/${WABA_ID}/message_templates?name=${example.name}&hsm_id=${created.body.id}`),
      );
      checked.add('GET /{Version}/{WABA-ID}/message_templates'); // meta-openapi-conformance.test.ts
    });

    it('marketing_messages accepts every published example, and mirrors its required fields', async () => {
      const operation = 'POST /{Version}/{Phone-Number-ID}/marketing_messages';
      // The examples name these templates; the sandbox gets approved MARKETING ones to match.
      const fixtures: Array<[string, string, Array<Record<string, unknown>>]> = [
        ['hello_world', 'en', [{ type: 'BODY', text: 'Hello from the sandbox' }]],
        ['welcome_offer', 'en_US', [{ type: 'BODY', text: 'Welcome! Here is your offer.' }]],
        ['promotional_offer', 'en', [{ type: 'BODY', text: 'Hi {{1}}, take {{2}} off today.', example: { body_text: [['Ann', '$5']] } }]],
      ];
      for (const [name, language, components] of fixtures) {
        const created = await client.graph('POST', `/${WABA_ID}/message_templates`, { body: { name, language, category: 'MARKETING', components } });
        client.sandbox.setTemplateStatus(created.body.id, 'APPROVED');
      }
      // One example sends with product_policy STRICT, which needs an onboarded account.
      client.sandbox.setMarketingMessagesOnboarding(WABA_ID, 'ONBOARDED');
      await postExamples(operation, (_name, body) => client.graph('POST', `/${PHONE_ID}/marketing_messages`, { body }));
      const { recipient_type: _dropped, ...withoutRecipientType } = {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: RECIPIENT,
        type: 'template',
        template: { name: 'hello_world', language: { code: 'en', policy: 'deterministic' } },
      };
      await expectMirroredRejection(operation, withoutRecipientType, () =>
        client.graph('POST', `/${PHONE_ID}/marketing_messages`, { body: withoutRecipientType }),
      );
      const wrongType = { ...withoutRecipientType, recipient_type: 'individual', type: 'text' };
      await expectMirroredRejection(operation, wrongType, () => client.graph('POST', `/${PHONE_ID}/marketing_messages`, { body: wrongType }));
    });
  });

  describe('media', () => {
    it('upload (multipart), retrieve, download and delete fit their schemas', async () => {
      const upload = 'POST /{Version}/{Phone-Number-ID}/media';
      // The YAML's JSON examples carry curl's "@/local/path" notation, which is not a file; the
      // multipart schema is what clients send.
      expectValidRequest(upload, { messaging_product: 'whatsapp', file: '<binary>' }, 'multipart/form-data');
      const uploaded = await client.graph('POST', `/${PHONE_ID}/media`, {
        form: uploadForm({ messaging_product: 'whatsapp' }, { name: 'a.jpg', type: 'image/jpeg', data: Buffer.from([0xff, 0xd8, 0xff]) }),
      });
      expectFits(upload, uploaded);
      const info = await client.graph('GET', `/${uploaded.body.id}?phone_number_id=${PHONE_ID}`);
      expectFits('GET /{Version}/{Media-ID}', info);
      const download = await client.download(info.body.url);
      expect(download.status).toBe(200);
      expect(download.bytes).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
      checked.add('GET /{Version}/{Media-URL}');
      expectFits('DELETE /{Version}/{Media-ID}', await client.graph('DELETE', `/${uploaded.body.id}?phone_number_id=${PHONE_ID}`));
    });
  });

  describe('flows', () => {
    it('the flow lifecycle fits every flow schema', async () => {
      const createFields = { name: unique('conformance flow'), categories: '["SIGN_UP"]' };
      expectValidRequest('POST /{Version}/{WABA-ID}/flows', createFields, 'multipart/form-data');
      const created = await client.graph('POST', `/${WABA_ID}/flows`, { form: uploadForm(createFields) });
      expectFits('POST /{Version}/{WABA-ID}/flows', created);
      const id = created.body.id;
      expectFits('GET /{Version}/{WABA-ID}/flows', await client.graph('GET', `/${WABA_ID}/flows`));
      const update = { name: unique('renamed flow') };
      expectValidRequest('POST /{Version}/{Flow-ID}', update, 'multipart/form-data');
      expectFits('POST /{Version}/{Flow-ID}', await client.graph('POST', `/${id}`, { form: uploadForm(update) }));
      const asset = { name: 'flow.json', asset_type: 'FLOW_JSON' };
      expectValidRequest('POST /{Version}/{Flow-ID}/assets', { ...asset, file: '<binary>' }, 'multipart/form-data');
      expectFits(
        'POST /{Version}/{Flow-ID}/assets',
        await client.graph('POST', `/${id}/assets`, { form: uploadForm(asset, { name: 'flow.json', type: 'application/json', data: FLOW_JSON }) }),
      );
      expectFits('GET /{Version}/{Flow-ID}/assets', await client.graph('GET', `/${id}/assets`));
      expectFits(
        'GET /{Version}/{Flow-ID}',
        await client.graph(
          'GET',
          `/${id}?fields=name,categories,status,validation_errors,json_version,preview,health_status,whatsapp_business_account,application`,
        ),
      );
      expectFits('POST /{Version}/{Flow-ID}/publish', await client.graph('POST', `/${id}/publish`));
      expectFits('POST /{Version}/{Flow-ID}/deprecate', await client.graph('POST', `/${id}/deprecate`));
      const draft = await client.graph('POST', `/${WABA_ID}/flows`, { form: uploadForm({ name: unique('draft flow'), categories: '["OTHER"]' }) });
      expectFits('DELETE /{Version}/{Flow-ID}', await client.graph('DELETE', `/${draft.body.id}`));
    });
  });

  describe('QR codes', () => {
    it('create (examples), list, read and delete fit their schemas', async () => {
      const operation = 'POST /{Version}/{Phone-Number-ID}/message_qrdls';
      const existing = (await client.graph('POST', `/${PHONE_ID}/message_qrdls`, { body: { prefilled_message: 'Existing' } })).body.code as string;
      await postExamples(operation, (_name, body) => {
        // The update example names a code of Meta's; update one of the sandbox's instead.
        if (typeof body.code === 'string') body.code = existing;
        return client.graph('POST', `/${PHONE_ID}/message_qrdls`, { body });
      });
      expectFits('GET /{Version}/{Phone-Number-ID}/message_qrdls', await client.graph('GET', `/${PHONE_ID}/message_qrdls`));
      expectFits('GET /{Version}/{Phone-Number-ID}/message_qrdls/{QR-Code-ID}', await client.graph('GET', `/${PHONE_ID}/message_qrdls/${existing}`));
      expectFits('DELETE /{Version}/{Phone-Number-ID}/message_qrdls/{QR-Code-ID}', await client.graph('DELETE', `/${PHONE_ID}/message_qrdls/${existing}`));
      for (const body of [{ prefilled_message: 'x'.repeat(141) }, { prefilled_message: 'x', generate_qr_image: 'GIF' }, { generate_qr_image: 'PNG' }]) {
        await expectMirroredRejection(operation, body, () => client.graph('POST', `/${PHONE_ID}/message_qrdls`, { body }));
      }
    });
  });

  it('checked every served operation, and every one of them is in the YAML', () => {
    for (const operation of SERVED) {
      const [method = '', path = ''] = operation.split(' ');
      expect({ operation, inYaml: doc.paths[path]?.[method.toLowerCase()] !== undefined }).toEqual({ operation, inYaml: true });
    }
    expect(SERVED.filter((operation) => !checked.has(operation))).toEqual([]);
  });
});
