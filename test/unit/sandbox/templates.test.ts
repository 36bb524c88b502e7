/** Template management: create, validation, review, edit limits, delete, Template Library. */
import { useSandbox } from '../../support/use-sandbox';
import { DAY, HOUR, OTHER_TOKEN, PHONE_ID, TestClock, WABA_ID, expectGraphError, templateMessage, fixtureAccounts } from './sandbox-test-helpers';

const clock = new TestClock();
let sequence = 0;

const client = useSandbox({ accounts: fixtureAccounts(), now: () => clock.now });

/** A fresh template name per test, since templates persist for the sandbox's life. */
function uniqueName(prefix = 'tpl'): string {
  sequence += 1;
  return `${prefix}_${sequence}`;
}

function draft(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    language: 'en_US',
    category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Hi {{1}}, your code is {{2}}.', example: { body_text: [['Ann', 'X1']] } }],
    ...overrides,
  };
}

const create = (body: Record<string, unknown>, token?: string) =>
  client.graph('POST', `/${WABA_ID}/message_templates`, { body, ...(token === undefined ? {} : { token }) });

describe('POST /{waba-id}/message_templates', () => {
  it('creates a PENDING template that cannot be sent until reviewed', async () => {
    const name = uniqueName();
    const created = await create(draft(name));
    expect(created.status).toBe(200);
    expect(created.body).toEqual({ id: expect.stringMatching(/^\d+$/), status: 'PENDING', category: 'UTILITY' });

    const listed = await client.graph('GET', `/${WABA_ID}/message_templates?name=${name}`);
    expect(listed.body.data).toEqual([
      expect.objectContaining({ id: created.body.id, name, language: 'en_US', status: 'PENDING', category: 'UTILITY', parameter_format: 'POSITIONAL' }),
    ]);
    expect((await client.graph('GET', `/${created.body.id}`)).body).toMatchObject({ id: created.body.id, name, status: 'PENDING' });

    expectGraphError(await client.send(templateMessage(name, 'en_US', ['Ann', 'X1'])), 404, 132001);
    const reviewed = await client.sandboxApi('POST', `/templates/${created.body.id}/status`, { status: 'APPROVED' });
    expect(reviewed.status).toBe(200);
    expect((await client.send(templateMessage(name, 'en_US', ['Ann', 'X1']))).status).toBe(200);
    expectGraphError(await client.send(templateMessage(name, 'en_US', ['Ann'])), 400, 132000);
  });

  it("answers Meta's 2388024 for a name + language the WABA has, and allows other languages", async () => {
    const name = uniqueName();
    expect((await create(draft(name))).status).toBe(200);
    const duplicate = await create(draft(name));
    expectGraphError(duplicate, 400, 100);
    expect(duplicate.body.error).toMatchObject({
      message: 'Invalid parameter',
      error_subcode: 2388024,
      error_user_title: 'Content in This Language Already Exists',
      error_user_msg: expect.stringContaining('en_US'),
    });
    expect((await create(draft(name, { language: 'de' }))).status).toBe(200);
    // Another WABA may use the same name.
    expect((await client.graph('POST', '/1000002/message_templates', { token: OTHER_TOKEN, body: draft(name) })).status).toBe(200);
  });

  it('accepts form-encoded parameters and lower-case component types and categories', async () => {
    const name = uniqueName();
    const form = new URLSearchParams({
      name,
      language: 'en',
      category: 'marketing',
      components: JSON.stringify([
        { type: 'header', format: 'text', text: 'Sale for {{1}}', example: { header_text: ['Ann'] } },
        { type: 'body', text: 'Everything is 20% off.' },
        { type: 'footer', text: 'Reply STOP to opt out' },
        { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'Stop promotions' }] },
      ]),
    });
    const created = await client.graph('POST', `/${WABA_ID}/message_templates`, { rawBody: form.toString(), contentType: 'application/x-www-form-urlencoded' });
    expect(created.body).toMatchObject({ status: 'PENDING', category: 'MARKETING' });
    const stored = await client.graph('GET', `/${created.body.id}?fields=components`);
    expect(stored.body.components.map((component: { type: string }) => component.type)).toEqual(['HEADER', 'BODY', 'FOOTER', 'BUTTONS']);
    expect(stored.body.components[0].format).toBe('TEXT');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['an upper-case name', { name: 'Bad_Name' }, 'Param name can only contain lowercase alphanumeric characters and underscores'],
    ['a name over 512 characters', { name: 'a'.repeat(513) }, 'Param name must be at most 512 characters long'],
    ['an unsupported language', { language: 'xx_YY' }, 'Param language "xx_YY" is not a supported template language'],
    ['an unknown category', { category: 'PROMO' }, 'Param category must be one of {MARKETING, UTILITY, AUTHENTICATION}'],
    ['no components', { components: undefined }, 'The parameter components is required'],
    ['no BODY', { components: [{ type: 'FOOTER', text: 'x' }] }, "The parameter components['BODY'] is required"],
    [
      'two BODY components',
      {
        components: [
          { type: 'BODY', text: 'a' },
          { type: 'BODY', text: 'b' },
        ],
      },
      'more than one BODY component',
    ],
    ['an unknown component type', { components: [{ type: 'SIDEBAR' }] }, "Param components[0]['type'] must be one of"],
    [
      'a body over 1024 characters',
      { components: [{ type: 'BODY', text: 'x'.repeat(1025) }] },
      "Param components[0]['text'] must be at most 1024 characters long",
    ],
    ['variables without an example', { components: [{ type: 'BODY', text: 'Hi {{1}}' }] }, "example']['body_text'] is required"],
    [
      'an example with the wrong count',
      { components: [{ type: 'BODY', text: 'Hi {{1}} {{2}}', example: { body_text: [['a']] } }] },
      'must give 2 example values',
    ],
    [
      'variables with a gap',
      { components: [{ type: 'BODY', text: 'Hi {{1}} {{3}}', example: { body_text: [['a', 'b']] } }] },
      'numbered sequentially from {{1}}; found {{3}}',
    ],
    ['named variables without NAMED', { components: [{ type: 'BODY', text: 'Hi {{first_name}}' }] }, 'set parameter_format to NAMED'],
    [
      'a header over 60 characters',
      {
        components: [
          { type: 'HEADER', format: 'TEXT', text: 'h'.repeat(61) },
          { type: 'BODY', text: 'b' },
        ],
      },
      'at most 60 characters',
    ],
    [
      'an image header without a sample',
      {
        components: [
          { type: 'HEADER', format: 'IMAGE' },
          { type: 'BODY', text: 'b' },
        ],
      },
      "header_handle'] is required for IMAGE headers",
    ],
    [
      'a footer with a variable',
      {
        components: [
          { type: 'BODY', text: 'b' },
          { type: 'FOOTER', text: 'Bye {{1}}' },
        ],
      },
      'cannot contain variables',
    ],
    [
      'three URL buttons',
      {
        components: [
          { type: 'BODY', text: 'b' },
          { type: 'BUTTONS', buttons: [1, 2, 3].map((n) => ({ type: 'URL', text: `u${n}`, url: 'https://a.example' })) },
        ],
      },
      'at most 2 URL buttons',
    ],
    [
      'a URL variable in the middle',
      {
        components: [
          { type: 'BODY', text: 'b' },
          { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Go', url: 'https://a.example/{{1}}/x', example: ['1'] }] },
        ],
      },
      'only have one variable, {{1}}, at the end',
    ],
    [
      'button text over 25 characters',
      {
        components: [
          { type: 'BODY', text: 'b' },
          { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'q'.repeat(26) }] },
        ],
      },
      'at most 25 characters',
    ],
    [
      'an OTP button outside AUTHENTICATION',
      {
        components: [
          { type: 'BODY', text: 'b' },
          { type: 'BUTTONS', buttons: [{ type: 'OTP', otp_type: 'COPY_CODE' }] },
        ],
      },
      'OTP buttons are only allowed in AUTHENTICATION templates',
    ],
    [
      'AUTHENTICATION without an OTP button',
      { category: 'AUTHENTICATION', components: [{ type: 'BODY', add_security_recommendation: true }] },
      'need a BUTTONS component with an OTP button',
    ],
    [
      'a FLOW button naming no flow of the WABA',
      {
        components: [
          { type: 'BODY', text: 'b' },
          { type: 'BUTTONS', buttons: [{ type: 'FLOW', text: 'Open', flow_id: '424242' }] },
        ],
      },
      'does not name a flow of this WhatsApp Business Account',
    ],
    ['a MARKETING TTL below 12 hours', { category: 'MARKETING', message_send_ttl_seconds: 60 }, 'between 43200 and 2592000'],
  ])('rejects %s with code 100', async (_case, overrides, message) => {
    const body = draft(uniqueName(), overrides);
    if ('components' in overrides && overrides.components === undefined) delete body.components;
    const result = await create(body);
    expectGraphError(result, 400, 100);
    expect(result.body.error.message).toContain(message);
  });

  it('accepts named variables with parameter_format NAMED and reports it', async () => {
    const created = await create(
      draft(uniqueName(), {
        parameter_format: 'NAMED',
        components: [{ type: 'BODY', text: 'Hi {{first_name}}', example: { body_text_named_params: [{ param_name: 'first_name', example: 'Ann' }] } }],
      }),
    );
    expect(created.status).toBe(200);
    expect((await client.graph('GET', `/${created.body.id}?fields=parameter_format`)).body.parameter_format).toBe('NAMED');
  });

  it("refuses another account's token and unknown WABAs", async () => {
    expectGraphError(await create(draft(uniqueName()), OTHER_TOKEN), 401, 190);
    const unknown = await client.graph('POST', '/987654/message_templates', { body: draft(uniqueName()) });
    expect(unknown.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });
});

