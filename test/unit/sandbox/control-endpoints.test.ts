/** `/_sandbox/*`: fault injection, inspection, accounts, template review and reset. */
import { startSandboxClient, useSandbox } from '../../support/use-sandbox';
import { PHONE_ID, RECIPIENT, SECOND_PHONE_ID, TOKEN, WABA_ID, accountA, templateMessage, textMessage, fixtureAccounts } from './sandbox-test-helpers';

const client = useSandbox({ accounts: fixtureAccounts(), beforeEachTest: (sandbox) => sandbox.reset() });

const DEFAULTS = {
  latencyMs: 0,
  latencyJitterMs: 0,
  errorRate: 0,
  timeoutRate: 0,
  timeoutHoldMs: 60_000,
  seed: 1,
  latency: { distribution: 'none' },
  throughputPerSecond: 80,
  throughputByPhoneNumberId: {},
  messagingLimitByPhoneNumberId: {},
  recipientErrors: {},
  recipientTimeouts: {},
  recipientHolds: {},
  senderErrors: {},
  maxPriceUnavailableCountries: [],
};

describe('/_sandbox/control settings', () => {
  it('returns defaults, merges updates, and resets', async () => {
    expect((await client.sandboxApi('GET', '/control')).body).toEqual(DEFAULTS);

    const first = await client.sandboxApi('POST', '/control', {
      latencyMs: 5,
      recipientErrors: { '+15550000001': { code: 131026 } },
      throughputByPhoneNumberId: { [PHONE_ID]: 10 },
    });
    expect(first.status).toBe(200);
    await client.sandboxApi('POST', '/control', {
      errorRate: 0.25,
      recipientErrors: { '15550000002': { code: 131047, times: 2 } },
      throughputByPhoneNumberId: { [PHONE_ID]: null },
    });
    expect((await client.sandboxApi('GET', '/control')).body).toEqual({
      ...DEFAULTS,
      latencyMs: 5,
      errorRate: 0.25,
      recipientErrors: { '15550000001': { code: 131026 }, '15550000002': { code: 131047, times: 2 } },
    });

    expect((await client.sandboxApi('DELETE', '/control')).status).toBe(204);
    expect((await client.sandboxApi('GET', '/control')).body).toEqual(DEFAULTS);
  });

  it.each([
    [{ errorRate: 2 }, 'errorRate must be a number between 0 and 1'],
    [{ latencyMs: -1 }, 'latencyMs must be a number >= 0'],
    [{ throughputPerSecond: 1.5 }, 'throughputPerSecond must be an integer >= 0'],
    [{ recipientErrors: { '1555': { code: 'x' } } }, 'recipientErrors.1555.code must be an integer >= 0'],
    [{ recipientErrors: { '1555': { code: 131026, httpStatus: 200 } } }, 'httpStatus must be between 400 and 599'],
    [
      { messagingLimitByPhoneNumberId: { '1': 'TIER_3' } },
      'messagingLimitByPhoneNumberId.1 must be one of TIER_50, TIER_250, TIER_1K, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED',
    ],
    [{ colour: 'red' }, 'unknown control settings: colour'],
  ])('rejects %j without applying any of it', async (patch, message) => {
    const result = await client.sandboxApi('POST', '/control', { latencyMs: 7, ...patch });
    expect(result.status).toBe(400);
    expect(result.body.error.message).toContain(message);
    expect((await client.sandboxApi('GET', '/control')).body.latencyMs).toBe(0);
  });
});

describe('messaging limit per phone number', () => {
  it('answers whatsapp_business_manager_messaging_limit: TIER_UNLIMITED by default, the set tier, and the default again once cleared or reset', async () => {
    const field = async (phoneId: string) =>
      (await client.graph('GET', `/${phoneId}?fields=whatsapp_business_manager_messaging_limit`)).body as Record<string, unknown>;
    expect(await field(PHONE_ID)).toEqual({ id: PHONE_ID, whatsapp_business_manager_messaging_limit: 'TIER_UNLIMITED' });

    await client.sandboxApi('POST', '/control', { messagingLimitByPhoneNumberId: { [PHONE_ID]: 'TIER_250' } });
    expect(await field(PHONE_ID)).toEqual({ id: PHONE_ID, whatsapp_business_manager_messaging_limit: 'TIER_250' });
    expect((await field(SECOND_PHONE_ID)).whatsapp_business_manager_messaging_limit).toBe('TIER_UNLIMITED');
    expect((await client.sandboxApi('GET', '/control')).body.messagingLimitByPhoneNumberId).toEqual({ [PHONE_ID]: 'TIER_250' });

    await client.sandboxApi('POST', '/control', { messagingLimitByPhoneNumberId: { [PHONE_ID]: null } });
    expect((await field(PHONE_ID)).whatsapp_business_manager_messaging_limit).toBe('TIER_UNLIMITED');
    await client.sandboxApi('POST', '/control', { messagingLimitByPhoneNumberId: { [PHONE_ID]: 'TIER_2K' } });
    await client.sandboxApi('POST', '/reset');
    expect((await field(PHONE_ID)).whatsapp_business_manager_messaging_limit).toBe('TIER_UNLIMITED');
  });
});

