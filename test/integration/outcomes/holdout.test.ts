/**
 * A campaign's holdout through the local runtime, the sandbox and its Meta-signed webhooks
 * (docs/OUTCOMES.md "Holdout and lift"): a campaign of 200 with a holdout of 10 % and a one-hour
 * attribution window. The held out are never sent (the sandbox accepted none of theirs), are listed
 * HELD_OUT (filter and CSV), the job completes; inbound messages without context from held-out
 * people inside the window count as the holdout's inbound (after it: not), messages from sent people
 * as replies, and the campaign view and the job's status show the lift; no follow-up reaches the held out.
 */
import { getServices } from '../../../functions/composition';
import { DynamoDbAudienceStore } from '../../../shared/adapters/dynamodb/dynamodb-audience-store';
import { personOf } from '../../../shared/audiences/person-key';
import { isHeldOut } from '../../../shared/campaigns/campaign-holdout';
import { callSandbox } from '../../support/sandbox-control';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, acceptedByRecipient, issueKey, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';

jest.setTimeout(180_000);

const COUNT = 200;
const MINUTE = 60_000;
const national = (index: number) => String(9_500_000_000 + index);
const member = (index: number) => ({
  ...personOf({ phone: { countryCode: '91', toPhoneNumber: national(index) } }, new Map()),
  attributes: { first_name: `P${index}` },
  tags: [],
  updatedAt: new Date().toISOString(),
});