describe('GET /{waba-id}/message_templates filters', () => {
  it('filters by content, name_or_content and quality_score, and counts with summary=total_count', async () => {
    const name = uniqueName('kiwi');
    await create(draft(name, { components: [{ type: 'BODY', text: 'Your papaya basket is ready.' }] }));
    const ids = async (query: string) =>
      (await client.graph('GET', `/${WABA_ID}/message_templates?fields=name&${query}`)).body.data.map((t: { name: string }) => t.name);
    expect(await ids('content=PAPAYA')).toEqual([name]);
    expect(await ids(`name_or_content=${name}`)).toEqual([name]);
    expect(await ids('name_or_content=papaya basket')).toEqual([name]);
    expect(await ids('quality_score=RED')).toEqual([]);
    const counted = await client.graph('GET', `/${WABA_ID}/message_templates?content=papaya&summary=total_count`);
    expect(counted.body.summary).toEqual({ total_count: 1 });
  });
});

describe('POST /{template-id} (edit)', () => {
  async function approvedTemplate(): Promise<string> {
    const created = await create(draft(uniqueName()));
    client.sandbox.setTemplateStatus(created.body.id, 'APPROVED');
    return created.body.id;
  }

  const newBody = { components: [{ type: 'BODY', text: 'Hello {{1}}!', example: { body_text: [['Ann']] } }] };

  it('edits an approved template, sends it back to review and changes what sends must supply', async () => {
    const id = await approvedTemplate();
    const edited = await client.graph('POST', `/${id}`, { body: newBody });
    expect(edited).toMatchObject({ status: 200, body: { success: true } });
    const stored = await client.graph('GET', `/${id}?fields=status,components`);
    expect(stored.body).toEqual({ id, status: 'PENDING', components: newBody.components });
    client.sandbox.setTemplateStatus(id, 'APPROVED');
    const name = (await client.graph('GET', `/${id}?fields=name`)).body.name as string;
    expect((await client.send(templateMessage(name, 'en_US', ['Ann']))).status).toBe(200);
    expectGraphError(await client.send(templateMessage(name, 'en_US', ['Ann', 'X1'])), 400, 132000);
  });

  it('allows one edit of an approved template per 24 hours and ten per 30 days', async () => {
    const id = await approvedTemplate();
    for (let edit = 0; edit < 10; edit += 1) {
      expect((await client.graph('POST', `/${id}`, { body: newBody })).status).toBe(200);
      client.sandbox.setTemplateStatus(id, 'APPROVED');
      const tooSoon = await client.graph('POST', `/${id}`, { body: newBody });
      expectGraphError(tooSoon, 400, 100);
      expect(tooSoon.body.error.error_user_msg).toContain('once in 24 hours');
      clock.advance(25 * HOUR);
    }
    const eleventh = await client.graph('POST', `/${id}`, { body: newBody });
    expect(eleventh.body.error.error_user_msg).toContain('10 times in 30 days');
    clock.advance(30 * DAY);
    expect((await client.graph('POST', `/${id}`, { body: newBody })).status).toBe(200);
  });

  it('refuses edits of PENDING templates and category changes of approved ones; rejected ones edit freely', async () => {
    const pending = await create(draft(uniqueName()));
    const refused = await client.graph('POST', `/${pending.body.id}`, { body: newBody });
    expect(refused.body.error).toMatchObject({ code: 100, error_user_title: 'Template Cannot Be Edited' });

    const approved = await approvedTemplate();
    const category = await client.graph('POST', `/${approved}`, { body: { category: 'MARKETING' } });
    expect(category.body.error.error_user_title).toBe("Category Can't Be Edited");

    client.sandbox.setTemplateStatus(approved, 'REJECTED');
    for (let attempt = 0; attempt < 3; attempt += 1) {
      expect((await client.graph('POST', `/${approved}`, { body: { category: 'MARKETING', ...newBody } })).status).toBe(200);
      client.sandbox.setTemplateStatus(approved, 'REJECTED');
    }
    expect((await client.graph('GET', `/${approved}?fields=category`)).body.category).toBe('MARKETING');
  });

  it('validates the edited components and refuses renaming', async () => {
    const id = await approvedTemplate();
    const invalid = await client.graph('POST', `/${id}`, { body: { components: [{ type: 'BODY', text: 'Hi {{2}}', example: { body_text: [['a']] } }] } });
    expect(invalid.body.error.message).toContain('numbered sequentially');
    expect((await client.graph('POST', `/${id}`, { body: { name: 'other_name', ...newBody } })).body.error.message).toContain('Param name cannot be changed');
    expect((await client.graph('POST', `/${id}`, { body: {} })).body.error.message).toContain('At least one of components');
    expect((await client.graph('GET', `/${id}?fields=status`)).body.status).toBe('APPROVED');
  });
});

