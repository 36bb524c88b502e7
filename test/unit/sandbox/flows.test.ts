/** WhatsApp Flows: create, Flow JSON assets and validation, DRAFT → PUBLISHED → DEPRECATED. */
import { jsonSyntaxErrorOffset } from '../../../sandbox/json-syntax';
import { useSandbox } from '../../support/use-sandbox';
import { OTHER_TOKEN, WABA_ID, expectGraphError, uploadForm, fixtureAccounts } from './sandbox-test-helpers';

let sequence = 0;

const VALID_FLOW = JSON.stringify({
  version: '7.0',
  screens: [{ id: 'WELCOME', title: 'Welcome', terminal: true, layout: { type: 'SingleColumnLayout', children: [{ type: 'TextHeading', text: 'Hello' }] } }],
});

const client = useSandbox({ accounts: fixtureAccounts() });

function flowName(): string {
  sequence += 1;
  return `flow ${sequence}`;
}

async function createFlow(body: Record<string, unknown> = {}): Promise<string> {
  const result = await client.graph('POST', `/${WABA_ID}/flows`, { body: { name: flowName(), categories: ['SIGN_UP'], ...body } });
  expect(result.status).toBe(200);
  return result.body.id;
}

function uploadAsset(flowId: string, json: string, fields: Record<string, string> = {}) {
  return client.graph('POST', `/${flowId}/assets`, {
    form: uploadForm({ name: 'flow.json', asset_type: 'FLOW_JSON', ...fields }, { name: 'flow.json', type: 'application/json', data: json }),
  });
}

describe('creating and reading flows', () => {
  it('creates a DRAFT flow from JSON and lists it', async () => {
    const name = flowName();
    const created = await client.graph('POST', `/${WABA_ID}/flows`, { body: { name, categories: ['SIGN_UP', 'OTHER'] } });
    expect(created.body).toEqual({ id: expect.stringMatching(/^\d+$/) });
    const listed = await client.graph('GET', `/${WABA_ID}/flows`);
    expect(listed.body.data).toContainEqual({ id: created.body.id, name, status: 'DRAFT', categories: ['SIGN_UP', 'OTHER'], validation_errors: [] });
    const read = await client.graph('GET', `/${created.body.id}`);
    expect(read.body).toEqual({ id: created.body.id, name, status: 'DRAFT', categories: ['SIGN_UP', 'OTHER'], validation_errors: [] });
  });

  it('creates from multipart form data, as curl -F does, with the Flow JSON inline', async () => {
    const created = await client.graph('POST', `/${WABA_ID}/flows`, {
      form: uploadForm({ name: flowName(), categories: '["LEAD_GENERATION"]', flow_json: VALID_FLOW }),
    });
    expect(created.body).toEqual({ id: expect.any(String), success: true, validation_errors: [] });
    const read = await client.graph(
      'GET',
      `/${created.body.id}?fields=name,categories,json_version,preview,health_status,whatsapp_business_account,application`,
    );
    expect(read.body).toMatchObject({
      categories: ['LEAD_GENERATION'],
      json_version: '7.0',
      preview: {
        preview_url: expect.stringContaining(`/wa/manage/flows/${created.body.id}/preview/`),
        expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+0000$/),
      },
      health_status: { can_send_message: 'AVAILABLE' },
      whatsapp_business_account: { id: WABA_ID },
      application: { id: expect.any(String), name: expect.any(String) },
    });
  });

  it('creates and publishes in one call, and clones a flow', async () => {
    const published = await client.graph('POST', `/${WABA_ID}/flows`, {
      body: { name: flowName(), categories: ['OTHER'], flow_json: VALID_FLOW, publish: true },
    });
    expect((await client.graph('GET', `/${published.body.id}?fields=status`)).body.status).toBe('PUBLISHED');
    const clone = await client.graph('POST', `/${WABA_ID}/flows`, { body: { name: flowName(), categories: ['OTHER'], clone_flow_id: published.body.id } });
    expect(clone.body).toMatchObject({ success: true, validation_errors: [] });
    expect((await client.graph('GET', `/${clone.body.id}?fields=status,json_version`)).body).toMatchObject({ status: 'DRAFT', json_version: '7.0' });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a missing name', { name: undefined }, '(#100) The parameter name is required.'],
    ['no categories', { categories: [] }, 'Param categories must have at least 1 elements.'],
    ['an unknown category', { categories: ['GAMES'] }, 'Param categories[0] must be one of {SIGN_UP'],
    ['an http endpoint', { endpoint_uri: 'http://example.com/flow' }, 'Param endpoint_uri must be an HTTPS URL.'],
    ['an unknown clone source', { clone_flow_id: '123' }, 'Invalid parameter'],
    ['an unknown Flow JSON version', { flow_json: JSON.stringify({ version: '1.0', screens: [] }) }, 'Invalid parameter'],
  ])('rejects %s', async (_case, overrides, message) => {
    const body: Record<string, unknown> = { name: flowName(), categories: ['OTHER'], ...overrides };
    if ('name' in overrides && overrides.name === undefined) delete body.name;
    const result = await client.graph('POST', `/${WABA_ID}/flows`, { body });
    expectGraphError(result, 400, 100);
    expect(result.body.error.message).toContain(message);
  });

  it("answers Meta's 'Flow name is not unique' for a duplicate name in the WABA", async () => {
    const name = flowName();
    await client.graph('POST', `/${WABA_ID}/flows`, { body: { name, categories: ['OTHER'] } });
    const duplicate = await client.graph('POST', `/${WABA_ID}/flows`, { body: { name, categories: ['OTHER'] } });
    expect(duplicate.body.error).toMatchObject({ code: 100, error_user_title: 'Flow name is not unique' });
    expect((await client.graph('POST', '/1000002/flows', { token: OTHER_TOKEN, body: { name, categories: ['OTHER'] } })).status).toBe(200);
  });

  it('updates metadata and refuses names of other flows', async () => {
    const id = await createFlow();
    const taken = flowName();
    await createFlow({ name: taken });
    expect(
      (await client.graph('POST', `/${id}`, { body: { name: 'renamed flow', categories: ['SURVEY'], endpoint_uri: 'https://example.com/endpoint' } })).body,
    ).toEqual({ success: true });
    expect((await client.graph('GET', `/${id}?fields=name,categories,endpoint_uri`)).body).toEqual({
      id,
      name: 'renamed flow',
      categories: ['SURVEY'],
      endpoint_uri: 'https://example.com/endpoint',
    });
    expect((await client.graph('POST', `/${id}`, { body: { name: taken } })).body.error.error_user_title).toBe('Flow name is not unique');
    expect((await client.graph('POST', `/${id}`, { body: {} })).body.error.message).toContain('At least one of name, categories, endpoint_uri');
  });
});