describe('fault injection', () => {
  it('answers a recipient error the configured number of times, then succeeds', async () => {
    await client.sandboxApi('POST', '/control', { recipientErrors: { [RECIPIENT]: { code: 131026, times: 2 } } });
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const failed = await client.send(textMessage());
      expect(failed.status).toBe(400);
      expect(failed.body.error).toMatchObject({
        code: 131026,
        type: 'OAuthException',
        message: '(#131026) Message Undeliverable',
        error_data: { messaging_product: 'whatsapp', details: expect.any(String) },
      });
    }
    expect((await client.send(textMessage())).status).toBe(200);
    expect((await client.send(textMessage('15550009999'))).status).toBe(200);
    expect(client.sandbox.acceptedMessages()).toHaveLength(2);
    expect((await client.sandboxApi('GET', '/control')).body.recipientErrors).toEqual({});
  });

  it('uses a rule without times forever, with custom status and message', async () => {
    await client.sandboxApi('POST', '/control', {
      recipientErrors: { [`+${RECIPIENT}`]: { code: 131000, httpStatus: 503, message: 'Downstream is down' } },
    });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const failed = await client.send(textMessage(`+${RECIPIENT}`));
      expect(failed.status).toBe(503);
      expect(failed.body.error).toMatchObject({ code: 131000, message: '(#131000) Downstream is down' });
    }
  });

  it('answers every send from a business number, or from any number of a WABA, with a sender error (Meta refusing the account)', async () => {
    await client.sandboxApi('POST', '/control', { senderErrors: { [PHONE_ID]: { code: 131064 } } });
    for (const to of [RECIPIENT, '15550009999']) {
      const refused = await client.send(textMessage(to));
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({
        code: 131064,
        message: '(#131064) Messaging limit reached',
        error_data: { details: expect.stringContaining('enforcement period') },
      });
    }
    await client.sandboxApi('POST', '/control', { senderErrors: { [PHONE_ID]: null, [WABA_ID]: { code: 131042, times: 1 } } });
    expect((await client.send(textMessage())).body.error).toMatchObject({ code: 131042, message: '(#131042) Business eligibility payment issue' });
    expect((await client.send(textMessage())).status).toBe(200);
    expect(client.sandbox.acceptedMessages()).toHaveLength(1);
    expect((await client.sandboxApi('GET', '/control')).body.senderErrors).toEqual({});
  });

  it('still reports validation errors before injected ones', async () => {
    await client.sandboxApi('POST', '/control', { recipientErrors: { [RECIPIENT]: { code: 131026, times: 1 } } });
    expect((await client.send(templateMessage('nope', 'en_US', []))).body.error.code).toBe(132001);
    expect((await client.send(textMessage())).body.error.code).toBe(131026);
  });

  it('answers every send with a transient error at errorRate 1', async () => {
    await client.sandboxApi('POST', '/control', { errorRate: 1 });
    const results = await Promise.all(Array.from({ length: 5 }, () => client.send(textMessage())));
    for (const result of results) {
      expect(result.status).toBe(500);
      expect(result.body.error).toMatchObject({ code: 2, is_transient: true, type: 'OAuthException' });
    }
    expect(client.sandbox.acceptedMessages()).toHaveLength(0);
    // Listing endpoints are not message sends.
    expect((await client.graph('GET', `/${WABA_ID}/phone_numbers`)).status).toBe(200);
  });

  it('draws errorRate from a seeded PRNG: the same seed fails the same sends', async () => {
    const pattern = async () => {
      await client.sandboxApi('POST', '/control', { errorRate: 0.5, seed: 42 });
      const statuses: number[] = [];
      for (let index = 0; index < 20; index += 1) statuses.push((await client.send(textMessage())).status);
      return statuses;
    };
    const first = await pattern();
    client.sandbox.reset();
    const second = await pattern();
    expect(second).toEqual(first);
    expect(first).toContain(500);
    expect(first).toContain(200);
  });

  it('adds latency to Graph responses', async () => {
    await client.sandboxApi('POST', '/control', { latencyMs: 150 });
    const started = performance.now();
    expect((await client.send(textMessage())).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    const controlStarted = performance.now();
    await client.sandboxApi('GET', '/control');
    expect(performance.now() - controlStarted).toBeLessThan(140);
  });

  it('holds requests at timeoutRate 1 until the client gives up, recording nothing', async () => {
    await client.sandboxApi('POST', '/control', { timeoutRate: 1 });
    await expect(client.send(textMessage(), { signal: AbortSignal.timeout(200) })).rejects.toThrow();
    expect(client.sandbox.acceptedMessages()).toHaveLength(0);
  });

  it('drops a held request after timeoutHoldMs', async () => {
    await client.sandboxApi('POST', '/control', { timeoutRate: 1, timeoutHoldMs: 100 });
    const started = performance.now();
    await expect(client.send(textMessage())).rejects.toThrow();
    expect(performance.now() - started).toBeGreaterThanOrEqual(90);
  });

  it('times out a recipient the configured number of times', async () => {
    await client.sandboxApi('POST', '/control', { recipientTimeouts: { [RECIPIENT]: { times: 1 } } });
    await expect(client.send(textMessage(), { signal: AbortSignal.timeout(200) })).rejects.toThrow();
    expect((await client.send(textMessage())).status).toBe(200);
    expect(client.sandbox.acceptedMessages()).toHaveLength(1);
  });

  it('closes promptly even while holding requests', async () => {
    const own = await startSandboxClient({ accounts: [accountA()] });
    const sandbox = own.sandbox;
    sandbox.configure({ timeoutRate: 1 });
    const pending = own.send(textMessage()).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    await sandbox.close();
    expect(performance.now() - started).toBeLessThan(1000);
    // fetch's errors come from another realm, so match the shape rather than the class.
    expect(await pending).toMatchObject({ message: expect.any(String) });
  });
});

