/**
 * The dry run (`?dryRun=true`, docs/BROADCAST.md "Dry run") through the local runtime: every bad
 * row of a 1,001-row body reported by index, the estimate from the example rate card, and nothing
 * sent, recorded, queued or reserved; a real send afterwards with the same Idempotency-Key is a
 * fresh accept. Answers are checked against the OpenAPI document by the runtime's client.
 */
import { readFileSync } from 'node:fs';
import { getServices } from '../../../functions/composition';
import { runRateCardAdminCommand } from '../../../shared/pricing/rate-card-admin-commands';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, idempotencyRecords, issueKey, jobCount, keyHeader, kitEnvironment, orderUpdate, queueDepth, recipients } from './broadcast-test-kit';

describe('dry run of a template broadcast', () => {
  let runtime: TestRuntime;
  let organizationId: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment } });
    organizationId = runtime.demo.organizationId;
    runtime.sandbox!.configure({ messagingLimitByPhoneNumberId: { [DEMO.phoneNumberId1]: 'TIER_2K' } });
    await runRateCardAdminCommand(getServices().rateCardAdmin, 'set-rate-card', { file: 'examples/rate-card.json' }, (path) => readFileSync(path, 'utf8'));
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  }, 60_000);

  const sent = () => runtime.sandbox!.acceptedMessages().filter((message) => message.phoneNumberId === DEMO.phoneNumberId1);

  test('reports every bad row of 1,001 with its index and sends, records, queues and reserves nothing', async () => {
    const key = await issueKey(organizationId);
    const v1 = { authorization: `Bearer ${runtime.demo.v1ApiKey}` };
    const data: Record<string, unknown>[] = recipients(1001, { first: 9_200_000_000 });
    data[10] = { countryCode: '91', toPhoneNumber: '92000x0010', templateParams: ['a', 'b'] }; // bad phone
    data[20] = { countryCode: '91', toPhoneNumber: '9200000020' }; // missing params
    expect((await runtime.call('POST', '/v1/opt-outs', { headers: v1, body: { phoneNumber: '919200000030' } })).status).toBeLessThan(300); // opted out
    data[40] = { ...data[39] }; // duplicate
    const jobsBefore = await jobCount(organizationId);
    const headers = { ...keyHeader(key.secret), 'idempotency-key': 'dry-run-1' };

    const answer = await runtime.call('POST', `${BASE}/send-template-broadcast?dryRun=true`, { headers, body: orderUpdate(data as never) });
    expect(answer.status).toBe(200);
    const result = answer.body.data;
    expect(result.totals).toEqual({ received: 1001, sendable: 997, optedOut: 1, duplicates: 1, invalid: 2 });
    expect(result.invalid.map(({ index, field }: { index: number; field: string }) => [index, field])).toEqual([
      [10, 'data[10].toPhoneNumber'],
      [20, 'data[20]'],
    ]);
    expect(result.invalid[1].rule).toBe('has no templateParams and no globalTemplateParams: 0 values; template order_update needs exactly 2 ({{1}}..{{2}})');
    expect(result.duplicates).toEqual([{ index: 40, duplicateOf: 39 }]);
    expect(result.optedOut).toEqual([{ index: 30 }]);
    expect(result.messagingLimit).toEqual({ tier: 'TIER_2K', limit: 2000, usedLast24h: 0, headroom: 2000, newRecipients: 997, wouldExceed: false });
    // examples/rate-card.json: 91 utility 0.0014 × 997.
    expect(result.estimatedCost).toEqual({
      currency: 'USD',
      amount: '1.3958',
      priced: 997,
      unpriced: 0,
      byCategory: { utility: { count: 997, amount: '1.3958' } },
    });
    // Issue 35: the sender's free tier of service messages this UTC month (none delivered in this runtime).
    expect(result.serviceMessages).toEqual({ month: new Date().toISOString().slice(0, 7), delivered: 0, freeRemaining: 1000 });
    expect(answer.headers.get('x-job-id')).toBeNull();

    expect(await jobCount(organizationId)).toBe(jobsBefore);
    expect(await queueDepth(runtime)).toBe(0);
    expect(sent()).toHaveLength(0);
    expect((await idempotencyRecords()).filter((record) => String(record.id ?? record.pk ?? '').includes('dry-run-1'))).toEqual([]);
    const listed = await runtime.call('GET', `${BASE}/broadcasts`, { headers: keyHeader(key.secret) });
    expect(listed.body.data.broadcasts).toEqual([]);

    // Not reserved: a second dry run finds the window empty still.
    const again = await runtime.call('POST', `${BASE}/send-template-broadcast?dryRun=true`, { headers, body: orderUpdate(data as never) });
    expect(again.body.data.messagingLimit.usedLast24h).toBe(0);

    // The same Idempotency-Key on a real send (bad rows removed) is a fresh accept.
    const real = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers, body: orderUpdate(recipients(1001, { first: 9_200_000_000 })) });
    expect(real.status).toBe(202);
    expect(await jobCount(organizationId)).toBe(jobsBefore + 1);
    const after = await runtime.call('POST', `${BASE}/send-template-broadcast?dryRun=true`, {
      headers,
      body: orderUpdate(recipients(2, { first: 9_200_000_000 })),
    });
    expect(after.body.data.messagingLimit).toMatchObject({ usedLast24h: 1000, headroom: 1000, newRecipients: 0 });
  }, 90_000);

  test('counts in its own class: more dry runs than the broadcast class allows in a minute, then a real send still passes', async () => {
    const key = await issueKey(organizationId);
    const body = orderUpdate(recipients(1, { first: 9_300_000_000 }));
    for (let attempt = 0; attempt < 12; attempt += 1) {
      expect((await runtime.call('POST', `${BASE}/send-template-broadcast?dryRun=true`, { headers: keyHeader(key.secret), body })).status).toBe(200);
    }
    expect((await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key.secret), body })).status).toBe(200);
  }, 60_000);

  test('refuses a dryRun value other than true or false, naming the parameter', async () => {
    const key = await issueKey(organizationId);
    const answer = await runtime.call('POST', `${BASE}/send-template-broadcast?dryRun=yes`, {
      headers: keyHeader(key.secret),
      body: orderUpdate(recipients(1)),
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe('dryRun must be true or false');
  }, 30_000);
});
