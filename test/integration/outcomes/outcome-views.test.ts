/**
 * Where outcomes show (docs/OUTCOMES.md "Where it shows") through the local runtime: a small
 * broadcast through the sandbox with Meta's signed status webhooks (pricing included) and a rate
 * card, then outcome facts written as attribution and the click redirect write them
 * (DynamoDbOutcomeStore on the runtime's messaging table), and the API's answers: the status
 * summary (replied, clicked, buttons, repliedByStop, cost per reply and per click), the recipients
 * list and CSV, and a follow-up's audience (dry run) by replied / clicked / button payload.
 */
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { getServices } from '../../../functions/composition';
import { tables } from '../../../runtime-contract/resource-definitions';
import { DynamoDbOutcomeStore } from '../../../shared/adapters/dynamodb/dynamodb-outcome-store';
import type { OutcomeEvent } from '../../../shared/outcomes/outcome-facts';
import { runRateCardAdminCommand } from '../../../shared/pricing/rate-card-admin-commands';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { callSandbox } from '../../support/sandbox-control';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, orderUpdate, recipients, waitForTerminal } from '../broadcast/broadcast-test-kit';

jest.setTimeout(120_000);

const card = { currency: 'USD', rates: { '*': { utility: '0.01', marketing: '0.05' } } };
const at = (minute: number) => new Date(Date.UTC(2026, 11, 1, 10, minute));
const iso = (minute: number) => at(minute).toISOString();

type Row = {
  toPhoneNumber: string;
  status: string;
  pricing?: { billable: boolean };
  repliedAt?: string;
  buttonPayload?: string;
  firstClickAt?: string;
  clicks?: number;
};

