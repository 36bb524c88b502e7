/**
 * Replies and quick-reply taps attributed to a broadcast, through the local runtime and the
 * sandbox's Meta-signed webhooks (docs/OUTCOMES.md "Attribution"): a broadcast of 20 with a one-hour
 * attribution window; replies naming its messages (context), taps of its quick reply (template
 * `button` and interactive `button_reply`), a STOP, messages without context inside the window and
 * after it (the sandbox's clock moved on), and a reply to a message the platform never sent. The
 * recipients' outcome facts, the status summary, the recipients list and the `message.replied` /
 * `button.tapped` events match exactly.
 */
import { getServices } from '../../../functions/composition';
import { createCompositionContext } from '../../../functions/composition/composition-context';
import { dynamoDbClients } from '../../../functions/composition/dynamodb-clients';
import { DynamoDbOutcomeStore } from '../../../shared/adapters/dynamodb/dynamodb-outcome-store';
import type { OutcomeFacts } from '../../../shared/outcomes/outcome-facts';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, waitForTerminal } from '../broadcast/broadcast-test-kit';
import { callSandbox } from '../../support/sandbox-control';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver';

jest.setTimeout(180_000);

const COUNT = 20;
const MINUTE = 60_000;
type Row = { toPhoneNumber: string; countryCode: string; messageId: string | null; status: string };
type Event = { id: string; type: string; data: Record<string, unknown> };

