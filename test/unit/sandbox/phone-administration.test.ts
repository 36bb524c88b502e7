/**
 * Per-number administration: two-step PIN and configuration (POST /{phone-number-id}),
 * registration, conversational automation, block list, coexistence syncs, and webhook
 * subscriptions of the WABA.
 */
import { useSandbox } from '../../support/use-sandbox';
import {
  DAY,
  HOUR,
  OTHER_TOKEN,
  PHONE_ID,
  RECIPIENT,
  SECOND_PHONE_ID,
  TestClock,
  WABA_ID,
  accountA,
  accountB,
  expectGraphError,
  textMessage,
  fixtureAccounts,
} from './sandbox-test-helpers';

const clock = new TestClock();

const client = useSandbox({ accounts: fixtureAccounts(), now: () => clock.now });

beforeEach(() => {
  // Each test starts from the registered fixtures (registration is an upsert that resets state).
  client.sandbox.registerBusinessAccount(accountA());
  client.sandbox.registerBusinessAccount(accountB());
  client.sandbox.reset();
});

describe('POST /{phone-number-id}: two-step verification and configuration', () => {
  it('sets the two-step PIN', async () => {
    expect((await client.graph('GET', `/${PHONE_ID}?fields=is_pin_enabled`)).body).toEqual({ id: PHONE_ID, is_pin_enabled: false });
    expect((await client.graph('POST', `/${PHONE_ID}`, { body: { pin: '123456' } })).body).toEqual({ success: true });
    expect((await client.graph('GET', `/${PHONE_ID}?fields=is_pin_enabled`)).body.is_pin_enabled).toBe(true);
  });

  it.each<[unknown, string]>([
    ['12345', 'Param pin must be a 6-digit number.'],
    ['abcdef', 'Param pin must be a 6-digit number.'],
    [{ nested: true }, 'Param pin must be a string.'],
  ])('rejects pin %j', async (pin, message) => {
    const result = await client.graph('POST', `/${PHONE_ID}`, { body: { pin } });
    expectGraphError(result, 400, 100);
    expect(result.body.error.message).toBe(`(#100) ${message}`);
  });

  it('stores the webhook override, display name request and search visibility', async () => {
    const result = await client.graph('POST', `/${PHONE_ID}`, {
      body: {
        whatsapp_business_api_data: { pin: '654321', show_security_notifications: true },
        webhook_configuration: { override_callback_uri: 'https://hooks.example.com/wa', verify_token: 'secret' },
        new_display_name: 'Shop A Deluxe',
        search_visibility: 'HIDDEN',
      },
    });
    expect(result.body).toEqual({ success: true });
    const read = await client.graph('GET', `/${PHONE_ID}?fields=is_pin_enabled,webhook_configuration,new_display_name,new_name_status,search_visibility`);
    expect(read.body).toEqual({
      id: PHONE_ID,
      is_pin_enabled: true,
      webhook_configuration: { phone_number: 'https://hooks.example.com/wa' },
      new_display_name: 'Shop A Deluxe',
      new_name_status: 'PENDING_REVIEW',
      search_visibility: 'HIDDEN',
    });
  });

  it('refuses unknown keys, empty bodies, http callbacks and short names, changing nothing', async () => {
    expect((await client.graph('POST', `/${PHONE_ID}`, { body: { connection_status: 'CONNECTED' } })).body.error.message).toContain(
      'Param connection_status cannot be set',
    );
    expect((await client.graph('POST', `/${PHONE_ID}`, { body: {} })).body.error.message).toContain('At least one of pin');
    const http = await client.graph('POST', `/${PHONE_ID}`, {
      body: { pin: '111111', webhook_configuration: { override_callback_uri: 'http://insecure.example.com' } },
    });
    expect(http.body.error.message).toBe("(#100) Param webhook_configuration['override_callback_uri'] must be an HTTPS URL.");
    expect((await client.graph('GET', `/${PHONE_ID}?fields=is_pin_enabled`)).body.is_pin_enabled).toBe(false);
    expect((await client.graph('POST', `/${PHONE_ID}`, { body: { new_display_name: 'A' } })).body.error.message).toContain('at least 2 characters');
  });
});