describe('outcomes in the status summary, the recipients list and CSV, and follow-up audiences', () => {
  let runtime: TestRuntime;
  let key: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment } });
    key = (await issueKey(runtime.demo.organizationId)).secret;
    await runRateCardAdminCommand(getServices().rateCardAdmin, 'set-rate-card', { file: 'card.json' }, () => JSON.stringify(card));
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  }, 60_000);

  const get = (path: string) => runtime.call('GET', `${BASE}${path}`, { headers: keyHeader(key) });
  const post = (path: string, body: unknown) => runtime.call('POST', `${BASE}${path}`, { headers: keyHeader(key), body });

  it('counts, lists and selects exactly the recorded outcomes', async () => {
    // Every message delivered and read (the sandbox's default reads half, at random).
    expect((await callSandbox(runtime.sandboxUrl, 'POST', '/webhooks', { deliveredRate: 1, readRate: 1, duplicateRate: 0, reorderRate: 0 })).status).toBe(200);
    const accepted = await post('/send-template-broadcast', orderUpdate(recipients(8, { first: 9_610_000_000 })));
    expect(accepted.status).toBe(200);
    const jobId = accepted.headers.get('x-broadcast-job-id')!;
    await waitForTerminal(runtime.demo.organizationId, jobId, 60_000);
    await runtime.workersIdle();
    expect((await fetch(`${runtime.sandboxUrl}/_sandbox/webhooks/drain?timeoutMs=60000`, { method: 'POST' })).status).toBe(200);
    await runtime.workersIdle();

    const before = (await get(`/status/${jobId}`)).body.data.summary;
    // Nothing recorded yet: the answer is as it always was.
    for (const field of ['replied', 'clicked', 'buttons', 'repliedByStop', 'heldOut']) expect(before).not.toHaveProperty(field);

    // 0 replied tapping YES; 1 replied tapping NO then YES, and clicked twice; 2 clicked once; 3 replied STOP.
    const events: Array<[number, OutcomeEvent]> = [
      [0, { kind: 'reply', at: at(1), via: 'context' }],
      [0, { kind: 'button', at: at(1), index: 0, payload: 'YES' }],
      [1, { kind: 'reply', at: at(2), via: 'context' }],
      [1, { kind: 'button', at: at(2), index: 1, payload: 'NO' }],
      [1, { kind: 'button', at: at(3), index: 0, payload: 'YES' }],
      [1, { kind: 'click', at: at(4) }],
      [1, { kind: 'click', at: at(5) }],
      [2, { kind: 'click', at: at(6) }],
      [3, { kind: 'reply', at: at(7), via: 'last-touch' }],
      [3, { kind: 'opt-out', at: at(7) }],
    ];
    const outcomes = new DynamoDbOutcomeStore(
      DynamoDBDocumentClient.from(runtime.dynamodb, { marshallOptions: { removeUndefinedValues: true } }),
      runtime.environment[tables.messaging.envVar]!,
    );
    await outcomes.recordOutcomes(
      jobId,
      events.map(([index, event]) => ({ location: { jobId, chunkIndex: 0, index }, event })),
    );

    const { summary } = (await get(`/status/${jobId}`)).body.data;
    expect(summary).toMatchObject({
      sent: 8,
      replied: 3,
      clicked: 2,
      repliedByStop: 1,
      buttons: [
        { index: 0, payload: 'YES', taps: 2 },
        { index: 1, payload: 'NO', taps: 1 },
      ],
    });
    expect(summary).not.toHaveProperty('heldOut');
    // The billed amount over 3 repliers and 2 clickers, to the micro-unit.
    const micros = Math.round(Number(summary.cost.amount) * 1_000_000);
    expect(micros).toBeGreaterThan(0);
    expect(Math.round(Number(summary.cost.perReply) * 1_000_000)).toBe(Math.round(micros / 3));
    expect(Math.round(Number(summary.cost.perClick) * 1_000_000)).toBe(Math.round(micros / 2));

    const rows = (await get(`/broadcasts/${jobId}/recipients?limit=100`)).body.data.recipients as Row[];
    expect(rows).toHaveLength(8);
    expect(rows[0]).toMatchObject({ repliedAt: iso(1), buttonPayload: 'YES' });
    expect(rows[1]).toMatchObject({ repliedAt: iso(2), buttonPayload: 'NO', firstClickAt: iso(4), clicks: 2 });
    expect(rows[2]).toMatchObject({ firstClickAt: iso(6), clicks: 1 });
    expect(rows[3]).toMatchObject({ repliedAt: iso(7) });
    for (const row of rows.slice(4)) for (const field of ['repliedAt', 'buttonPayload', 'firstClickAt', 'clicks']) expect(row).not.toHaveProperty(field);

    const csv = (await (await fetch(`${runtime.baseUrl}${BASE}/broadcasts/${jobId}/recipients?format=csv`, { headers: keyHeader(key) })).text()).split('\r\n');
    expect(csv[0]!.endsWith(',pricingSubtype,repliedAt,buttonPayload,firstClickAt,clicks,waitingUntil')).toBe(true);
    expect(csv[2]!.endsWith(`,${iso(2)},NO,${iso(4)},2,`)).toBe(true);
    expect(csv[8]!.endsWith(',,,,,')).toBe(true);

    // The dry run of a follow-up: who it would reach, nothing sent.
    const matched = async (audience: Record<string, unknown>) => {
      const answer = await post(`/broadcasts/${jobId}/follow-up?dryRun=true`, {
        broadcastName: 'outcomes',
        fromPhoneNumber: DEMO.sender1,
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        audience,
      });
      expect(answer.status).toBe(200);
      return answer.body.data.audience.matched as number;
    };
    const sentMessages = runtime.sandbox!.acceptedMessages().length;
    expect(rows.every((row) => row.status === 'READ')).toBe(true);
    // Read but did not reply: 2, 4, 5, 6, 7.
    expect(await matched({ statuses: ['READ'], replied: false })).toBe(5);
    expect(await matched({ replied: true })).toBe(3);
    expect(await matched({ clicked: true })).toBe(2);
    expect(await matched({ clicked: false, replied: false })).toBe(4);
    expect(await matched({ buttonPayloads: ['YES'] })).toBe(2);
    expect(await matched({ buttonPayloads: ['NO'], clicked: true })).toBe(1);
    expect(runtime.sandbox!.acceptedMessages()).toHaveLength(sentMessages);

    const refused = await post(`/broadcasts/${jobId}/follow-up?dryRun=true`, {
      broadcastName: 'outcomes',
      fromPhoneNumber: DEMO.sender1,
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      audience: { buttonPayloads: [] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/audience\.buttonPayloads must hold at least 1 payload/);
  });
});
