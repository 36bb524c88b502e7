/**
 * Issue 35 items 11 and 12 through the local runtime and the Cloud API sandbox:
 * - Meta's US marketing pause: a MARKETING broadcast with a +1 recipient answers 400
 *   US_MARKETING_PAUSED naming it (the dry run lists it per row), and the organization's opt-out
 *   (`set-us-marketing-guard --enabled false`) lets it through;
 * - a max-price template (the demo's `capped_offer`, Meta's `optimization_spec`) goes through
 *   `/marketing_messages` although the account's setting is off (the sandbox's accepted-message log
 *   shows the path), and a country without max price (131065) fails the recipient without a
 *   fallback to `/messages`.
 */
import { getServices } from '../../../functions/composition';
import { adminCommands } from '../../../shared/tenancy/admin-commands';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, orderUpdate, readJob, waitForTerminal } from './broadcast-test-kit';

jest.setTimeout(120_000);

describe('US marketing pause and max-price templates', () => {
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

  const marketing = (templateName: string, data: Array<{ countryCode: string; toPhoneNumber: string }>) =>
    orderUpdate(
      data.map((recipient, index) => ({ ...recipient, templateParams: [`Ada${index}`] })),
      { broadcastName: templateName, templateName, templateLanguage: 'en', templateType: 'MARKETING' },
    );
  const send = (body: Record<string, unknown>, query = '') =>
    runtime.call('POST', `${BASE}/send-template-broadcast${query}`, { headers: keyHeader(key), body });
  const acceptedFor = (to: string) => runtime.sandbox!.acceptedMessages().filter((message) => message.recipient === to);
  const setGuard = (enabled: 'true' | 'false') => adminCommands['set-us-marketing-guard'].run(getServices().tenancy, { org: organizationId, enabled });

  it('refuses a MARKETING broadcast to a +1 number with 400 naming the recipient; the opt-out setting lets it through', async () => {
    const data = [
      { countryCode: '91', toPhoneNumber: '9400001001' },
      { countryCode: '1', toPhoneNumber: '2025550123' },
    ];
    const refused = await send(marketing('spring_sale', data));
    expect(refused.status).toBe(400);
    expect(refused.body.data.error.code).toBe('US_MARKETING_PAUSED');
    expect(refused.body.message).toMatch(/^data\[1\]\.countryCode must not be 1 \(a US number\) for MARKETING template spring_sale: Meta has paused/);
    expect(acceptedFor('12025550123')).toHaveLength(0);

    // The dry run reports it as the row's problem; the other row stays sendable.
    const dryRun = await send(marketing('spring_sale', data), '?dryRun=true');
    expect(dryRun.status).toBe(200);
    expect(dryRun.body.data.totals).toMatchObject({ received: 2, sendable: 1, invalid: 1 });
    expect(dryRun.body.data.invalid).toEqual([
      { index: 1, field: 'data[1].countryCode', rule: expect.stringMatching(/^must not be 1 \(a US number\) for MARKETING template spring_sale/) },
    ]);

    // A UTILITY template to the same number is not the pause's business.
    const utility = await send(orderUpdate([{ countryCode: '1', toPhoneNumber: '2025550124', templateParams: ['a', 'b'] }]));
    expect(utility.status).toBe(200);

    expect(await setGuard('false')).toMatchObject({ organizationId, usMarketingGuard: false });
    try {
      const accepted = await send(marketing('spring_sale', data));
      expect(accepted.status).toBe(200);
      await waitForTerminal(organizationId, accepted.headers.get('x-broadcast-job-id')!, 60_000);
      expect(acceptedFor('12025550123')).toHaveLength(1);
    } finally {
      await setGuard('true');
    }
  });

  it('sends a max-price template through /marketing_messages with the account setting off; a country without max price fails with 131065, never through /messages', async () => {
    runtime.sandbox!.setMarketingMessagesOnboarding(DEMO.wabaId, 'ONBOARDED');
    await adminCommands['set-marketing-messages'].run(getServices().tenancy, { waba: DEMO.wabaId, enabled: 'false' });
    runtime.sandbox!.configure({ maxPriceUnavailableCountries: ['GB'] });
    try {
      const data = [
        { countryCode: '91', toPhoneNumber: '9400001101' },
        { countryCode: '44', toPhoneNumber: '7700900111' },
      ];
      const accepted = await send(marketing('capped_offer', data));
      expect(accepted.status).toBe(200);
      const jobId = accepted.headers.get('x-broadcast-job-id')!;
      await waitForTerminal(organizationId, jobId, 60_000);

      const sent = acceptedFor('919400001101');
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({ via: 'marketing_messages', body: { template: { name: 'capped_offer' } } });
      expect(acceptedFor('447700900111')).toHaveLength(0);
      expect(await readJob(organizationId, jobId)).toMatchObject({ route: 'marketing_messages' });

      const rows = (await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients`, { headers: keyHeader(key) })).body.data.recipients as Array<
        Record<string, unknown>
      >;
      expect(rows.map(({ status, sentVia, failureReasonCode }) => ({ status, sentVia, failureReasonCode }))).toEqual([
        expect.objectContaining({ sentVia: 'marketing_messages' }),
        { status: 'FAILED', sentVia: undefined, failureReasonCode: '131065' },
      ]);
      expect(rows[1]!.failureReason).toMatch(/Max price is not available in the recipient's country/);
    } finally {
      runtime.sandbox!.configure({ maxPriceUnavailableCountries: [] });
      await adminCommands['set-marketing-messages'].run(getServices().tenancy, { waba: DEMO.wabaId, enabled: 'auto' });
    }
  });
});