describe('/_sandbox/messages', () => {
  it('lists accepted messages with filters and clears them', async () => {
    await client.send(textMessage(RECIPIENT, 'one'));
    await client.send(textMessage('15550009999', 'two'));
    await client.send(textMessage(RECIPIENT, 'three'), { phoneId: SECOND_PHONE_ID });

    const all = await client.sandboxApi('GET', '/messages');
    expect(all.status).toBe(200);
    expect(all.body.data).toHaveLength(3);
    expect(all.body.data).toEqual(client.sandbox.acceptedMessages());
    expect(all.body.data[0]).toEqual({
      messageId: expect.stringMatching(/^wamid\./),
      phoneNumberId: PHONE_ID,
      recipient: RECIPIENT,
      type: 'text',
      body: textMessage(RECIPIENT, 'one'),
      receivedAt: expect.any(String),
    });

    const texts = (result: { body: { data: Array<{ body: { text: { body: string } } }> } }) => result.body.data.map((message) => message.body.text.body);
    expect(texts(await client.sandboxApi('GET', `/messages?phone_number_id=${PHONE_ID}`))).toEqual(['one', 'two']);
    expect(texts(await client.sandboxApi('GET', `/messages?recipient=%2B${RECIPIENT}`))).toEqual(['one', 'three']);
    expect(texts(await client.sandboxApi('GET', `/messages?recipient=${RECIPIENT}&phone_number_id=${SECOND_PHONE_ID}`))).toEqual(['three']);
    expect((await client.sandboxApi('GET', '/messages?recipient=1')).body.data).toEqual([]);

    // Pages: `limit`, then the cursor each answer gives, until the last page (no cursor).
    const first = await client.sandboxApi('GET', '/messages?limit=2');
    expect(texts(first)).toEqual(['one', 'two']);
    expect(first.body.paging).toEqual({
      total: 3,
      cursors: { after: expect.any(String) },
      next: expect.stringMatching(/^\/_sandbox\/messages\?limit=2&cursor=/),
    });
    const second = await client.sandboxApi('GET', `/messages?limit=2&cursor=${first.body.paging.cursors.after}`);
    expect(texts(second)).toEqual(['three']);
    expect(second.body.paging).toEqual({ total: 3 });
    expect(texts(await client.sandboxApi('GET', `/messages?limit=1&recipient=${RECIPIENT}`))).toEqual(['one']);
    expect((await client.sandboxApi('GET', '/messages?limit=0')).status).toBe(400);
    expect((await client.sandboxApi('GET', '/messages?cursor=nonsense')).status).toBe(400);

    expect((await client.sandboxApi('DELETE', '/messages')).status).toBe(204);
    expect((await client.sandboxApi('GET', '/messages')).body.data).toEqual([]);
  });
});

