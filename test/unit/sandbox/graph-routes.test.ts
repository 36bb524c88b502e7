/** The sandbox's Graph routes over loopback HTTP: success shapes and Meta's errors. */
import { useSandbox } from '../../support/use-sandbox';
import {
  OTHER_PHONE_ID,
  OTHER_TOKEN,
  OTHER_WABA_ID,
  PHONE_ID,
  RECIPIENT,
  SECOND_PHONE_ID,
  TOKEN,
  WABA_ID,
  templateMessage,
  textMessage,
  fixtureAccounts,
} from './sandbox-test-helpers';

const client = useSandbox({ accounts: fixtureAccounts(), beforeEachTest: (sandbox) => sandbox.reset() });

function expectGraphError(result: { status: number; body: any }, status: number, code: number): void {
  expect(result.status).toBe(status);
  expect(result.body.error).toMatchObject({ code, type: expect.any(String), message: expect.any(String) });
  expect(result.body.error.fbtrace_id).toMatch(/^A[\w-]{22}$/);
}

describe('authentication and routing', () => {
  it.each([
    ['no token', null],
    ['an unknown token', 'not-a-token'],
    ["another account's token", OTHER_TOKEN],
  ])('answers OAuth error 190 with HTTP 401 for %s', async (_case, token) => {
    const result = await client.graph('GET', `/${WABA_ID}/phone_numbers`, { token });
    expectGraphError(result, 401, 190);
    expect(result.body.error).toMatchObject({
      message: 'Invalid OAuth access token - Cannot parse access token',
      type: 'OAuthException',
    });
    expect(result.headers.get('www-authenticate')).toContain('invalid_token');
  });

  it('accepts the token as access_token query parameter too', async () => {
    const result = await client.request('GET', `/v25.0/${WABA_ID}/phone_numbers?access_token=${TOKEN}`, { token: null });
    expect(result.status).toBe(200);
  });

  it('answers the nonexistent-object error for unknown ids', async () => {
    const result = await client.graph('GET', '/999999/phone_numbers');
    expectGraphError(result, 400, 100);
    expect(result.body.error).toMatchObject({ type: 'GraphMethodException', error_subcode: 33 });
    expect(result.body.error.message).toMatch(
      /^Unsupported get request\. Object with ID '999999' does not exist, cannot be loaded due to missing permissions, or does not support this operation/,
    );
    const post = await client.send(textMessage(), { phoneId: '424242' });
    expect(post.body.error.message).toMatch(/^Unsupported post request\. Object with ID '424242'/);
  });

  it('treats a method an edge does not support like Graph: unsupported request', async () => {
    const result = await client.graph('GET', `/${PHONE_ID}/messages`);
    expectGraphError(result, 400, 100);
    expect(result.body.error.error_subcode).toBe(33);
  });

  it('answers nonexisting field for an unknown edge and unknown path components beyond it', async () => {
    const edge = await client.graph('GET', `/${WABA_ID}/nonsense`);
    expectGraphError(edge, 400, 100);
    expect(edge.body.error.message).toBe('(#100) Tried accessing nonexisting field (nonsense) on node type (WhatsAppBusinessAccount)');
    const deep = await client.graph('GET', `/${WABA_ID}/phone_numbers/extra`);
    expectGraphError(deep, 400, 2500);
    expect(deep.body.error.message).toBe('Unknown path components: /extra');
    const unversioned = await client.request('GET', `/${WABA_ID}/phone_numbers`);
    expectGraphError(unversioned, 400, 2500);
  });

  it('serves any vMAJOR.MINOR version prefix the same way', async () => {
    const result = await client.request('GET', `/v19.0/${WABA_ID}/phone_numbers`);
    expect(result.status).toBe(200);
    expect(result.body.data).toHaveLength(2);
  });
});