describe('Flow JSON assets', () => {
  it('uploads flow.json, lists it with a download URL serving the same JSON', async () => {
    const id = await createFlow();
    expect((await client.graph('GET', `/${id}/assets`)).body).toEqual({ data: [] });
    const uploaded = await uploadAsset(id, VALID_FLOW);
    expect(uploaded.body).toEqual({ success: true, validation_errors: [] });
    const assets = await client.graph('GET', `/${id}/assets`);
    expect(assets.body.data).toEqual([
      { name: 'flow.json', asset_type: 'FLOW_JSON', download_url: expect.stringContaining('/whatsapp_business/flow_assets/') },
    ]);
    const download = await client.download(assets.body.data[0].download_url, null);
    expect(download.status).toBe(200);
    expect(download.bytes.toString()).toBe(VALID_FLOW);
    expect((await client.download(assets.body.data[0].download_url.replace(/hash=[^&]+/, 'hash=x'), null)).status).toBe(404);
  });

  it('reports problems in the Flow JSON as validation errors with positions', async () => {
    const id = await createFlow();
    const broken = await uploadAsset(id, '{"version": "7.0",\n "screens": [ }');
    expect(broken.body.success).toBe(true);
    expect(broken.body.validation_errors).toEqual([
      expect.objectContaining({ error: 'INVALID_JSON', error_type: 'JSON_SYNTAX_ERROR', line_start: 2, line_end: 2, column_start: 15 }),
    ]);
    const noTerminal = await uploadAsset(
      id,
      JSON.stringify({ version: '7.0', screens: [{ id: 'A', layout: { type: 'SingleColumnLayout', children: [] } }, { layout: {} }] }),
    );
    expect(noTerminal.body.validation_errors.map((error: { error: string }) => error.error)).toEqual([
      'INVALID_PROPERTY_VALUE',
      'MISSING_REQUIRED_PROPERTY',
      'MISSING_TERMINAL_SCREEN',
    ]);
    expect(noTerminal.body.validation_errors[1].message).toBe('The property "layout" with "children" is required at "$root/screens/1".');
    expect((await client.graph('GET', `/${id}?fields=validation_errors`)).body.validation_errors).toHaveLength(3);
  });

  it('answers code 100 for an unknown version, a wrong asset type or a missing file', async () => {
    const id = await createFlow();
    const version = await uploadAsset(id, JSON.stringify({ version: '0.9', screens: [] }));
    expect(version.body.error).toMatchObject({ code: 100, error_user_title: 'Invalid Flow JSON version' });
    expect((await uploadAsset(id, VALID_FLOW, { asset_type: 'IMAGE' })).body.error.message).toContain('Param asset_type must be one of {FLOW_JSON}');
    const noFile = await client.graph('POST', `/${id}/assets`, { form: uploadForm({ name: 'flow.json', asset_type: 'FLOW_JSON' }) });
    expect(noFile.body.error.message).toBe('(#100) The parameter file is required.');
  });
});

