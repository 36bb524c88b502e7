/**
 * A campaign end to end through the local runtime and the sandbox (issue 36 "Proof"): two audiences
 * (2,500 and 1,200 members, 300 in both, one person opted out, 50 without first_name, 10 by BSUID of
 * which 5 are paired with a number of the other list) and an excluded audience → one campaign with a
 * fallback reaches every eligible person exactly once with their own values; the counts, the job's
 * summary and its recipients list match; the opted-out and the excluded are never sent; the
 * campaign's job is not listed among broadcasts.
 */
import { getServices } from '../../../functions/composition';
import { DynamoDbCampaignStore } from '../../../shared/adapters/dynamodb/dynamodb-campaign-store';
import { DynamoDbInboxRepository } from '../../../shared/adapters/dynamodb/dynamodb-inbox-repository';
import { demoIds } from '../../../local/demo-tenant';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, acceptedByRecipient, bodyParameters, issueKey, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';
import { audienceOf } from './campaign-test-kit';

// ~30 s on an idle machine; minutes when six test runs share two cores.
jest.setTimeout(300_000);

const number = (index: number) => ({ countryCode: '91', toPhoneNumber: String(9_300_000_000 + index) });
const full = (index: number) => `91${9_300_000_000 + index}`;
const range = (from: number, count: number) => Array.from({ length: count }, (_, offset) => from + offset);
const row = (index: number) => ({ ...number(index), attributes: index < 50 ? { city: 'Pune' } : { first_name: `P${index}`, city: 'Pune' } });

describe('a campaign run', () => {
  let runtime: TestRuntime;
  let key: string;
  const call = (method: string, path: string, body?: unknown) => runtime.call(method, `${BASE}${path}`, { headers: keyHeader(key), body });

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    key = (await issueKey(runtime.demo!.organizationId)).secret;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const audience = (name: string, members: readonly unknown[]) => audienceOf(call, name, members);

  /** A user the sandbox knows only by BSUID. */
  async function phonelessUser(username: string): Promise<string> {
    const response = await fetch(`${runtime.sandboxUrl}/_sandbox/users`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ businessId: demoIds.businessId, username, country: 'US' }),
    });
    const user = (await response.json()) as { userId?: string; data?: { userId?: string } };
    return (user.userId ?? user.data?.userId)!;
  }

  it('reaches every eligible person exactly once with their own values; counts and lists match', async () => {
    const organizationId = runtime.demo!.organizationId;
    const userIds = await Promise.all(range(0, 10).map((n) => phonelessUser(`campaign_run_${n}`)));
    // A: 0..2499 (50 without first_name); B: 2200..3389 (300 shared with A) and 10 BSUIDs.
    const a = await audience('A', range(0, 2500).map(row));
    const b = await audience('B', [...range(2200, 1190).map(row), ...userIds.map((userId, n) => ({ userId, attributes: { first_name: `U${n}` } }))]);
    const excluded = await audience('Excluded', range(100, 20).map(number));
    // Five of the BSUIDs are people of A: the contact book pairs them with A's numbers (as Meta's webhooks would).
    const inbox = new DynamoDbInboxRepository(getServices().clients.dynamoDb, getServices().config.tableNames.inbox);
    for (const n of range(0, 5)) await inbox.recordPair(organizationId, { phoneNumber: full(1000 + n), userId: userIds[n]!, at: new Date().toISOString() });
    const v1 = { authorization: `Bearer ${runtime.demo!.v1ApiKey}` };
    expect((await runtime.call('POST', '/v1/opt-outs', { headers: v1, body: { phoneNumber: full(60) } })).status).toBeLessThan(300);

    const created = await call('POST', '/campaigns', {
      name: 'Spring run',
      fromPhoneNumber: DEMO.sender1,
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      audience: { audienceIds: [a, b], excludeAudienceIds: [excluded] },
      templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'SPRING25'],
    });
    expect(created.status).toBe(201);
    const campaignId = created.body.data.campaignId as string;
    const started = Date.now();
    const launched = await call('POST', `/campaigns/${campaignId}/launch`);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(launched.status).toBe(202);
    expect(launched.body.data).toEqual({ campaignId, state: 'LAUNCHING' });

    const campaigns = new DynamoDbCampaignStore(getServices().clients.dynamoDb, getServices().config.tableNames.messaging);
    const { jobId } = (await campaigns.getCampaign(organizationId, campaignId))!;
    const final = await eventually(
      () => call('GET', `/status/${jobId}`),
      (response) => ['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED'].includes(response.body?.data?.status),
      180_000,
      1000,
    );
    // 2,500 + 890 + 5 unpaired BSUIDs = 3,395 people; 20 excluded; one opted out (listed FAILED).
    expect(final.body.data).toMatchObject({
      status: 'COMPLETED_WITH_FAILURES',
      totalRecipients: 3375,
      summary: { sent: 3374, failed: 1, pending: 0, failuresByReason: { OPTED_OUT: 1 } },
    });
    expect((await campaigns.getCampaign(organizationId, campaignId))!.expansion).toMatchObject({
      status: 'done',
      counts: { members: 3700, duplicates: 305, excluded: 20, filteredOut: 0, optedOut: 1, missingAttribute: 0, invalid: 0, sendable: 3374 },
    });

    const sent = acceptedByRecipient(runtime, DEMO.phoneNumberId1);
    const campaignSends = [...sent.entries()].filter(([recipient]) => recipient.startsWith('91930') || recipient.startsWith('US.'));
    expect(campaignSends).toHaveLength(3374);
    expect(campaignSends.every(([, messages]) => messages.length === 1)).toBe(true);
    expect(bodyParameters(sent.get(full(7))![0]!)).toEqual(['there', 'SPRING25']);
    expect(bodyParameters(sent.get(full(2300))![0]!)).toEqual(['P2300', 'SPRING25']);
    expect(bodyParameters(sent.get(full(3000))![0]!)).toEqual(['P3000', 'SPRING25']);
    expect(bodyParameters(sent.get(userIds[7]!)![0]!)).toEqual(['U7', 'SPRING25']);
    for (const index of [60, ...range(100, 20)]) expect(sent.has(full(index))).toBe(false);
    for (const userId of userIds.slice(0, 5)) expect(sent.has(userId)).toBe(false);

    const failed = await call('GET', `/broadcasts/${jobId}/recipients?status=FAILED`);
    expect(failed.status).toBe(200);
    expect(JSON.stringify(failed.body.data)).toContain('OPTED_OUT');
    const listed = await call('GET', '/broadcasts?limit=100');
    expect(listed.body.data.broadcasts.map((item: { jobId: string }) => item.jobId)).not.toContain(jobId);
  });
});