describe('register and deregister', () => {
  const register = (pin = '123456', body: Record<string, unknown> = {}) =>
    client.graph('POST', `/${PHONE_ID}/register`, { body: { messaging_product: 'whatsapp', pin, ...body } });

  it('deregistering stops sends with 133010 until the number registers again', async () => {
    expect((await client.graph('POST', `/${PHONE_ID}/deregister`)).body).toEqual({ success: true });
    expect((await client.graph('GET', `/${PHONE_ID}?fields=status`)).body.status).toBe('DISCONNECTED');
    const refused = await client.send(textMessage());
    expectGraphError(refused, 400, 133010);
    expect(refused.body.error).toMatchObject({ message: '(#133010) Account not registered', error_data: { messaging_product: 'whatsapp' } });
    // The other number of the WABA is unaffected.
    expect((await client.send(textMessage(), { phoneId: SECOND_PHONE_ID })).status).toBe(200);

    expect((await register()).body).toEqual({ success: true });
    expect((await client.graph('GET', `/${PHONE_ID}?fields=status,is_pin_enabled`)).body).toMatchObject({ status: 'CONNECTED', is_pin_enabled: true });
    expect((await client.send(textMessage())).status).toBe(200);
  });

  it("refuses a PIN other than the number's two-step PIN with 133005", async () => {
    await client.graph('POST', `/${PHONE_ID}`, { body: { pin: '222222' } });
    const mismatch = await register('333333');
    expectGraphError(mismatch, 400, 133005);
    expect(mismatch.body.error.message).toBe('(#133005) Two step verification PIN Mismatch');
    expect((await register('222222')).status).toBe(200);
  });

  it('allows 10 register/deregister calls per 72 hours (133016)', async () => {
    for (let call = 0; call < 10; call += 1) {
      const result = call % 2 === 0 ? await client.graph('POST', `/${PHONE_ID}/deregister`) : await register();
      expect(result.status).toBe(200);
    }
    expectGraphError(await register(), 400, 133016);
    clock.advance(72 * HOUR);
    expect((await register()).status).toBe(200);
  });

  it('validates the registration body per the YAML schema', async () => {
    expect((await client.graph('POST', `/${PHONE_ID}/register`, { body: { pin: '123456' } })).body.error.message).toBe(
      '(#100) The parameter messaging_product is required.',
    );
    expect((await register('12')).body.error.message).toBe('(#100) Param pin must be a 6-digit number.');
    expect((await register('123456', { tier: 'GOLD' })).body.error.message).toContain('Param tier must be one of {PROD, SANDBOX}');
    expect((await register('123456', { meta_store_retention_minutes: 30 })).body.error.message).toContain('meta_store_retention_minutes must be >= 60');
    const localized = await register('123456', { data_localization_region: 'DE' });
    expect(localized.status).toBe(200);
    expect((await client.graph('GET', `/${PHONE_ID}/settings`)).body.storage_configuration).toEqual({
      status: 'in_country_storage_enabled',
      data_localization_region: 'DE',
    });
  });
});

describe('conversational automation', () => {
  const configure = (body: Record<string, unknown>) => client.graph('POST', `/${PHONE_ID}/conversational_automation`, { body });

  it('stores the welcome switch, ice breakers and commands and reads them back on the number', async () => {
    expect((await client.graph('GET', `/${PHONE_ID}?fields=conversational_automation`)).body).toEqual({
      id: PHONE_ID,
      conversational_automation: { enable_welcome_message: false, prompts: [], commands: [], id: PHONE_ID },
    });
    const settings = {
      enable_welcome_message: true,
      prompts: ['Track my order', 'Talk to a person', 'Opening hours', 'Returns'],
      commands: [
        { command_name: 'help', command_description: 'How to use this chat' },
        { command_name: 'order_status', command_description: 'Where is my order?' },
      ],
    };
    expect((await configure(settings)).body).toEqual({ success: true });
    expect((await client.graph('GET', `/${PHONE_ID}?fields=conversational_automation`)).body.conversational_automation).toEqual({ ...settings, id: PHONE_ID });
    // A partial update keeps the rest.
    await configure({ enable_welcome_message: false });
    expect((await client.graph('GET', `/${PHONE_ID}?fields=conversational_automation`)).body.conversational_automation).toMatchObject({
      enable_welcome_message: false,
      prompts: settings.prompts,
    });
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['five ice breakers', { prompts: ['a', 'b', 'c', 'd', 'e'] }, 'Param prompts must have between 0 and 4 elements.'],
    ['an ice breaker over 80 characters', { prompts: ['x'.repeat(81)] }, 'Param prompts[0] must be at most 80 characters long.'],
    ['an emoji', { prompts: ['Hi 👋'] }, 'Param prompts[0] must not contain emoji.'],
    [
      '31 commands',
      { commands: Array.from({ length: 31 }, (_, index) => ({ command_name: `c${index}`, command_description: 'd' })) },
      'Param commands must have between 0 and 30 elements.',
    ],
    [
      'a command name with spaces',
      { commands: [{ command_name: 'two words', command_description: 'd' }] },
      "commands[0]['command_name'] may only contain letters, digits and underscores",
    ],
    ['a command without a description', { commands: [{ command_name: 'help' }] }, "The parameter commands[0]['command_description'] is required."],
    [
      'a repeated command',
      {
        commands: [
          { command_name: 'a', command_description: 'x' },
          { command_name: 'a', command_description: 'y' },
        ],
      },
      'has command_name a twice',
    ],
    ['nothing to set', {}, 'At least one of enable_welcome_message, prompts, commands is required.'],
  ])('rejects %s', async (_case, body, message) => {
    const result = await configure(body);
    expectGraphError(result, 400, 100);
    expect(result.body.error.message).toContain(message);
  });
});