describe('GET /{waba-id}/phone_numbers', () => {
  it("lists the account's numbers in Meta's shape", async () => {
    const result = await client.graph('GET', `/${WABA_ID}/phone_numbers`);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toContain('application/json');
    expect(result.body.data).toEqual([
      {
        id: PHONE_ID,
        display_phone_number: '+1 555-000-1001',
        verified_name: 'Shop A',
        status: 'CONNECTED',
        quality_rating: 'GREEN',
        code_verification_status: 'VERIFIED',
        platform_type: 'CLOUD_API',
        throughput: { level: 'STANDARD' },
      },
      expect.objectContaining({ id: SECOND_PHONE_ID, display_phone_number: '+44 770 090 0123', quality_rating: 'YELLOW' }),
    ]);
    expect(result.body.paging.cursors).toEqual({ before: expect.any(String), after: expect.any(String) });
    expect(result.body.paging.next).toBeUndefined();
  });

  it('returns only the requested fields plus id', async () => {
    const result = await client.graph('GET', `/${WABA_ID}/phone_numbers?fields=display_phone_number,throughput{level}`);
    expect(result.body.data[0]).toEqual({ id: PHONE_ID, display_phone_number: '+1 555-000-1001', throughput: { level: 'STANDARD' } });
    const unknown = await client.graph('GET', `/${WABA_ID}/phone_numbers?fields=display_phone_number,pin`);
    expectGraphError(unknown, 400, 100);
    expect(unknown.body.error.message).toContain('nonexisting field (pin) on node type (WhatsAppBusinessPhoneNumber)');
  });

  it('pages with limit and after/before cursors', async () => {
    const first = await client.graph('GET', `/${WABA_ID}/phone_numbers?limit=1`);
    expect(first.body.data.map((phone: { id: string }) => phone.id)).toEqual([PHONE_ID]);
    expect(first.body.paging.next).toContain(`after=${first.body.paging.cursors.after}`);
    const second = await client.graph('GET', `/${WABA_ID}/phone_numbers?limit=1&after=${first.body.paging.cursors.after}`);
    expect(second.body.data.map((phone: { id: string }) => phone.id)).toEqual([SECOND_PHONE_ID]);
    expect(second.body.paging.next).toBeUndefined();
    expect(second.body.paging.previous).toContain('before=');
    const back = await client.graph('GET', `/${WABA_ID}/phone_numbers?limit=1&before=${second.body.paging.cursors.before}`);
    expect(back.body.data[0].id).toBe(PHONE_ID);
    const nextUrl = new URL(first.body.paging.next);
    const followed = await client.request('GET', `${nextUrl.pathname}${nextUrl.search}`);
    expect(followed.body.data[0].id).toBe(SECOND_PHONE_ID);
    expectGraphError(await client.graph('GET', `/${WABA_ID}/phone_numbers?limit=0`), 400, 100);
    expectGraphError(await client.graph('GET', `/${WABA_ID}/phone_numbers?after=bogus`), 400, 100);
  });

  it('reports HIGH throughput for a number configured above the standard 80/s', async () => {
    client.sandbox.configure({ throughputByPhoneNumberId: { [PHONE_ID]: 1000 } });
    const result = await client.graph('GET', `/${PHONE_ID}?fields=throughput`);
    expect(result.body).toEqual({ id: PHONE_ID, throughput: { level: 'HIGH' } });
  });

  it('serves the phone number, WABA and template nodes themselves', async () => {
    expect((await client.graph('GET', `/${PHONE_ID}`)).body).toMatchObject({ id: PHONE_ID, verified_name: 'Shop A' });
    expect((await client.graph('GET', `/${WABA_ID}`)).body).toEqual({ id: WABA_ID, name: 'Account A' });
    expect((await client.graph('GET', '/3000001?fields=name')).body).toEqual({ id: '3000001', name: 'order_update' });
    expect((await client.graph('GET', `/${OTHER_WABA_ID}`, { token: OTHER_TOKEN })).status).toBe(200);
  });
});

describe('GET /{waba-id}/message_templates', () => {
  const names = (body: { data: Array<{ id: string }> }) => body.data.map((template) => template.id);

  it('lists templates in Meta shape', async () => {
    const result = await client.graph('GET', `/${WABA_ID}/message_templates`);
    expect(result.status).toBe(200);
    expect(result.body.data[0]).toEqual({
      id: '3000001',
      name: 'order_update',
      language: 'en_US',
      status: 'APPROVED',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}, order {{2}} shipped.' }],
      parameter_format: 'POSITIONAL',
    });
    expect(names(result.body)).toEqual(['3000001', '3000002', '3000003', '3000004']);
  });

  it('filters by name, status, language and category', async () => {
    expect(names((await client.graph('GET', `/${WABA_ID}/message_templates?name=order_update`)).body)).toEqual(['3000001', '3000002']);
    expect(names((await client.graph('GET', `/${WABA_ID}/message_templates?status=PENDING`)).body)).toEqual(['3000003']);
    expect(names((await client.graph('GET', `/${WABA_ID}/message_templates?status=approved,pending&language=en_US`)).body)).toEqual([
      '3000001',
      '3000003',
      '3000004',
    ]);
    expect(names((await client.graph('GET', `/${WABA_ID}/message_templates?category=MARKETING`)).body)).toEqual(['3000003']);
    expect((await client.graph('GET', `/${WABA_ID}/message_templates?name=missing`)).body).toEqual({ data: [] });
  });

  it('supports fields and paging', async () => {
    const page = await client.graph('GET', `/${WABA_ID}/message_templates?fields=name,status&limit=3`);
    expect(page.body.data).toHaveLength(3);
    expect(page.body.data[0]).toEqual({ id: '3000001', name: 'order_update', status: 'APPROVED' });
    const rest = await client.graph('GET', `/${WABA_ID}/message_templates?fields=name&limit=3&after=${page.body.paging.cursors.after}`);
    expect(rest.body.data).toEqual([{ id: '3000004', name: 'hello' }]);
  });
});

