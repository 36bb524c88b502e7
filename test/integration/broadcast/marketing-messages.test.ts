/**
 * Meta's Marketing Messages API through the local runtime and the Cloud API sandbox: with the
 * business account's setting `enabled` a MARKETING broadcast reaches `/marketing_messages` (the
 * sandbox logs `via`), a UTILITY broadcast `/messages`; `disabled` keeps MARKETING on `/messages`;
 * a refusal of the template by the API (134101, injected once) sends that recipient through
 * `/messages` instead. The job status shows the route, the recipients list `sentVia`.
 *
 * `auto` follows Meta's `marketing_messages_onboarding_status` as the sandbox answers it (set
 * through its control API): ELIGIBLE keeps MARKETING on `/messages`, ONBOARDED moves it.
 */
import { getServices } from '../../../functions/composition';
import { adminCommands } from '../../../shared/tenancy/admin-commands';
import type { MarketingMessagesSetting } from '../../../shared/tenancy/tenancy-entities';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, orderUpdate, readJob, recipients, waitForTerminal } from './broadcast-test-kit';

jest.setTimeout(120_000);

describe('Marketing Messages API per business account', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let key: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
    key = (await issueKey(organizationId)).secret;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const setMarketingMessages = (enabled: 'true' | 'false' | 'auto') =>
    adminCommands['set-marketing-messages'].run(getServices().tenancy, { waba: DEMO.wabaId, enabled });
  /** spring_sale: the demo's approved MARKETING template, one placeholder. */
  const springSale = (data: ReturnType<typeof recipients>) =>
    orderUpdate(data, { broadcastName: 'mm', templateName: 'spring_sale', templateLanguage: 'en', templateType: 'MARKETING' });
  async function broadcast(body: Record<string, unknown>): Promise<string> {
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body });
    expect(accepted.status).toBe(200);
    const jobId = accepted.headers.get('x-broadcast-job-id')!;
    await waitForTerminal(organizationId, jobId, 60_000);
    return jobId;
  }
  const acceptedFor = (to: string) => runtime.sandbox!.acceptedMessages().filter((message) => message.recipient === to);
  const recipientRows = async (jobId: string): Promise<Array<{ toPhoneNumber: string; status: string; sentVia?: string }>> => {
    const response = await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients`, { headers: keyHeader(key) });
    expect(response.status).toBe(200);
    return response.body.data.recipients;
  };

  it('enabled: a MARKETING broadcast goes through /marketing_messages with CLOUD_API_FALLBACK; status and recipients say so', async () => {
    // Meta delivers through the API only for an onboarded account (otherwise CLOUD_API_FALLBACK routes it through Cloud API itself).
    runtime.sandbox!.setMarketingMessagesOnboarding(DEMO.wabaId, 'ONBOARDED');
    expect(await setMarketingMessages('true')).toMatchObject({ wabaId: DEMO.wabaId, marketingMessages: 'enabled' satisfies MarketingMessagesSetting });
    const data = recipients(3, { first: 9_400_000_000, params: (index) => [`Ada${index}`] });
    const jobId = await broadcast(springSale(data));

    for (const { toPhoneNumber } of data) {
      const sent = acceptedFor(`91${toPhoneNumber}`);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        via: 'marketing_messages',
        body: { product_policy: 'CLOUD_API_FALLBACK', type: 'template', template: { name: 'spring_sale' } },
      });
    }
    // The sandbox's inspection endpoint shows the same.
    const inspected = (await (await fetch(`${runtime.sandboxUrl}/_sandbox/messages?recipient=91${data[0]!.toPhoneNumber}`)).json()) as {
      data: Array<{ via?: string }>;
    };
    expect(inspected.data.map((message) => message.via)).toEqual(['marketing_messages']);

    expect(await readJob(organizationId, jobId)).toMatchObject({ status: 'COMPLETED', route: 'marketing_messages' });
    const status = await runtime.call('GET', `${BASE}/status/${jobId}`, { headers: keyHeader(key) });
    expect(status.body.data).toMatchObject({ route: 'marketing_messages' });
    expect((await recipientRows(jobId)).map((row) => row.sentVia)).toEqual(['marketing_messages', 'marketing_messages', 'marketing_messages']);
  });

  it('enabled: a UTILITY broadcast of the same account goes through /messages', async () => {
    await setMarketingMessages('true');
    const data = recipients(2, { first: 9_400_000_100 });
    const jobId = await broadcast(orderUpdate(data));
    for (const { toPhoneNumber } of data) {
      const sent = acceptedFor(`91${toPhoneNumber}`);
      expect(sent).toHaveLength(1);
      expect(sent[0]).not.toHaveProperty('via');
      expect(sent[0]!.body).not.toHaveProperty('product_policy');
    }
    expect(await readJob(organizationId, jobId)).toMatchObject({ route: 'cloud_api' });
    expect((await recipientRows(jobId)).map((row) => row.sentVia)).toEqual(['cloud_api', 'cloud_api']);
  });

  it('disabled: a MARKETING broadcast goes through /messages', async () => {
    await setMarketingMessages('false');
    const data = recipients(2, { first: 9_400_000_200, params: () => ['Bo'] });
    const jobId = await broadcast(springSale(data));
    for (const { toPhoneNumber } of data) expect(acceptedFor(`91${toPhoneNumber}`).map((message) => message.via)).toEqual([undefined]);
    expect(await readJob(organizationId, jobId)).toMatchObject({ status: 'COMPLETED', route: 'cloud_api' });
  });

  it('a refusal of the template by the API (134101, still syncing) sends the recipient through /messages: one message each, nobody failed', async () => {
    await setMarketingMessages('true');
    const data = recipients(3, { first: 9_400_000_300, params: () => ['Cy'] });
    const refused = `91${data[0]!.toPhoneNumber}`;
    runtime.sandbox!.configure({ recipientErrors: { [refused]: { code: 134101, message: '(#134101) Your template is still syncing', times: 1 } } });
    try {
      const jobId = await broadcast(springSale(data));
      expect(await readJob(organizationId, jobId)).toMatchObject({ status: 'COMPLETED', route: 'marketing_messages', summary: { sent: 3, failed: 0 } });
      expect(acceptedFor(refused).map((message) => message.via)).toEqual([undefined]);
      for (const { toPhoneNumber } of data) expect(acceptedFor(`91${toPhoneNumber}`)).toHaveLength(1);
      const rows = await recipientRows(jobId);
      expect(rows.find((row) => `91${row.toPhoneNumber}` === refused)).toMatchObject({ status: 'SENT', sentVia: 'cloud_api' });
    } finally {
      runtime.sandbox!.configure({ recipientErrors: { [refused]: null } });
    }
  });

  it('auto again (the default): the account Meta reports ELIGIBLE, not ONBOARDED: MARKETING goes through /messages', async () => {
    runtime.sandbox!.setMarketingMessagesOnboarding(DEMO.wabaId, 'ELIGIBLE');
    await setMarketingMessages('auto');
    const data = recipients(1, { first: 9_400_000_400, params: () => ['Di'] });
    const jobId = await broadcast(springSale(data));
    expect(await readJob(organizationId, jobId)).toMatchObject({ route: 'cloud_api' });
    expect(acceptedFor(`91${data[0]!.toPhoneNumber}`).map((message) => message.via)).toEqual([undefined]);
  });

  it('auto with an account Meta reports ONBOARDED: MARKETING goes through /marketing_messages, UTILITY through /messages', async () => {
    // Another account: Meta's answer is kept 5 minutes per account, and the demo account's was just read as ELIGIBLE.
    const wabaId = '110000000000091';
    runtime.sandbox!.registerBusinessAccount({
      wabaId,
      businessId: '110000000000090',
      name: 'Onboarded Shop',
      accessToken: `token-${wabaId}`,
      marketingMessagesOnboardingStatus: 'ONBOARDED',
      phoneNumbers: [{ id: '120000000000091', displayPhoneNumber: '15550910001', verifiedName: 'Onboarded Shop', qualityRating: 'GREEN' }],
      templates: [
        {
          id: '130000000000091',
          name: 'autumn_sale',
          language: 'en',
          category: 'MARKETING',
          status: 'APPROVED',
          components: [{ type: 'BODY', text: 'Hi {{1}}, autumn sale!' }],
        },
        {
          id: '130000000000092',
          name: 'receipt',
          language: 'en',
          category: 'UTILITY',
          status: 'APPROVED',
          components: [{ type: 'BODY', text: 'Receipt {{1}}' }],
        },
      ],
    });
    const tenancy = getServices().tenancy;
    const org = (await adminCommands['create-organization'].run(tenancy, { name: 'Onboarded Shop', plan: 'enterprise' })).organizationId as string;
    await adminCommands['connect-business-account'].run(tenancy, {
      org,
      'waba-id': wabaId,
      'business-id': '110000000000090',
      name: 'Onboarded Shop',
      'access-token': `token-${wabaId}`,
    });
    await adminCommands['add-phone-number'].run(tenancy, { org, 'waba-id': wabaId, 'phone-number': '15550910001', 'phone-number-id': '120000000000091' });
    const shopKey = (await issueKey(org)).secret;
    const send = async (templateName: string, templateType: string, first: number) => {
      const body = orderUpdate(recipients(1, { first, params: () => ['Fay'] }), {
        broadcastName: templateName,
        fromPhoneNumber: '15550910001',
        templateName,
        templateLanguage: 'en',
        templateType,
      });
      const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(shopKey), body });
      expect(accepted.status).toBe(200);
      const jobId = accepted.headers.get('x-broadcast-job-id')!;
      return { job: await waitForTerminal(org, jobId, 60_000), to: `91${first}` };
    };
    const marketing = await send('autumn_sale', 'MARKETING', 9_400_000_600);
    expect(marketing.job).toMatchObject({ status: 'COMPLETED', route: 'marketing_messages' });
    expect(acceptedFor(marketing.to).map((message) => message.via)).toEqual(['marketing_messages']);
    const utility = await send('receipt', 'UTILITY', 9_400_000_601);
    expect(utility.job).toMatchObject({ status: 'COMPLETED', route: 'cloud_api' });
    expect(acceptedFor(utility.to).map((message) => message.via)).toEqual([undefined]);
  });
});