describe('replies and taps attributed to a broadcast', () => {
  let runtime: TestRuntime;
  let receiver: ScriptedReceiver;
  let key: string;
  /** The sandbox's clock runs this far ahead of the real one: Meta's timestamps of what it posts. */
  let ahead = 0;
  const sandbox = (method: string, path: string, body?: unknown) => callSandbox(runtime.sandboxUrl, method, path, body);
  const settle = async () => {
    await runtime.workersIdle();
    expect((await sandbox('POST', '/webhooks/drain?timeoutMs=60000')).status).toBe(200);
    await runtime.workersIdle();
  };

  beforeAll(async () => {
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment }, sandbox: { now: () => Date.now() + ahead } });
    receiver = await startScriptedReceiver(() => 200);
    key = (await issueKey(runtime.demo.organizationId)).secret;
    const registered = await runtime.call('POST', `${BASE}/webhooks`, {
      headers: keyHeader(key),
      body: { url: receiver.url, events: ['message.replied', 'button.tapped'] },
    });
    expect(registered.status).toBe(201);
    // Every status duplicated: a touch and an outcome are still written once.
    expect((await sandbox('POST', '/webhooks', { sentDelayMs: 0, deliveredDelayMs: 0, readRate: 0, duplicateRate: 1, reorderRate: 0 })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await runtime?.close();
  });

  it('counts replies by context and by last touch within the window, taps with their button, and a STOP', async () => {
    const data = Array.from({ length: COUNT }, (_, index) => ({ countryCode: '44', toPhoneNumber: String(7_700_950_000 + index) }));
    const body = {
      broadcastName: 'replies',
      fromPhoneNumber: DEMO.sender1,
      templateName: 'summer_coupon',
      templateLanguage: 'en',
      templateType: 'MARKETING',
      header: { type: 'text', text: 'Ada' },
      // Button 1 is the template's quick reply "Stop promotions"; its taps come back with this payload.
      buttons: [
        { index: 0, type: 'copy_code', couponCode: 'SUMMER20' },
        { index: 1, type: 'quick_reply', payload: 'NO-PROMO' },
      ],
      attributionWindowHours: 1,
      data,
    };
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body });
    expect(accepted.status).toBe(200);
    const jobId = accepted.headers.get('x-broadcast-job-id')!;
    await waitForTerminal(runtime.demo.organizationId, jobId, 60_000);
    await settle();
    const rows = (await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients`, { headers: keyHeader(key) })).body.data.recipients as Row[];
    expect(rows.map((row) => row.status)).toEqual(Array(COUNT).fill('DELIVERED'));

    const from = (index: number) => `44${rows[index]!.toPhoneNumber}`;
    const inbound = async (index: number, extra: Record<string, unknown>) => {
      const answer = await sandbox('POST', '/webhooks/inbound', { phoneNumberId: DEMO.phoneNumberId1, from: from(index), ...extra });
      expect(answer.status).toBe(200);
      return answer.body.messageId as string;
    };
    const context = (index: number) => ({ context: { id: rows[index]!.messageId } });
    // 0-4 answer the message (swipe-reply), 5-7 tap its quick reply, 8 taps a button no job gave, 9 writes STOP.
    for (const index of [0, 1, 2, 3, 4]) await inbound(index, { text: `Sounds good ${index}`, ...context(index) });
    for (const index of [5, 6, 7]) await inbound(index, { ...context(index), button: { payload: 'NO-PROMO', text: 'Stop promotions' } });
    await inbound(8, { ...context(8), interactive: { type: 'button_reply', button_reply: { id: 'menu-2', title: 'Later' } } });
    await inbound(9, { text: 'STOP', ...context(9) });
    // 19 answers a message id the platform never sent: not attributed.
    await inbound(19, { text: 'Hello?', context: { id: 'wamid.NOT-OURS' } });
    // Without context: 10-12 half an hour after delivery (inside the one-hour window), 13-14 two hours after (outside it).
    ahead = 30 * MINUTE;
    for (const index of [10, 11, 12]) await inbound(index, { text: 'Is the sale still on?' });
    ahead = 120 * MINUTE;
    for (const index of [13, 14]) await inbound(index, { text: 'Is the sale still on?' });
    await settle();

    const { config } = getServices();
    const outcomes = new DynamoDbOutcomeStore(dynamoDbClients(createCompositionContext(config)).document, config.tableNames.messaging!);
    const facts = await Promise.all(rows.map((_, index) => outcomesOf(outcomes, jobId, index)));
    const replied = facts.flatMap((fact, index) => (fact.repliedAt ? [index] : []));
    expect(replied).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(facts.flatMap((fact, index) => (fact.buttonTaps ?? []).map(({ index: button, payload }) => ({ recipient: index, button, payload })))).toEqual([
      { recipient: 5, button: 1, payload: 'NO-PROMO' },
      { recipient: 6, button: 1, payload: 'NO-PROMO' },
      { recipient: 7, button: 1, payload: 'NO-PROMO' },
      { recipient: 8, button: -1, payload: 'menu-2' },
    ]);
    expect(facts.flatMap((fact, index) => (fact.optedOutAt ? [index] : []))).toEqual([9]);
    // The same through the API: the status summary and the recipients list.
    const status = await runtime.call('GET', `${BASE}/status/${jobId}`, { headers: keyHeader(key) });
    expect(status.body.data.summary).toMatchObject({
      replied: 13,
      repliedByStop: 1,
      buttons: [
        { index: -1, payload: 'menu-2', taps: 1 },
        { index: 1, payload: 'NO-PROMO', taps: 3 },
      ],
    });
    const listed = (await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients`, { headers: keyHeader(key) })).body.data.recipients as Array<{
      repliedAt?: string | null;
      buttonPayload?: string | null;
    }>;
    expect(listed.flatMap((row, index) => (row.repliedAt ? [index] : []))).toEqual(replied);
    expect(listed[5]).toMatchObject({ buttonPayload: 'NO-PROMO' });

    const events = await eventually(
      async () => receiver.requests.map((request) => JSON.parse(request.rawBody) as Event).filter((event) => event.data.jobId === jobId),
      (received) => new Set(received.map((event) => event.id)).size >= 13 + 4,
      30_000,
    );
    const distinct = [...new Map(events.map((event) => [event.id, event])).values()];
    const repliedEvents = distinct.filter((event) => event.type === 'message.replied');
    expect(repliedEvents.map((event) => event.data.recipientIndex).sort((a, b) => Number(a) - Number(b))).toEqual(replied);
    expect(
      repliedEvents
        .filter((event) => event.data.via === 'last-touch')
        .map((event) => event.data.recipientIndex)
        .sort(),
    ).toEqual([10, 11, 12]);
    expect(repliedEvents.find((event) => event.data.recipientIndex === 0)!.data).toMatchObject({
      jobId,
      recipient: from(0),
      repliedTo: rows[0]!.messageId,
      via: 'context',
    });
    const taps = distinct.filter((event) => event.type === 'button.tapped');
    expect(taps.map((event) => [event.data.recipientIndex, event.data.button]).sort((a, b) => Number(a[0]) - Number(b[0]))).toEqual([
      [5, { index: 1, payload: 'NO-PROMO' }],
      [6, { index: 1, payload: 'NO-PROMO' }],
      [7, { index: 1, payload: 'NO-PROMO' }],
      [8, { index: -1, payload: 'menu-2' }],
    ]);
  });
});

const outcomesOf = (store: DynamoDbOutcomeStore, jobId: string, index: number): Promise<OutcomeFacts> => store.outcomesOf(jobId, index);