describe('POST /{phone-number-id}/messages', () => {
  it('accepts a text message, answers Meta success and records it', async () => {
    const body = textMessage(`+${RECIPIENT}`);
    const result = await client.send(body);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: `+${RECIPIENT}`, wa_id: RECIPIENT }],
      messages: [{ id: expect.stringMatching(/^wamid\.[A-Za-z0-9_-]+$/) }],
    });
    const [accepted] = client.sandbox.acceptedMessages();
    expect(accepted).toEqual({
      messageId: result.body.messages[0].id,
      phoneNumberId: PHONE_ID,
      recipient: RECIPIENT,
      type: 'text',
      body,
      receivedAt: expect.any(String),
    });
    expect(Date.parse(accepted?.receivedAt ?? '')).not.toBeNaN();
  });

  it('gives every message a distinct id', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => client.send(textMessage())));
    expect(new Set(results.map((result) => result.body.messages[0].id)).size).toBe(20);
  });

  it('accepts an approved template with the right parameters and reports message_status', async () => {
    const result = await client.send(templateMessage('order_update', 'de', ['Ada', 'A-17']));
    expect(result.status).toBe(200);
    expect(result.body.messages[0]).toEqual({ id: expect.stringMatching(/^wamid\./), message_status: 'accepted' });
    expect(client.sandbox.acceptedMessages()[0]?.type).toBe('template');
  });

  it('does not count a media header parameter against text placeholders', async () => {
    const result = await client.send({
      messaging_product: 'whatsapp',
      to: RECIPIENT,
      type: 'template',
      template: {
        name: 'hello',
        language: { code: 'en_US' },
        components: [{ type: 'header', parameters: [{ type: 'image', image: { link: 'https://example.com/a.png' } }] }],
      },
    });
    expect(result.status).toBe(200);
  });

  it.each([
    ['an unknown name', templateMessage('nope', 'en_US', []), 'template name (nope) does not exist in en_US'],
    ['a language it has no translation in', templateMessage('order_update', 'fr', ['a', 'b']), 'template name (order_update) does not exist in fr'],
    ['a PENDING template', templateMessage('spring_sale', 'en_US', []), 'template name (spring_sale) does not exist in en_US'],
  ])('answers 132001 for %s', async (_case, body, details) => {
    const result = await client.send(body);
    expectGraphError(result, 404, 132001);
    expect(result.body.error).toMatchObject({
      message: '(#132001) Template name does not exist in the translation',
      type: 'OAuthException',
      error_data: { messaging_product: 'whatsapp', details },
    });
    expect(client.sandbox.acceptedMessages()).toHaveLength(0);
  });

  it('answers 132000 when the body parameter count is wrong', async () => {
    const result = await client.send(templateMessage('order_update', 'en_US', ['only one']));
    expectGraphError(result, 400, 132000);
    expect(result.body.error.error_data.details).toBe('body: number of localizable_params (1) does not match the expected number of params (2)');
    expectGraphError(await client.send(templateMessage('order_update', 'en_US', [])), 400, 132000);
  });

  it('serves a template once approved, and checks header placeholders too', async () => {
    client.sandbox.setTemplateStatus('3000003', 'APPROVED');
    try {
      const missingHeader = await client.send(templateMessage('spring_sale', 'en_US', []));
      expectGraphError(missingHeader, 400, 132000);
      expect(missingHeader.body.error.error_data.details).toMatch(/^header: /);
      const body = templateMessage('spring_sale', 'en_US', []);
      (body.template as { components: unknown[] }).components = [{ type: 'header', parameters: [{ type: 'text', text: 'Ada' }] }];
      expect((await client.send(body)).status).toBe(200);
    } finally {
      client.sandbox.setTemplateStatus('3000003', 'PENDING');
    }
  });

  it('answers 132015 / 132016 for paused and disabled templates', async () => {
    client.sandbox.setTemplateStatus('3000001', 'PAUSED');
    expectGraphError(await client.send(templateMessage('order_update', 'en_US', ['a', 'b'])), 400, 132015);
    client.sandbox.setTemplateStatus('3000001', 'DISABLED');
    expectGraphError(await client.send(templateMessage('order_update', 'en_US', ['a', 'b'])), 400, 132016);
    client.sandbox.setTemplateStatus('3000001', 'APPROVED');
  });

  it('answers code 100 for malformed JSON and for missing fields', async () => {
    const malformed = await client.graph('POST', `/${PHONE_ID}/messages`, { rawBody: '{"messaging_product":' });
    expectGraphError(malformed, 400, 100);
    expect(malformed.body.error).toMatchObject({ type: 'OAuthException', message: '(#100) Invalid JSON in request body' });
    const missing = await client.send({ messaging_product: 'whatsapp', to: RECIPIENT, type: 'text' });
    expectGraphError(missing, 400, 100);
    expect(missing.body.error.message).toBe('(#100) The parameter text is required.');
    const empty = await client.graph('POST', `/${PHONE_ID}/messages`);
    expect(empty.body.error.message).toBe('(#100) The parameter messaging_product is required.');
    expect(client.sandbox.acceptedMessages()).toHaveLength(0);
  });

  it('marks a message as read without recording a send', async () => {
    const result = await client.send({
      messaging_product: 'whatsapp',
      status: 'read',
      message_id: 'wamid.incoming',
      typing_indicator: { type: 'text' },
    });
    expect(result).toMatchObject({ status: 200, body: { success: true } });
    expect(client.sandbox.acceptedMessages()).toHaveLength(0);
  });

  it('refuses a number owned by another account even with a valid token', async () => {
    expectGraphError(await client.send(textMessage(), { phoneId: OTHER_PHONE_ID }), 401, 190);
    expect((await client.send(textMessage(), { phoneId: OTHER_PHONE_ID, token: OTHER_TOKEN })).status).toBe(200);
  });
});