describe('/_sandbox/accounts and templates', () => {
  const newAccount = {
    wabaId: '5000001',
    businessId: '5000000',
    name: 'Late Joiner',
    accessToken: 'late-token',
    phoneNumbers: [{ id: '5000002', displayPhoneNumber: '15550005005', verifiedName: 'Late' }],
    templates: [
      { id: '5000003', name: 'welcome', language: 'en', category: 'MARKETING', status: 'PENDING', components: [{ type: 'BODY', text: 'Welcome {{1}}' }] },
    ],
  };

  afterEach(async () => {
    // Upsert back to an empty account so other tests see a known state.
    await client.sandboxApi('POST', '/accounts', { ...newAccount, phoneNumbers: [], templates: [] });
  });

  it('registers an account usable through Graph and lists accounts without tokens', async () => {
    const registered = await client.sandboxApi('POST', '/accounts', newAccount);
    expect(registered).toMatchObject({ status: 200, body: { wabaId: '5000001' } });
    const listed = await client.sandboxApi('GET', '/accounts');
    const late = listed.body.data.find((account: { wabaId: string }) => account.wabaId === '5000001');
    expect(late).toMatchObject({ name: 'Late Joiner', phoneNumbers: newAccount.phoneNumbers });
    expect(JSON.stringify(listed.body)).not.toContain('token');

    const phones = await client.graph('GET', '/5000001/phone_numbers', { token: 'late-token' });
    expect(phones.body.data[0].id).toBe('5000002');
    expect((await client.graph('GET', '/5000001/phone_numbers')).status).toBe(401);
  });

  it('approves a PENDING template through the status endpoint', async () => {
    await client.sandboxApi('POST', '/accounts', newAccount);
    const send = () => client.send(templateMessage('welcome', 'en', ['Ada']), { phoneId: '5000002', token: 'late-token' });
    expect((await send()).body.error.code).toBe(132001);
    const approved = await client.sandboxApi('POST', '/templates/5000003/status', { status: 'APPROVED' });
    expect(approved).toMatchObject({ status: 200, body: { id: '5000003', status: 'APPROVED' } });
    expect((await send()).status).toBe(200);
    const listed = await client.graph('GET', '/5000001/message_templates?fields=status', { token: 'late-token' });
    expect(listed.body.data).toEqual([{ id: '5000003', status: 'APPROVED' }]);
  });

  it('upserts by wabaId: numbers dropped from the account stop existing', async () => {
    await client.sandboxApi('POST', '/accounts', newAccount);
    await client.sandboxApi('POST', '/accounts', { ...newAccount, phoneNumbers: [] });
    const result = await client.send(textMessage(), { phoneId: '5000002', token: 'late-token' });
    expect(result.body.error).toMatchObject({ code: 100, error_subcode: 33 });
  });

  it('rejects invalid accounts, id clashes and bad template updates', async () => {
    const invalid = await client.sandboxApi('POST', '/accounts', { ...newAccount, phoneNumbers: [{ id: 'abc' }] });
    expect(invalid.status).toBe(400);
    expect(invalid.body.error.message).toContain('phoneNumbers[0]');
    const clash = await client.sandboxApi('POST', '/accounts', {
      ...newAccount,
      phoneNumbers: [{ id: PHONE_ID, displayPhoneNumber: '1555', verifiedName: 'x' }],
    });
    expect(clash.status).toBe(409);
    expect((await client.sandboxApi('POST', '/templates/9999/status', { status: 'APPROVED' })).status).toBe(404);
    expect((await client.sandboxApi('POST', '/templates/3000001/status', { status: 'MAYBE' })).status).toBe(400);
    expect(() => client.sandbox.registerBusinessAccount({ ...accountA(), accessToken: '' })).toThrow('accessToken');
  });
});

describe('reset and unknown routes', () => {
  it('reset clears messages, faults and throughput windows but keeps accounts', async () => {
    await client.sandboxApi('POST', '/control', { throughputPerSecond: 1, latencyMs: 1 });
    expect((await client.send(textMessage())).status).toBe(200);
    expect((await client.send(textMessage())).body.error.code).toBe(130429);

    expect((await client.sandboxApi('POST', '/reset')).status).toBe(204);
    expect(client.sandbox.acceptedMessages()).toEqual([]);
    expect((await client.sandboxApi('GET', '/control')).body).toEqual(DEFAULTS);
    expect((await client.send(textMessage())).status).toBe(200);
    expect((await client.graph('GET', `/${WABA_ID}/phone_numbers`, { token: TOKEN })).status).toBe(200);
  });

  it('answers 404 JSON for unknown sandbox routes and 405 for wrong methods', async () => {
    const unknown = await client.sandboxApi('GET', '/nothing-here');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toContain('/_sandbox/nothing-here');
    const wrongMethod = await client.sandboxApi('PUT', '/messages');
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET, DELETE');
    expect((await client.request('POST', '/_sandbox/control', { token: null, rawBody: '{oops' })).status).toBe(400);
  });
});
