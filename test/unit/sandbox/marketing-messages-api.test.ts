/**
 * The Marketing Messages API's own rules (marketing-messages.ts, /work/shared/meta/marketing-messages-api.md):
 * onboarding and `product_policy` decide the route (MM API, Cloud API fallback, or a refusal),
 * MARKETING templates only, "still syncing", `disable_marketing_messages_on_cloud_api` on
 * `/messages`, and the control routes that set the account's state.
 */
import { bsuidOf } from '../../../sandbox/user-identity';
import { startSandboxClient, useSandbox } from '../../support/use-sandbox';
import { PHONE_ID, RECIPIENT, TOKEN, WABA_ID, expectGraphError, fixtureAccounts, templateMessage } from './sandbox-test-helpers';

const SPRING_SALE = '3000003'; // MARKETING, a TEXT header with one variable; PENDING in the fixture
const client = useSandbox({ accounts: fixtureAccounts(), beforeEachTest: (sandbox) => sandbox.reset() });

beforeAll(() => {
  client.sandbox.setTemplateStatus(SPRING_SALE, 'APPROVED');
});

const springSale = { name: 'spring_sale', language: { code: 'en_US' }, components: [{ type: 'header', parameters: [{ type: 'text', text: 'Ann' }] }] };

function marketing(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to: RECIPIENT, type: 'template', template: springSale, ...overrides };
}

const sendMarketing = (body: Record<string, unknown>) => client.graph('POST', `/${PHONE_ID}/marketing_messages`, { body });
const sendCloudApi = () => client.send({ messaging_product: 'whatsapp', to: RECIPIENT, type: 'template', template: springSale });
const onboard = (status: string) => client.sandboxApi('POST', `/accounts/${WABA_ID}/marketing-messages`, { onboardingStatus: status });
const disableOnCloudApi = (value: boolean) => client.graph('POST', `/${WABA_ID}`, { body: { disable_marketing_messages_on_cloud_api: value } });
const routes = () => client.sandbox.acceptedMessages().map((message) => message.via);

/** The pricing categories analytics derived from the sends (what status webhooks carry as `pricing.category`). */
async function pricingCategories(): Promise<string[]> {
  const now = Math.floor(Date.now() / 1000);
  const fields = `pricing_analytics.start(${now - 86_400}).end(${now + 86_400}).granularity(DAILY).dimensions(["PRICING_CATEGORY"])`;
  const result = await client.graph('GET', `/${WABA_ID}?fields=${encodeURIComponent(fields)}`);
  return result.body.pricing_analytics.data[0].data_points.map((point: { pricing_category: string }) => point.pricing_category).sort();
}

describe('routing by onboarding status and product_policy', () => {
  it('an account that has not onboarded (ELIGIBLE by default) falls back to Cloud API, priced marketing', async () => {
    expect((await client.graph('GET', `/${WABA_ID}?fields=marketing_messages_onboarding_status`)).body).toEqual({
      id: WABA_ID,
      marketing_messages_onboarding_status: 'ELIGIBLE',
    });
    expect((await sendMarketing(marketing())).status).toBe(200);
    expect((await sendMarketing(marketing({ product_policy: 'CLOUD_API_FALLBACK' }))).status).toBe(200);
    expect(routes()).toEqual(['cloud_api_fallback', 'cloud_api_fallback']);
    expect(await pricingCategories()).toEqual(['MARKETING']);
  });

  it('refuses STRICT from an account that has not onboarded: 131055 with the terms message', async () => {
    for (const status of ['ELIGIBLE', 'NOT_ELIGIBLE']) {
      await onboard(status);
      const result = await sendMarketing(marketing({ product_policy: 'STRICT' }));
      expectGraphError(result, 400, 131055);
      expect(result.body.error.message).toBe('(#200) You must accept the Marketing Messages Lite API terms to use the API.');
    }
    expect(routes()).toEqual([]);
  });

  it('an onboarded account sends through the Marketing Messages API, priced marketing_lite, with either policy', async () => {
    expect((await onboard('ONBOARDED')).body).toEqual({ wabaId: WABA_ID, onboardingStatus: 'ONBOARDED', disableMarketingMessagesOnCloudApi: false });
    expect((await client.graph('GET', `/${WABA_ID}?fields=marketing_messages_onboarding_status`)).body).toEqual({
      id: WABA_ID,
      marketing_messages_onboarding_status: 'ONBOARDED',
    });
    expect((await sendMarketing(marketing())).status).toBe(200);
    expect((await sendMarketing(marketing({ product_policy: 'STRICT' }))).status).toBe(200);
    expect(routes()).toEqual(['marketing_messages', 'marketing_messages']);
    expect(await pricingCategories()).toEqual(['MARKETING_LITE']);
  });
});