describe('throughput', () => {
  const limited = useSandbox({ accounts: fixtureAccounts(), throughputPerSecond: 5, beforeEachTest: (sandbox) => sandbox.reset() });

  it('answers 130429 beyond the configured rate, records nothing for it, and recovers after a second', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, (_, index) => limited.send(textMessage(RECIPIENT, `m${index}`))));
    const accepted = results.filter((result) => result.status === 200);
    const throttled = results.filter((result) => result.status !== 200);
    expect(accepted).toHaveLength(5);
    expect(throttled).toHaveLength(3);
    for (const result of throttled) {
      expectGraphError(result, 400, 130429);
      expect(result.body.error).toMatchObject({
        message: '(#130429) Rate limit hit',
        type: 'OAuthException',
        error_subcode: 2494055,
        error_data: { messaging_product: 'whatsapp', details: expect.stringContaining('too many messages') },
      });
    }
    expect(limited.sandbox.acceptedMessages()).toHaveLength(5);

    // Another number has its own window.
    expect((await limited.send(textMessage(), { phoneId: SECOND_PHONE_ID })).status).toBe(200);

    await new Promise((resolve) => setTimeout(resolve, 1050));
    expect((await limited.send(textMessage())).status).toBe(200);
  });

  it('takes per-number and global overrides from the control endpoint', async () => {
    await limited.sandboxApi('POST', '/control', { throughputPerSecond: 2, throughputByPhoneNumberId: { [SECOND_PHONE_ID]: 3 } });
    const first = await Promise.all(Array.from({ length: 4 }, () => limited.send(textMessage())));
    const second = await Promise.all(Array.from({ length: 4 }, () => limited.send(textMessage(), { phoneId: SECOND_PHONE_ID })));
    expect(first.filter((result) => result.status === 200)).toHaveLength(2);
    expect(second.filter((result) => result.status === 200)).toHaveLength(3);
  });

  it('does not spend throughput on rejected requests', async () => {
    await Promise.all(Array.from({ length: 5 }, () => limited.send(templateMessage('nope', 'en_US', []))));
    const results = await Promise.all(Array.from({ length: 5 }, () => limited.send(textMessage())));
    expect(results.every((result) => result.status === 200)).toBe(true);
  });
});