describe('DELETE /{waba-id}/message_templates', () => {
  it('deletes every language of a name, or one template by hsm_id, and reserves the name for four weeks', async () => {
    const name = uniqueName();
    const english = await create(draft(name));
    const german = await create(draft(name, { language: 'de' }));

    const one = await client.graph('DELETE', `/${WABA_ID}/message_templates?name=${name}&hsm_id=${german.body.id}`);
    expect(one).toMatchObject({ status: 200, body: { success: true } });
    expect((await client.graph('GET', `/${WABA_ID}/message_templates?name=${name}`)).body.data.map((t: { id: string }) => t.id)).toEqual([english.body.id]);
    expect((await client.graph('GET', `/${german.body.id}`)).body.error).toMatchObject({ code: 100, error_subcode: 33 });

    const reused = await create(draft(name, { language: 'de' }));
    expect(reused.body.error).toMatchObject({ error_subcode: 2388023, error_user_title: 'Message Template Language Is Being Deleted' });
    clock.advance(29 * DAY);
    expect((await create(draft(name, { language: 'de' }))).status).toBe(200);

    expect((await client.graph('DELETE', `/${WABA_ID}/message_templates?name=${name}`)).body).toEqual({ success: true });
    expect((await client.graph('GET', `/${WABA_ID}/message_templates?name=${name}`)).body.data).toEqual([]);
  });

  it('answers an error for an unknown name or a missing one', async () => {
    const unknown = await client.graph('DELETE', `/${WABA_ID}/message_templates?name=never_created`);
    expect(unknown.body.error).toMatchObject({ code: 100, error_user_title: 'Message Template Not Found' });
    const missing = await client.graph('DELETE', `/${WABA_ID}/message_templates`);
    expect(missing.body.error.message).toBe('(#100) The parameter name is required.');
  });
});