describe('a campaign with a holdout', () => {
  let runtime: TestRuntime;
  let key: string;
  /** The sandbox's clock runs this far ahead of the real one: Meta's timestamps of what it posts. */
  let ahead = 0;
  const sandbox = (method: string, path: string, body?: unknown) => callSandbox(runtime.sandboxUrl, method, path, body);
  const settle = async () => {
    await runtime.workersIdle();
    expect((await sandbox('POST', '/webhooks/drain?timeoutMs=60000')).status).toBe(200);
    await runtime.workersIdle();
  };
  const get = async (path: string) => (await runtime.call('GET', `${BASE}${path}`, { headers: keyHeader(key) })).body.data;

  beforeAll(async () => {
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment }, sandbox: { now: () => Date.now() + ahead } });
    key = (await issueKey(runtime.demo.organizationId)).secret;
    expect((await sandbox('POST', '/webhooks', { sentDelayMs: 0, deliveredDelayMs: 0, readRate: 0, duplicateRate: 0, reorderRate: 0 })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it('never sends the held out, lists them HELD_OUT, completes, and counts their inbound messages for the lift', async () => {
    const organizationId = runtime.demo.organizationId;
    const services = getServices();
    const audiences = new DynamoDbAudienceStore(services.clients.dynamoDb, services.config.tableNames.inbox);
    const at = new Date().toISOString();
    await audiences.createAudience({ audienceId: 'aud_holdout', organizationId, name: 'Holdout', memberCount: 0, createdAt: at, updatedAt: at });
    await audiences.upsertMembers(
      organizationId,
      'aud_holdout',
      Array.from({ length: COUNT }, (_, index) => member(index)),
    );

    const created = await runtime.call('POST', `${BASE}/campaigns`, {
      headers: keyHeader(key),
      body: {
        name: 'Holdout',
        fromPhoneNumber: DEMO.sender1,
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        audience: { audienceIds: ['aud_holdout'] },
        templateParams: [{ attribute: 'first_name' }, 'A-17'],
        holdout: { percent: 10 },
        attributionWindowHours: 1,
      },
    });
    expect(created.status).toBe(201);
    const { campaignId } = created.body.data;
    const refused = await runtime.call('POST', `${BASE}/campaigns`, { headers: keyHeader(key), body: { ...created.body.data, holdout: { percent: 60 } } });
    expect(refused.status).toBe(400);
    expect((await runtime.call('POST', `${BASE}/campaigns/${campaignId}/launch`, { headers: keyHeader(key) })).status).toBe(202);

    const final = await eventually(
      () => get(`/campaigns/${campaignId}`),
      (view) => ['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED', 'CANCELLED'].includes(view.state),
      120_000,
      250,
    );
    await settle();
    const everyone = Array.from({ length: COUNT }, (_, index) => `91${national(index)}`);
    const held = everyone.filter((to) => isHeldOut({ percent: 10 }, campaignId, to));
    const sent = everyone.filter((to) => !held.includes(to));
    expect(held.length).toBeGreaterThan(5);
    expect(final).toMatchObject({
      state: 'COMPLETED',
      holdout: { percent: 10 },
      attributionWindowHours: 1,
      totals: { sendable: sent.length, sent: sent.length, failed: 0, queued: 0, heldOut: held.length },
    });

    // The sandbox accepted exactly the others, each once.
    const accepted = acceptedByRecipient(runtime);
    expect([...accepted.keys()].sort()).toEqual([...sent].sort());
    expect([...accepted.values()].every((messages) => messages.length === 1)).toBe(true);

    // Listed HELD_OUT: the filter, the CSV.
    const jobId = final.jobId as string;
    const listed = await get(`/broadcasts/${jobId}/recipients?status=HELD_OUT&limit=1000`);
    expect(listed.recipients.map((row: { countryCode: string; toPhoneNumber: string }) => `${row.countryCode}${row.toPhoneNumber}`).sort()).toEqual(
      [...held].sort(),
    );
    const csv = (
      await (await fetch(`${runtime.baseUrl}${BASE}/broadcasts/${jobId}/recipients?format=csv&limit=1000`, { headers: keyHeader(key) })).text()
    ).split(/\r?\n/);
    expect(
      csv
        .filter((line) => line.includes('HELD_OUT'))
        .map((line) => held.find((to) => line.includes(to.slice(2))))
        .sort(),
    ).toEqual([...held].sort());

    // Without context: 3 held out inside the one-hour window, 2 after it; 4 sent people inside it.
    const inbound = async (to: string) =>
      expect((await sandbox('POST', '/webhooks/inbound', { phoneNumberId: DEMO.phoneNumberId1, from: to, text: 'Is the sale still on?' })).status).toBe(200);
    ahead = 20 * MINUTE;
    for (const to of [...held.slice(0, 3), ...sent.slice(0, 4)]) await inbound(to);
    ahead = 120 * MINUTE;
    for (const to of held.slice(3, 5)) await inbound(to);
    await settle();

    const view = await eventually(
      () => get(`/campaigns/${campaignId}`),
      (read) => read.lift?.holdoutInbound === 3 && read.lift?.replied === 4,
      30_000,
      250,
    );
    const rate = (count: number, of: number) => Math.round((count / of) * 10_000) / 10_000;
    expect(view.lift).toEqual({
      sentReplyRate: rate(4, sent.length),
      holdoutInboundRate: rate(3, held.length),
      incrementalReplies: Math.round((4 - (3 / held.length) * sent.length) * 100) / 100,
      heldOut: held.length,
      holdoutInbound: 3,
      sent: sent.length,
      replied: 4,
      reliable: false,
    });
    const status = await get(`/status/${jobId}`);
    expect(status.summary).toMatchObject({ heldOut: held.length, replied: 4, pending: 0, lift: view.lift });

    // A follow-up never reaches a held-out person, even one who wrote in (dry run: nothing sent).
    const followUp = {
      broadcastName: 'again',
      fromPhoneNumber: DEMO.sender1,
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
    };
    const matched = async (audience: Record<string, unknown>) => {
      const answer = await runtime.call('POST', `${BASE}/broadcasts/${jobId}/follow-up?dryRun=true`, {
        headers: keyHeader(key),
        body: { ...followUp, audience },
      });
      expect(answer.status).toBe(200);
      return answer.body.data.audience.matched as number;
    };
    expect(await matched({ replied: true })).toBe(4);
    expect(await matched({ replied: false })).toBe(sent.length - 4);
  });
});