describe('what /marketing_messages refuses', () => {
  it('a UTILITY template: 131055 Method not allowed', async () => {
    await onboard('ONBOARDED');
    const utility = await sendMarketing(marketing({ template: templateMessage('order_update', 'en_US', ['Ann', 'A1']).template }));
    expectGraphError(utility, 400, 131055);
    expect(utility.body.error).toMatchObject({
      message: '(#131055) Method not allowed',
      error_data: { messaging_product: 'whatsapp', details: 'Only marketing template messages are supported' },
    });
  });

  it('a message that is not a template: 100 "Message must be a template message."', async () => {
    const result = await sendMarketing(marketing({ type: 'text', text: { body: 'hi' } }));
    expectGraphError(result, 400, 100);
    expect(result.body.error).toMatchObject({ message: '(#100) Invalid parameter', error_data: { details: 'Message must be a template message.' } });
  });

  it('a template still syncing to the ad account: 134101, on the MM API route only', async () => {
    expect((await client.sandboxApi('POST', `/templates/${SPRING_SALE}/syncing`, { syncing: true })).body).toEqual({ id: SPRING_SALE, syncing: true });
    expect((await sendMarketing(marketing())).status).toBe(200); // not onboarded: the fallback never meets the sync
    await onboard('ONBOARDED');
    const syncing = await sendMarketing(marketing());
    expectGraphError(syncing, 400, 134101);
    expect(syncing.body.error.message).toBe('(#134101) Your template is still syncing');
    expect((await client.sandboxApi('DELETE', `/templates/${SPRING_SALE}/syncing`)).status).toBe(200);
    expect((await sendMarketing(marketing())).status).toBe(200);
  });
});

describe('disable_marketing_messages_on_cloud_api', () => {
  // The flag is a Graph-made change, which reset keeps.
  afterEach(() => disableOnCloudApi(false));

  it('is set with POST /{waba-id} and read back with fields', async () => {
    expect((await client.graph('GET', `/${WABA_ID}?fields=disable_marketing_messages_on_cloud_api`)).body).toEqual({
      id: WABA_ID,
      disable_marketing_messages_on_cloud_api: false,
    });
    expect((await disableOnCloudApi(true)).body).toEqual({ success: true });
    expect((await client.graph('GET', `/${WABA_ID}?fields=disable_marketing_messages_on_cloud_api`)).body).toEqual({
      id: WABA_ID,
      disable_marketing_messages_on_cloud_api: true,
    });
    expectGraphError(await client.graph('POST', `/${WABA_ID}`, { body: { disable_marketing_messages_on_cloud_api: 'maybe' } }), 400, 100);
    expect((await client.graph('POST', `/${WABA_ID}`, { body: {} })).body.error.message).toBe(
      '(#100) At least one of name, timezone_id, disable_marketing_messages_on_cloud_api is required.',
    );
  });

  it('on an onboarded account, /messages refuses MARKETING templates (131063) and still takes others', async () => {
    await onboard('ONBOARDED');
    await disableOnCloudApi(true);
    const refused = await sendCloudApi();
    expectGraphError(refused, 400, 131063);
    expect(refused.body.error.message).toBe('(#131063) Marketing templates disabled for Cloud API');
    expect((await client.send(templateMessage('order_update', 'en_US', ['Ann', 'A1']))).status).toBe(200);
    expect((await sendMarketing(marketing())).status).toBe(200);
    expect(routes()).toEqual([undefined, 'marketing_messages']);
  });

  it('on an account that has not onboarded, it leaves /messages alone and blocks the fallback (131063)', async () => {
    await disableOnCloudApi(true);
    expect((await sendCloudApi()).status).toBe(200);
    expectGraphError(await sendMarketing(marketing()), 400, 131063);
    expectGraphError(await sendMarketing(marketing({ product_policy: 'STRICT' })), 400, 131055);
  });
});

