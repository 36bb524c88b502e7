/**
 * POST /{phone-number-id}/marketing_messages, typing indicators, and how fault injection reaches
 * the new routes: latency and timeouts everywhere, errorRate and recipient rules only for sends.
 */
import { useSandbox } from '../../support/use-sandbox';
import { PHONE_ID, RECIPIENT, WABA_ID, expectGraphError, uploadForm, fixtureAccounts } from './sandbox-test-helpers';

const client = useSandbox({ accounts: fixtureAccounts() });

beforeAll(async () => {
  client.sandbox.setTemplateStatus('3000003', 'APPROVED'); // spring_sale, MARKETING, one header variable
});

beforeEach(() => {
  client.sandbox.reset();
});

function marketing(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    messaging_product: 'whatsapp',
    recipient_type: 'individual',
    to: RECIPIENT,
    type: 'template',
    template: { name: 'spring_sale', language: { code: 'en_US' }, components: [{ type: 'header', parameters: [{ type: 'text', text: 'Ann' }] }] },
    ...overrides,
  };
}

const sendMarketing = (body: Record<string, unknown>) => client.graph('POST', `/${PHONE_ID}/marketing_messages`, { body });

describe('marketing_messages', () => {
  it('sends a marketing template and records it as sent through the Marketing Messages API', async () => {
    // STRICT needs an onboarded account (without one: marketing-messages-api.test.ts).
    client.sandbox.setMarketingMessagesOnboarding(WABA_ID, 'ONBOARDED');
    const result = await sendMarketing(marketing({ product_policy: 'STRICT', message_activity_sharing: true }));
    expect(result.body).toEqual({
      messaging_product: 'whatsapp',
      contacts: [{ input: RECIPIENT, wa_id: RECIPIENT }],
      messages: [{ id: expect.stringMatching(/^wamid\./), message_status: 'accepted' }],
    });
    expect(client.sandbox.acceptedMessages()).toEqual([
      expect.objectContaining({ messageId: result.body.messages[0].id, type: 'template', via: 'marketing_messages', phoneNumberId: PHONE_ID }),
    ]);
  });

  it('validates like a template send, plus the Marketing Messages fields', async () => {
    const utility = await sendMarketing(
      marketing({
        template: {
          name: 'order_update',
          language: { code: 'en_US' },
          components: [
            {
              type: 'body',
              parameters: [
                { type: 'text', text: 'a' },
                { type: 'text', text: 'b' },
              ],
            },
          ],
        },
      }),
    );
    expectGraphError(utility, 400, 131055);
    expect(utility.body.error).toMatchObject({
      message: '(#131055) Method not allowed',
      error_data: { details: 'Only marketing template messages are supported' },
    });
    expectGraphError(await sendMarketing(marketing({ template: { name: 'spring_sale', language: { code: 'en_US' } } })), 400, 132000);
    expectGraphError(await sendMarketing(marketing({ template: { name: 'nope', language: { code: 'en_US' } } })), 404, 132001);
    const { recipient_type: _omitted, ...withoutRecipientType } = marketing();
    expect((await sendMarketing(withoutRecipientType)).body.error.message).toBe('(#100) The parameter recipient_type is required.');
    expect((await sendMarketing(marketing({ type: 'text' }))).body.error).toMatchObject({
      code: 100,
      message: '(#100) Invalid parameter',
      error_data: { details: 'Message must be a template message.' },
    });
    expect((await sendMarketing(marketing({ product_policy: 'LOOSE' }))).body.error.message).toContain(
      'Param product_policy must be one of {CLOUD_API_FALLBACK, STRICT}',
    );
    expect((await sendMarketing(marketing({ message_activity_sharing: 'yes' }))).body.error.message).toBe(
      '(#100) Param message_activity_sharing must be a boolean.',
    );
    expect(client.sandbox.acceptedMessages()).toEqual([]);
  });

  it('is subject to recipient rules, errorRate and throughput like /messages', async () => {
    client.sandbox.configure({ recipientErrors: { [RECIPIENT]: { code: 131049, times: 1 } } });
    expectGraphError(await sendMarketing(marketing()), 400, 131049);
    client.sandbox.configure({ errorRate: 1 });
    expectGraphError(await sendMarketing(marketing()), 500, 2);
    client.sandbox.configure({ errorRate: 0, throughputByPhoneNumberId: { [PHONE_ID]: 1 } });
    expect((await sendMarketing(marketing())).status).toBe(200);
    expectGraphError(await sendMarketing(marketing()), 400, 130429);
  });
});

describe('typing indicators', () => {
  it('are read receipts with a typing_indicator, and only of type text', async () => {
    const ok = await client.send({ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.in', typing_indicator: { type: 'text' } });
    expect(ok.body).toEqual({ success: true });
    const bad = await client.send({ messaging_product: 'whatsapp', status: 'read', message_id: 'wamid.in', typing_indicator: { type: 'audio' } });
    expect(bad.body.error.message).toContain("Param typing_indicator['type'] must be one of {TEXT}");
  });
});

describe('fault injection on the management routes', () => {
  it('applies errorRate to sends only', async () => {
    client.sandbox.configure({ errorRate: 1 });
    const created = await client.graph('POST', `/${WABA_ID}/message_templates`, {
      body: { name: 'fault_free', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hello' }] },
    });
    expect(created.status).toBe(200);
    const uploaded = await client.graph('POST', `/${PHONE_ID}/media`, {
      form: uploadForm({ messaging_product: 'whatsapp' }, { name: 'a.txt', type: 'text/plain', data: 'hi' }),
    });
    expect(uploaded.status).toBe(200);
    expect((await client.graph('GET', `/${PHONE_ID}/whatsapp_business_profile`)).status).toBe(200);
  });

  it('adds latency to management routes and downloads', async () => {
    const uploaded = await client.graph('POST', `/${PHONE_ID}/media`, {
      form: uploadForm({ messaging_product: 'whatsapp' }, { name: 'a.txt', type: 'text/plain', data: 'hi' }),
    });
    const { url } = (await client.graph('GET', `/${uploaded.body.id}`)).body;
    client.sandbox.configure({ latencyMs: 120 });
    for (const call of [() => client.graph('GET', `/${PHONE_ID}/settings`), () => client.download(url)]) {
      const started = performance.now();
      expect((await call()).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(110);
    }
  });

  it('holds management requests at timeoutRate 1', async () => {
    client.sandbox.configure({ timeoutRate: 1 });
    await expect(client.graph('GET', `/${WABA_ID}/flows`, { signal: AbortSignal.timeout(150) })).rejects.toThrow();
    await expect(client.graph('GET', '/message_template_library', { signal: AbortSignal.timeout(150) })).rejects.toThrow();
  });
});