describe('block_users', () => {
  const block = (method: 'POST' | 'DELETE', users: unknown[]) =>
    client.graph(method, `/${PHONE_ID}/block_users`, { body: { messaging_product: 'whatsapp', block_users: users.map((user) => ({ user })) } });

  it('blocks, lists with paging and unblocks users', async () => {
    const added = await block('POST', [`+${RECIPIENT}`, '15550009999']);
    expect(added.body).toEqual({
      messaging_product: 'whatsapp',
      block_users: {
        added_users: [
          { input: `+${RECIPIENT}`, wa_id: RECIPIENT },
          { input: '15550009999', wa_id: '15550009999' },
        ],
      },
    });
    const listed = await client.graph('GET', `/${PHONE_ID}/block_users`);
    expect(listed.body.data).toEqual([
      { messaging_product: 'whatsapp', wa_id: RECIPIENT },
      { messaging_product: 'whatsapp', wa_id: '15550009999' },
    ]);
    const first = await client.graph('GET', `/${PHONE_ID}/block_users?limit=1`);
    const second = await client.graph('GET', `/${PHONE_ID}/block_users?limit=1&after=${first.body.paging.cursors.after}`);
    expect(second.body.data).toEqual([{ messaging_product: 'whatsapp', wa_id: '15550009999' }]);
    const removed = await block('DELETE', [RECIPIENT]);
    expect(removed.body).toEqual({ messaging_product: 'whatsapp', block_users: { removed_users: [{ input: RECIPIENT, wa_id: RECIPIENT }] } });
    expect((await client.graph('GET', `/${PHONE_ID}/block_users`)).body.data).toEqual([{ messaging_product: 'whatsapp', wa_id: '15550009999' }]);
    // Block lists are per number.
    expect((await client.graph('GET', `/${SECOND_PHONE_ID}/block_users`)).body.data).toEqual([]);
  });

  it('validates the request', async () => {
    expect((await block('POST', ['not-a-number'])).body.error.message).toContain("Param block_users[0]['user'] must be a phone number");
    expect((await block('POST', [])).body.error.message).toContain('Param block_users must have between 1 and 1000 elements.');
    const noProduct = await client.graph('POST', `/${PHONE_ID}/block_users`, { body: { block_users: [{ user: RECIPIENT }] } });
    expect(noProduct.body.error.message).toBe('(#100) The parameter messaging_product is required.');
    expectGraphError(await client.graph('GET', `/${PHONE_ID}/block_users`, { token: OTHER_TOKEN }), 401, 190);
  });
});

describe('smb_app_data (coexistence)', () => {
  const sync = (syncType: unknown) => client.graph('POST', `/${PHONE_ID}/smb_app_data`, { body: { messaging_product: 'whatsapp', sync_type: syncType } });

  it('accepts each sync type once per onboarding and answers a request id', async () => {
    const contacts = await sync('smb_app_state_sync');
    expect(contacts.body).toEqual({ messaging_product: 'whatsapp', request_id: expect.stringMatching(/^[0-9a-f]{24}$/), success: true });
    expect((await sync('history')).status).toBe(200);
    const again = await sync('history');
    expectGraphError(again, 400, 100);
    expect(again.body.error.message).toContain('history was already requested');
  });

  it('is only possible within 24 hours of onboarding, and validates sync_type', async () => {
    expect((await sync('everything')).body.error.message).toContain('Param sync_type must be one of {smb_app_state_sync, history}');
    clock.advance(DAY + 1);
    expect((await sync('history')).body.error.message).toContain('within 24 hours of onboarding');
  });
});

describe('subscribed_apps', () => {
  const apps = () => client.graph('GET', `/${WABA_ID}/subscribed_apps`);

  it('subscribes, lists in both of Meta’s shapes, overrides the callback and unsubscribes', async () => {
    expect((await apps()).body).toEqual({ data: [] });
    expect((await client.graph('POST', `/${WABA_ID}/subscribed_apps`)).body).toEqual({ success: true });
    const listed = (await apps()).body.data;
    expect(listed).toEqual([
      {
        whatsapp_business_api_data: { id: expect.any(String), name: 'Cloud API Sandbox App', link: expect.stringContaining('app_id=') },
        id: listed[0].whatsapp_business_api_data.id,
        name: 'Cloud API Sandbox App',
      },
    ]);
    await client.graph('POST', `/${WABA_ID}/subscribed_apps`, { body: { override_callback_uri: 'https://hooks.example.com/waba', verify_token: 't' } });
    expect((await apps()).body.data[0].override_callback_uri).toBe('https://hooks.example.com/waba');
    expect((await client.graph('DELETE', `/${WABA_ID}/subscribed_apps`)).body).toEqual({ success: true });
    expect((await apps()).body).toEqual({ data: [] });
  });

  it('needs a verify token with an override URL, which must be HTTPS', async () => {
    expect((await client.graph('POST', `/${WABA_ID}/subscribed_apps`, { body: { override_callback_uri: 'https://a.example' } })).body.error.message).toContain(
      'verify_token is required',
    );
    expect(
      (await client.graph('POST', `/${WABA_ID}/subscribed_apps`, { body: { override_callback_uri: 'ftp://a.example', verify_token: 't' } })).body.error.message,
    ).toContain('must be an HTTPS URL');
    expectGraphError(await client.graph('POST', `/${WABA_ID}/subscribed_apps`, { token: OTHER_TOKEN }), 401, 190);
  });
});
