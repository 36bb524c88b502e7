/**
 * Meta's messaging tier at accept time (docs/BROADCAST.md "Messaging limits"), against the local
 * runtime and the sandbox: the sandbox answers TIER_250 for sender 1's number, the platform reads
 * it from the Graph API and counts the demo portfolio's unique recipients in the messaging table.
 */
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { walletMicros } from '../earlier-operations/earlier-operations-kit';
import { BASE, DEMO, issueKey, jobCount, keyHeader, kitEnvironment, orderUpdate, queueDepth, recipients } from './broadcast-test-kit';

describe('messaging limit: a broadcast past the portfolio tier is refused at accept time', () => {
  let runtime: TestRuntime;
  let organizationId: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
    // Set before the platform first reads the tier (it caches it for a few minutes).
    runtime.sandbox!.configure({ messagingLimitByPhoneNumberId: { [DEMO.phoneNumberId1]: 'TIER_250' } });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const send = async (first: number, count: number) => {
    const key = await issueKey(organizationId);
    return runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key.secret), body: orderUpdate(recipients(count, { first })) });
  };
  const sent = () => runtime.sandbox!.acceptedMessages().filter((message) => message.phoneNumberId === DEMO.phoneNumberId1);

  test('tier 250: 300 new recipients refused with both numbers; 200, then 100 with 50 repeats, fit; one more new does not', async () => {
    const jobsBefore = await jobCount(organizationId);

    const refused = await send(9_100_000_000, 300);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ status: false, status_code: 400 });
    expect(refused.body.data.error.code).toBe('MESSAGING_LIMIT_EXCEEDED');
    expect(refused.body.message).toContain('to 300 unique recipients in a moving 24 hours (0 already reached, 300 new); its messaging limit (TIER_250) is 250');
    expect(await jobCount(organizationId)).toBe(jobsBefore);
    expect(await queueDepth(runtime)).toBe(0);

    expect((await send(9_100_000_000, 200)).status).toBe(200);
    // 50 of these were reached by the first: 250 unique in all, exactly the limit (counted twice, it would be 300).
    expect((await send(9_100_000_150, 100)).status).toBe(200);
    await eventually(
      async () => sent().length,
      (count) => count === 300,
      30_000,
      50,
    );
    expect(new Set(sent().map((message) => message.recipient)).size).toBe(250);

    // An opted-out number is never sent to, so it does not count.
    const v1 = { authorization: `Bearer ${runtime.demo.v1ApiKey}` };
    expect((await runtime.call('POST', '/v1/opt-outs', { headers: v1, body: { phoneNumber: '919100000250' } })).status).toBeLessThan(300);
    expect((await send(9_100_000_250, 1)).status).toBe(200);

    const past = await send(9_100_000_251, 1);
    expect(past.status).toBe(400);
    expect(past.body.message).toContain('to 251 unique recipients in a moving 24 hours (250 already reached, 1 new); its messaging limit (TIER_250) is 250');
    expect(await jobCount(organizationId)).toBe(jobsBefore + 3);
    expect(sent().filter((message) => message.recipient === '919100000250' || message.recipient === '919100000251')).toEqual([]);

    // The earlier send-bulk counts against the same portfolio: a new recipient is refused, a reached one is not, and nothing is charged for the refusal.
    const bound = await issueKey(organizationId, DEMO.sender1);
    const bulk = (toPhoneNumber: string, name: string) =>
      runtime.call('POST', `${BASE}/send-bulk`, {
        headers: keyHeader(bound.secret),
        body: {
          broadcastName: name,
          templateName: 'order_update',
          templateLanguage: 'en_US',
          templateType: 'UTILITY',
          globalTemplateParams: ['A', 'B'],
          data: [{ countryCode: '91', toPhoneNumber }],
        },
      });
    const walletBefore = await walletMicros(organizationId);
    const refusedBulk = await bulk('9100000252', 'tier-new');
    expect(refusedBulk.status).toBe(400);
    expect(refusedBulk.body.message).toContain('(250 already reached, 1 new); its messaging limit (TIER_250) is 250');
    expect(await walletMicros(organizationId)).toBe(walletBefore);
    expect((await bulk('9100000001', 'tier-repeat')).status).toBe(200);
  }, 60_000);
});
