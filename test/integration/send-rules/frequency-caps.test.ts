/**
 * Frequency caps end to end through the local runtime and the sandbox (issue 39 "Proof"): with a cap
 * of 1 MARKETING message per person in 7 days, two campaigns launched together over the same people
 * reach each person exactly once, and the other one's recipients are listed FAILED FREQUENCY_CAPPED;
 * a UTILITY broadcast to them afterwards is not capped by the MARKETING-only policy. The policy is
 * set, read and removed through the operators' CLI and the API (audited; a sender-bound key refused).
 */
import { getServices } from '../../../functions/composition';
import { DynamoDbCampaignStore } from '../../../shared/adapters/dynamodb/dynamodb-campaign-store';
import { runContactPolicyAdminCommand } from '../../../shared/send-rules/contact-policy-admin-commands';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, acceptedByRecipient, issueKey, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';
import { audienceOf } from '../campaigns/campaign-test-kit';

jest.setTimeout(240_000);

const PEOPLE = 40;
const number = (index: number) => ({ countryCode: '91', toPhoneNumber: String(9_400_000_000 + index) });
const full = (index: number) => `91${9_400_000_000 + index}`;
const range = (count: number) => Array.from({ length: count }, (_, index) => index);
const TERMINAL = ['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED'];

describe('frequency caps', () => {
  let runtime: TestRuntime;
  let key: string;
  let organizationId: string;
  const call = (method: string, path: string, body?: unknown, secret = key) => runtime.call(method, `${BASE}${path}`, { headers: keyHeader(secret), body });
  const cli = (flags: Record<string, string>) =>
    runContactPolicyAdminCommand(getServices().contactPolicies, 'set-contact-policy', { org: organizationId, ...flags });

  beforeAll(async () => {
    // The policy is read per chunk message here (0 s cache): the test sets it right before the sends.
    runtime = await startTestRuntime({ environment: { ...kitEnvironment, CONTACT_POLICY_CACHE_SECONDS: '0' } });
    organizationId = runtime.demo!.organizationId;
    key = (await issueKey(organizationId)).secret;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it('the CLI and the API set, read and remove the policy; changes are audited; a sender-bound key may only read it', async () => {
    await expect(cli({ 'marketing-per-person': '3', 'per-days': '30', categories: 'MARKETING,UTILITY' })).resolves.toMatchObject({
      policy: { marketingPerPerson: 3, perDays: 30, categories: ['MARKETING', 'UTILITY'], updatedBy: 'admin' },
    });
    expect((await call('GET', '/contact-policy')).body.data).toEqual({ policy: expect.objectContaining({ marketingPerPerson: 3, perDays: 30 }) });

    const refused = await call('PUT', '/contact-policy', { marketingPerPerson: 2, perDays: 0 });
    expect([refused.status, refused.body.message]).toEqual([400, 'perDays must be at least 1']);
    const set = await call('PUT', '/contact-policy', { marketingPerPerson: 2, perDays: 7 });
    expect([set.status, set.body.data.policy]).toEqual([200, expect.objectContaining({ marketingPerPerson: 2, perDays: 7, categories: ['MARKETING'] })]);
    await expect(runContactPolicyAdminCommand(getServices().contactPolicies, 'show-contact-policy', { org: organizationId })).resolves.toMatchObject({
      policy: { marketingPerPerson: 2 },
    });

    const bound = (await issueKey(organizationId, DEMO.sender1)).secret;
    expect((await call('GET', '/contact-policy', undefined, bound)).status).toBe(200);
    expect((await call('DELETE', '/contact-policy', undefined, bound)).status).toBe(403);

    const removed = await call('DELETE', '/contact-policy');
    expect([removed.status, removed.body.data]).toEqual([200, { policy: null }]);
    expect((await call('GET', '/contact-policy')).body.data).toEqual({ policy: null });
    await expect(cli({ off: '' })).resolves.toEqual({ organizationId, policy: null });

    const audited = (await call('GET', '/audit-log?action=setContactPolicy')).body.data.entries as Array<Record<string, any>>;
    expect(audited.map((entry) => entry.statusCode).sort()).toEqual([200, 400]);
    const deletions = (await call('GET', '/audit-log?action=removeContactPolicy')).body.data.entries as Array<Record<string, any>>;
    expect(deletions.map((entry) => entry.statusCode).sort()).toEqual([200, 403]);
  });

  it('two campaigns launched together reach each person exactly once; the other lists FREQUENCY_CAPPED; UTILITY is not capped', async () => {
    await cli({ 'marketing-per-person': '1', 'per-days': '7' });
    const audienceId = await audienceOf(call, 'Capped people', range(PEOPLE).map(number));
    const campaign = async (name: string) => {
      const created = await call('POST', '/campaigns', {
        name,
        fromPhoneNumber: DEMO.sender1,
        templateName: 'spring_sale',
        templateLanguage: 'en',
        templateType: 'MARKETING',
        audience: { audienceIds: [audienceId] },
        templateParams: ['there'],
      });
      expect(created.status).toBe(201);
      return created.body.data.campaignId as string;
    };
    const ids = [await campaign('Spring one'), await campaign('Spring two')];
    const launched = await Promise.all(ids.map((campaignId) => call('POST', `/campaigns/${campaignId}/launch`)));
    expect(launched.map((response) => response.status)).toEqual([202, 202]);

    const campaigns = new DynamoDbCampaignStore(getServices().clients.dynamoDb, getServices().config.tableNames.messaging);
    const jobIds = await Promise.all(ids.map(async (campaignId) => (await campaigns.getCampaign(organizationId, campaignId))!.jobId!));
    const finals = await Promise.all(
      jobIds.map((jobId) =>
        eventually(
          () => call('GET', `/status/${jobId}`),
          (response) => TERMINAL.includes(response.body?.data?.status),
          180_000,
          1500,
        ),
      ),
    );
    const summaries = finals.map((response) => response.body.data.summary);
    // Each person exactly once across both campaigns; every other recipient capped, never sent.
    expect(summaries[0].sent + summaries[1].sent).toBe(PEOPLE);
    expect(summaries[0].failed + summaries[1].failed).toBe(PEOPLE);
    for (const summary of summaries) expect(summary.failuresByReason ?? {}).toEqual(summary.failed > 0 ? { FREQUENCY_CAPPED: summary.failed } : {});
    const accepted = acceptedByRecipient(runtime);
    for (const index of range(PEOPLE)) expect(accepted.get(full(index))).toHaveLength(1);

    // The campaign that reached fewer lists the rest FREQUENCY_CAPPED.
    const second = summaries[0].failed >= summaries[1].failed ? 0 : 1;
    const listed = await call('GET', `/campaigns/${ids[second]}/recipients?status=FAILED&limit=100`);
    expect(listed.status).toBe(200);
    const rows = listed.body.data.recipients as Array<Record<string, any>>;
    expect(rows).toHaveLength(summaries[second].failed);
    expect(new Set(rows.map((row) => row.failureReason?.code ?? row.failureReasonCode))).toEqual(new Set(['FREQUENCY_CAPPED']));

    // A UTILITY template is not capped by a MARKETING-only policy.
    const utility = await call('POST', '/send-template-broadcast', {
      broadcastName: 'Order updates after the sale',
      fromPhoneNumber: DEMO.sender1,
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      data: range(PEOPLE).map((index) => ({ ...number(index), templateParams: ['there', `A-${index}`] })),
    });
    // A job this small answers 200 without its id (docs/BROADCAST.md): the sandbox shows what went out.
    expect(utility.status).toBe(200);
    const reached = () =>
      range(PEOPLE).filter((index) =>
        acceptedByRecipient(runtime)
          .get(full(index))
          ?.some((message) => (message.body as { template?: { name?: string } }).template?.name === 'order_update'),
      );
    await eventually(
      async () => reached().length,
      (count) => count === PEOPLE,
      60_000,
      250,
    );
    for (const index of range(PEOPLE)) expect(acceptedByRecipient(runtime).get(full(index))).toHaveLength(2);
  });
});