describe('control routes', () => {
  it('read, set and reset the onboarding status; reset() returns to the registered one', async () => {
    expect((await client.sandboxApi('GET', `/accounts/${WABA_ID}/marketing-messages`)).body).toEqual({
      wabaId: WABA_ID,
      onboardingStatus: 'ELIGIBLE',
      disableMarketingMessagesOnCloudApi: false,
    });
    await onboard('ONBOARDED');
    expect((await client.sandboxApi('DELETE', `/accounts/${WABA_ID}/marketing-messages`)).body.onboardingStatus).toBe('ELIGIBLE');
    client.sandbox.setMarketingMessagesOnboarding(WABA_ID, 'ONBOARDED');
    client.sandbox.reset();
    expect((await client.sandboxApi('GET', `/accounts/${WABA_ID}/marketing-messages`)).body.onboardingStatus).toBe('ELIGIBLE');
  });

  it('refuse an unknown status, account or template', async () => {
    expect(await onboard('SIGNED')).toMatchObject({
      status: 400,
      body: { error: { message: 'onboardingStatus must be one of ELIGIBLE, ONBOARDED, NOT_ELIGIBLE' } },
    });
    expect((await client.sandboxApi('POST', '/accounts/404404/marketing-messages', { onboardingStatus: 'ONBOARDED' })).status).toBe(404);
    expect((await client.sandboxApi('POST', '/templates/404404/syncing', { syncing: true })).status).toBe(404);
    expect((await client.sandboxApi('POST', `/templates/${SPRING_SALE}/syncing`, { syncing: 'yes' })).status).toBe(400);
  });

  it('an account can be registered already onboarded', async () => {
    const [account] = fixtureAccounts();
    const other = await startSandboxClient({ accounts: [{ ...account!, marketingMessagesOnboardingStatus: 'ONBOARDED' }] });
    expect(
      (await other.graph('GET', `/${WABA_ID}?fields=marketing_messages_onboarding_status`, { token: TOKEN })).body.marketing_messages_onboarding_status,
    ).toBe('ONBOARDED');
    await other.close();
  });
});

describe('/marketing_messages to a BSUID', () => {
  const userId = bsuidOf('9000001', RECIPIENT);
  const byId = (overrides: Record<string, unknown> = {}) => marketing({ to: undefined, recipient: userId, ...overrides });

  it('accepts recipient instead of to and answers with user_id', async () => {
    const sent = await sendMarketing(byId());
    expect(sent.status).toBe(200);
    expect(sent.body.contacts).toEqual([{ input: userId, user_id: userId }]);
    expect(sent.body.messages[0].message_status).toBe('accepted');
  });

  it('refuses a max price (bid_spec, optimization_spec) with 131062 naming the field', async () => {
    for (const field of ['bid_spec', 'optimization_spec']) {
      const refused = await sendMarketing(byId({ [field]: { bid_amount: 10 } }));
      expectGraphError(refused, 400, 131062);
      expect(refused.body.error.error_data.details).toContain(field);
    }
  });
});