describe('Template Library', () => {
  const names = (body: { data: Array<{ name: string; language: string }> }) => body.data.map((template) => `${template.name}/${template.language}`);

  it('browses the library with search, topic, usecase, industry, language and name filters', async () => {
    const all = await client.graph('GET', '/message_template_library');
    expect(all.status).toBe(200);
    expect(all.body.data.length).toBeGreaterThanOrEqual(8);
    expect(all.body.data[0]).toEqual(
      expect.objectContaining({
        id: expect.any(String),
        name: expect.any(String),
        language: expect.any(String),
        category: 'UTILITY',
        topic: expect.any(String),
        usecase: expect.any(String),
        industry: expect.any(Array),
        body: expect.any(String),
      }),
    );
    expect(names((await client.graph('GET', '/message_template_library?topic=PAYMENTS&language=en_US')).body)).toEqual([
      'payment_reminder_1/en_US',
      'payment_received_1/en_US',
    ]);
    expect(names((await client.graph('GET', '/message_template_library?usecase=delivery_failed')).body)).toEqual(['delivery_failed_1/en_US']);
    expect(names((await client.graph('GET', '/message_template_library?search=verification')).body)).toEqual(['verification_code_1/en_US']);
    expect(names((await client.graph('GET', '/message_template_library?industry=HEALTH')).body)).toEqual(['appointment_reminder_1/en_US']);
    expect(names((await client.graph('GET', '/message_template_library?name=order_shipped_1')).body)).toEqual(['order_shipped_1/en_US', 'order_shipped_1/es']);
    const page = await client.graph('GET', '/message_template_library?limit=2');
    expect(page.body.data).toHaveLength(2);
    expect(page.body.paging.next).toContain('after=');
    expectGraphError(await client.graph('GET', '/message_template_library', { token: 'nope' }), 401, 190);
  });

  it('creates an APPROVED template from the library with the business button inputs', async () => {
    const name = uniqueName('shipped');
    const created = await create({
      name,
      language: 'en_US',
      category: 'UTILITY',
      library_template_name: 'order_shipped_1',
      library_template_button_inputs: [
        { type: 'URL', url: { base_url: 'https://shop.example.com/track/{{1}}', url_suffix_example: 'https://shop.example.com/track/A1' } },
      ],
    });
    expect(created.body).toEqual({ id: expect.any(String), status: 'APPROVED', category: 'UTILITY' });
    const stored = await client.graph('GET', `/${WABA_ID}/message_templates?name=${name}`);
    expect(stored.body.data[0]).toMatchObject({ library_template_name: 'order_shipped_1', status: 'APPROVED' });
    expect(stored.body.data[0].components).toEqual([
      { type: 'HEADER', format: 'TEXT', text: 'Your order is on its way' },
      { type: 'BODY', text: 'Good news, {{1}}! Order {{2}} has shipped and should arrive by {{3}}.', example: { body_text: [['Maria', '#48213', 'Friday']] } },
      {
        type: 'BUTTONS',
        buttons: [{ type: 'URL', text: 'Track shipment', url: 'https://shop.example.com/track/{{1}}', example: ['https://shop.example.com/track/A1'] }],
      },
    ]);
    // Usable right away: library content is pre-approved. The URL button has a variable, so the send fills it.
    const send = templateMessage(name, 'en_US', ['Ann', '#1', 'Monday']) as { template: { components: unknown[] } };
    send.template.components.push({ type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'A1' }] });
    expect((await client.send(send, { phoneId: PHONE_ID })).status).toBe(200);
  });

  it('creates authentication and phone-button templates from the library', async () => {
    const auth = await create({
      name: uniqueName('otp'),
      language: 'en_US',
      category: 'AUTHENTICATION',
      library_template_name: 'verification_code_1',
      library_template_body_inputs: { add_security_recommendation: true, code_expiration_minutes: 10 },
      library_template_button_inputs: [{ type: 'OTP', otp_type: 'COPY_CODE' }],
    });
    expect(auth.body).toMatchObject({ status: 'APPROVED', category: 'AUTHENTICATION' });
    const components = (await client.graph('GET', `/${auth.body.id}?fields=components`)).body.components;
    expect(components).toEqual([
      { type: 'BODY', add_security_recommendation: true },
      { type: 'FOOTER', code_expiration_minutes: 10 },
      { type: 'BUTTONS', buttons: [{ type: 'OTP', text: 'Copy code', otp_type: 'COPY_CODE' }] },
    ]);
    const phone = await create({
      name: uniqueName('failed'),
      language: 'en_US',
      category: 'UTILITY',
      library_template_name: 'delivery_failed_1',
      library_template_button_inputs: [{ type: 'PHONE_NUMBER', phone_number: '+15550109999' }],
    });
    expect(phone.body.status).toBe('APPROVED');
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a missing URL input', { library_template_name: 'order_shipped_1' }, 'library_template_button_inputs (a URL input for button 1'],
    [
      'an input for a button the template lacks',
      { library_template_name: 'payment_received_1', library_template_button_inputs: [{ type: 'URL', url: { base_url: 'https://a.example' } }] },
      'has no such button',
    ],
    ['a category other than the library template', { library_template_name: 'payment_received_1', category: 'MARKETING' }, 'Param category must be UTILITY'],
    ['an unknown library template', { library_template_name: 'no_such_template' }, 'has no template no_such_template in en_US'],
    ['a language the library template lacks', { library_template_name: 'payment_received_1', language: 'de' }, 'has no template payment_received_1 in de'],
    [
      'an http base URL',
      { library_template_name: 'order_shipped_1', library_template_button_inputs: [{ type: 'URL', url: { base_url: 'http://a.example' } }] },
      "base_url'] must be an https:// URL",
    ],
  ])('rejects %s', async (_case, overrides, message) => {
    const result = await create({ name: uniqueName('lib'), language: 'en_US', category: 'UTILITY', ...overrides });
    expectGraphError(result, 400, 100);
    expect(result.body.error.message).toContain(message);
  });
});
