/**
 * Meta's Marketing Messages API with the business account's setting `auto` (the default): the
 * accept reads Meta's `marketing_messages_onboarding_status` from the sandbox, and with the account
 * ONBOARDED a MARKETING broadcast (here a rich one, summer_coupon) reaches `/marketing_messages`
 * while a UTILITY one stays on `/messages`; the job's route and the recipients list's `sentVia` say
 * so. The settings `enabled` / `disabled` and the fallback: marketing-messages.test.ts.
 *
 * The onboarding status is cached per account for minutes (marketing-messages-onboarding.ts), so
 * it is set before this runtime's first MARKETING broadcast, and the sandbox is reset after.
 */
import { getServices } from '../../../functions/composition';
import { adminCommands } from '../../../shared/tenancy/admin-commands';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { DEMO, issueKey, keyHeader, kitEnvironment, readJob, runWorkersUntilIdle, BASE } from './broadcast-test-kit';
import { copyCode, header, numberOf, richBroadcast, richRecipients, urlButton, body } from './rich-templates-kit';

jest.setTimeout(60_000);

describe('Marketing Messages API: setting auto, account ONBOARDED at Meta', () => {
  let runtime: TestRuntime;
  let organizationId: string;
  let key: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ startWorkers: false, environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
    key = (await issueKey(organizationId)).secret;
    await adminCommands['set-marketing-messages'].run(getServices().tenancy, { waba: DEMO.wabaId, enabled: 'auto' });
    runtime.sandbox!.setMarketingMessagesOnboarding(DEMO.wabaId, 'ONBOARDED');
  }, 60_000);
  afterAll(async () => {
    runtime?.sandbox?.reset();
    await runtime?.close();
  });

  async function broadcast(body: Record<string, unknown>): Promise<string> {
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body });
    expect(accepted.status).toBe(200);
    await runWorkersUntilIdle(runtime);
    return accepted.headers.get('x-broadcast-job-id')!;
  }
  const sentTo = (to: string) => runtime.sandbox!.acceptedMessages().filter((message) => message.recipient === to);
  const sentVia = async (jobId: string): Promise<Array<string | undefined>> => {
    const response = await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients`, { headers: keyHeader(key) });
    expect(response.status).toBe(200);
    return response.body.data.recipients.map((row: { sentVia?: string }) => row.sentVia);
  };

  it('a MARKETING broadcast goes through /marketing_messages, with its rich components and product_policy', async () => {
    const data = richRecipients(2, 9_750_000_000, (index) => ({ header: { type: 'text', text: `Ada${index}` } }));
    const jobId = await broadcast(richBroadcast('summer_coupon', data, { buttons: [{ index: 0, type: 'copy_code', couponCode: 'SUMMER20' }] }));

    for (const [index, recipient] of data.entries()) {
      const sent = sentTo(numberOf(recipient));
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatchObject({
        via: 'marketing_messages',
        body: {
          product_policy: 'CLOUD_API_FALLBACK',
          type: 'template',
          template: { name: 'summer_coupon', components: [header({ type: 'text', text: `Ada${index}` }), copyCode(0, 'SUMMER20')] },
        },
      });
    }
    expect(await readJob(organizationId, jobId)).toMatchObject({ status: 'COMPLETED', route: 'marketing_messages' });
    expect(await sentVia(jobId)).toEqual(['marketing_messages', 'marketing_messages']);
  });

  it('a UTILITY broadcast of the same account goes through /messages', async () => {
    const data = richRecipients(2, 9_750_000_100, (index) => ({
      templateParams: [`Bo${index}`, `B-${index}`],
      buttons: [{ index: 0, type: 'url', text: `B-${index}` }],
    }));
    const jobId = await broadcast(richBroadcast('order_shipped', data, { header: { type: 'image', link: 'https://cdn.example.com/p.jpg' } }));

    for (const [index, recipient] of data.entries()) {
      const sent = sentTo(numberOf(recipient));
      expect(sent).toHaveLength(1);
      expect(sent[0]).not.toHaveProperty('via');
      expect(sent[0]!.body).not.toHaveProperty('product_policy');
      expect((sent[0]!.body as { template: { components: unknown } }).template.components).toEqual([
        header({ type: 'image', image: { link: 'https://cdn.example.com/p.jpg' } }),
        body(`Bo${index}`, `B-${index}`),
        urlButton(0, `B-${index}`),
      ]);
    }
    expect(await readJob(organizationId, jobId)).toMatchObject({ status: 'COMPLETED', route: 'cloud_api' });
    expect(await sentVia(jobId)).toEqual(['cloud_api', 'cloud_api']);
  });
});