describe('jsonSyntaxErrorOffset', () => {
  it.each(['{}', '[]', ' {"a":[1,2.5,-3e+2,true,false,null,"x\\u00e9\\n"]} ', '"s"', '0'])('accepts %s', (text) => {
    expect(jsonSyntaxErrorOffset(text)).toBeUndefined();
  });

  it.each<[string, number]>([
    ['{', 1],
    ['[1,]', 3],
    ['{"a" 1}', 5],
    ['01', 1],
    ['"\\x"', 2],
    ['tru', 3],
    ['{} x', 3],
    ['', 0],
    ['"abc', 4],
    ['[1 2]', 3],
  ])('finds the error in %j at %d, where JSON.parse fails too', (text, offset) => {
    expect(jsonSyntaxErrorOffset(text)).toBe(offset);
    expect(() => JSON.parse(text)).toThrow();
  });
});

describe('lifecycle', () => {
  it('publishes a valid draft, deprecates it, and refuses every invalid transition', async () => {
    const id = await createFlow();
    const withoutJson = await client.graph('POST', `/${id}/publish`);
    expect(withoutJson.body.error).toMatchObject({ code: 139002, message: '(#139002) Publishing Flow without Flow JSON' });

    await uploadAsset(id, JSON.stringify({ version: '7.0', screens: [] }));
    const invalid = await client.graph('POST', `/${id}/publish`);
    expect(invalid.body.error).toMatchObject({ code: 139002, error_user_title: 'Publishing Flow with validation errors' });

    const deprecateDraft = await client.graph('POST', `/${id}/deprecate`);
    expect(deprecateDraft.body.error).toMatchObject({ code: 139003, error_user_title: "Can't deprecate unpublished flow" });

    await uploadAsset(id, VALID_FLOW);
    expect((await client.graph('POST', `/${id}/publish`)).body).toEqual({ success: true });
    expect((await client.graph('GET', `/${id}?fields=status`)).body.status).toBe('PUBLISHED');

    expect((await client.graph('POST', `/${id}/publish`)).body.error).toMatchObject({ code: 139002, error_user_title: 'Publishing Flow in invalid state' });
    expect((await uploadAsset(id, VALID_FLOW)).body.error).toMatchObject({ code: 139001, error_user_title: "Flow can't be updated" });
    expect((await client.graph('DELETE', `/${id}`)).body.error).toMatchObject({ code: 139004, error_user_title: "Can't delete published Flow" });

    expect((await client.graph('POST', `/${id}/deprecate`)).body).toEqual({ success: true });
    expect((await client.graph('GET', `/${id}?fields=status,health_status`)).body).toMatchObject({
      status: 'DEPRECATED',
      health_status: { can_send_message: 'BLOCKED' },
    });
    expect((await client.graph('POST', `/${id}/deprecate`)).body.error).toMatchObject({ code: 139003, error_user_title: 'Flow is already deprecated' });
    expect((await client.graph('POST', `/${id}`, { body: { name: flowName() } })).body.error.code).toBe(139001);
    expect((await client.graph('DELETE', `/${id}`)).body.error.code).toBe(139004);
  });

  it('requires endpoint_uri before publishing a flow that exchanges data', async () => {
    const id = await createFlow();
    await uploadAsset(id, JSON.stringify({ ...JSON.parse(VALID_FLOW), data_api_version: '3.0' }));
    expect((await client.graph('POST', `/${id}/publish`)).body.error.error_user_title).toBe('Publishing without specifying endpoint_uri is forbidden');
    await client.graph('POST', `/${id}`, { body: { endpoint_uri: 'https://example.com/flow-endpoint' } });
    expect((await client.graph('POST', `/${id}/publish`)).status).toBe(200);
  });

  it('deletes drafts: the id stops existing', async () => {
    const id = await createFlow();
    expect((await client.graph('DELETE', `/${id}`)).body).toEqual({ success: true });
    expect((await client.graph('GET', `/${id}`)).body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it("lets a FLOW template button reference the WABA's flows by id or name", async () => {
    const name = flowName();
    const id = await createFlow({ name });
    for (const reference of [{ flow_id: id }, { flow_name: name }]) {
      sequence += 1;
      const created = await client.graph('POST', `/${WABA_ID}/message_templates`, {
        body: {
          name: `flow_offer_${sequence}`,
          language: 'en_US',
          category: 'MARKETING',
          components: [
            { type: 'BODY', text: 'Check out this offer' },
            { type: 'BUTTONS', buttons: [{ type: 'FLOW', text: 'Open', flow_action: 'navigate', navigate_screen: 'WELCOME', ...reference }] },
          ],
        },
      });
      expect(created.body.status).toBe('PENDING');
    }
  });

  it("refuses another account's token on flows", async () => {
    const id = await createFlow();
    expectGraphError(await client.graph('GET', `/${id}`, { token: OTHER_TOKEN }), 401, 190);
    expectGraphError(await client.graph('POST', `/${id}/publish`, { token: OTHER_TOKEN }), 401, 190);
  });
});
