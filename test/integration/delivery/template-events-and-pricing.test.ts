/**
 * Issue 25's proofs through the sandbox's signed webhooks (the local runtime as `npm start` runs it):
 * a send Meta held for quality assessment settles to DELIVERED once its statuses arrive; a template's
 * category and quality changes reach the customer's callback as `template.updated` and the template
 * list at once; the pricing of a 1,001-recipient job whose template is re-categorised mid-campaign
 * is counted per category in the summary exactly as the recipients list shows it.
 */
import { documentedSnippet } from '../../support/documented-verifier';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver';
import { TERMINAL_STATUSES } from '../../../shared/broadcast/broadcast-job';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, orderUpdate, readJob, recipients } from '../broadcast/broadcast-test-kit';

jest.setTimeout(240_000);

type Pricing = { category: string; type: string; billable: boolean; pricingModel: string };
type Row = { toPhoneNumber: string; status: string; pricing: Pricing | null };
type ReceivedEvent = { id: string; type: string; data: Record<string, unknown> };

const ORDER_UPDATE_ID = DEMO.templateIds.order_update;

/**
 * The kit's wait, tolerating a read that times out: the 1,001 sends and their 2,002 webhooks keep
 * the in-process dynalite busy, and on a loaded machine the test's own read may miss its 1 s
 * connection timeout; the next poll reads again.
 */
const waitForTerminal = (organizationId: string, jobId: string, timeoutMs: number) =>
  eventually(
    () =>
      readJob(organizationId, jobId).then(
        (view) => view.status,
        () => 'UNREAD',
      ),
    (status) => TERMINAL_STATUSES.has(status as never),
    timeoutMs,
    250,
  );

describe('template events, held sends and pricing from the sandbox’s signed webhooks', () => {
  let runtime: TestRuntime;
  let receiver: ScriptedReceiver;
  let secret: string;
  let key: string;
  const { verifyWebhook } = documentedSnippet();

  beforeAll(async () => {
    // 200 sends a second (the default is 30): the 1,001-recipient job drains in seconds, not half a minute.
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment, DEFAULT_MESSAGES_PER_SECOND: '200' } });
    receiver = await startScriptedReceiver(() => 200);
    key = (await issueKey(runtime.demo.organizationId)).secret;
    const registered = await runtime.call('POST', `${BASE}/webhooks`, { headers: keyHeader(key), body: { url: receiver.url, events: ['template.updated'] } });
    expect(registered.status).toBe(201);
    secret = registered.body.data.secret;
    runtime.sandbox!.webhooks.configure({ sentDelayMs: 0, deliveredDelayMs: 50, readRate: 0, duplicateRate: 0, reorderRate: 0 });
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await runtime?.close();
  });

  const get = (path: string) => runtime.call('GET', `${BASE}${path}`, { headers: keyHeader(key) });
  const settle = async () => {
    await runtime.workersIdle();
    expect(await runtime.sandbox!.webhooks.drain(120_000)).toBe(true);
    await runtime.workersIdle();
  };
  const rowsOf = async (jobId: string): Promise<Row[]> => {
    const rows: Row[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(`/broadcasts/${jobId}/recipients?limit=500${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      rows.push(...page.body.data.recipients);
      cursor = page.body.data.nextCursor;
    } while (cursor);
    return rows;
  };
  const summaryOf = async (jobId: string) => (await get(`/status/${jobId}`)).body.data.summary;
  const events = () => receiver.requests.map((request) => JSON.parse(request.rawBody) as ReceivedEvent);

  it('lists a held send as HELD, then DELIVERED once the sandbox’s status webhooks arrive; the summary’s counts move', async () => {
    runtime.sandbox!.setTemplatePacing(ORDER_UPDATE_ID, 10_000);
    try {
      const data = recipients(2, { first: 9_260_000_000 });
      const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body: orderUpdate(data) });
      expect(accepted.status).toBe(200);
      const jobId = accepted.headers.get('x-broadcast-job-id')!;
      await waitForTerminal(runtime.demo.organizationId, jobId, 30_000);

      expect((await rowsOf(jobId)).map((row) => row.status)).toEqual(['HELD', 'HELD']);
      // Held is apart from sent: Meta has not sent them yet.
      expect(await summaryOf(jobId)).toMatchObject({ sent: 0, held: 2, delivered: 0, failed: 0 });

      await settle();
      expect((await rowsOf(jobId)).map((row) => row.status)).toEqual(['DELIVERED', 'DELIVERED']);
      const settled = await summaryOf(jobId);
      expect(settled).toMatchObject({ sent: 2, delivered: 2, failed: 0 });
      // `held` is present only while a recipient is held.
      expect(settled.held ?? 0).toBe(0);
    } finally {
      runtime.sandbox!.setTemplatePacing(ORDER_UPDATE_ID, undefined);
    }
  });

  it('sends a category change and a quality change to the customer’s callback as template.updated, signed; the template list shows both at once', async () => {
    const before = await get(`/templates?phone_number=${DEMO.sender1}`);
    expect(before.body.data.find((template: { name: string }) => template.name === 'welcome_message')).toMatchObject({
      category: 'UTILITY',
      quality: 'UNKNOWN',
    });

    expect(runtime.sandbox!.webhooks.changeTemplateCategory({ name: 'welcome_message', language: 'en_US', category: 'MARKETING' }).notified).toBe(true);
    expect(runtime.sandbox!.webhooks.changeTemplateQuality({ name: 'welcome_message', language: 'en_US', quality: 'YELLOW' }).notified).toBe(true);
    // Meta's impending notice changes nothing and is not sent on.
    runtime.sandbox!.webhooks.changeTemplateCategory({ name: 'welcome_message', language: 'en_US', category: 'UTILITY', stage: 'impending' });

    const received = await eventually(
      async () => events(),
      (all) => new Set(all.map((event) => event.data.change)).size === 2,
      60_000,
    );
    for (const request of receiver.requests) expect(verifyWebhook(secret, request.headers, request.rawBody)).toBe(true);
    const common = {
      wabaId: DEMO.wabaId,
      templateId: DEMO.templateIds.welcome_message,
      templateName: 'welcome_message',
      language: 'en_US',
      metaTimestamp: expect.any(String),
    };
    expect(received.find((event) => event.data.change === 'category')).toMatchObject({
      type: 'template.updated',
      data: { ...common, change: 'category', category: { previous: 'UTILITY', current: 'MARKETING' }, quality: null },
    });
    expect(received.find((event) => event.data.change === 'quality')).toMatchObject({
      type: 'template.updated',
      data: { ...common, change: 'quality', quality: { previous: 'UNKNOWN', current: 'YELLOW' }, category: null },
    });

    // The catalog's cached list (read above) is overlaid with the recorded changes.
    const after = await get(`/templates?phone_number=${DEMO.sender1}`);
    expect(after.body.data.find((template: { name: string }) => template.name === 'welcome_message')).toMatchObject({
      category: 'MARKETING',
      quality: 'YELLOW',
    });
    await settle();
    expect(events().filter((event) => event.type === 'template.updated')).toHaveLength(2);
  });

  it('counts the pricing of a 1,001-recipient job per category exactly as its recipients list shows it, across a mid-campaign re-categorisation', async () => {
    // Statuses held back until the sends are done: on a loaded 2-core machine 2,002 status writes
    // competing with 1,001 sends for the in-process dynalite stall the drain for minutes. At 200 a
    // second the sends take about 5 s (15 s when the machine is shared), so 15 s is enough.
    runtime.sandbox!.webhooks.configure({ sentDelayMs: 15_000, deliveredDelayMs: 15_050 });
    const data = recipients(1_001, { first: 9_270_000_000 });
    const sentOfJob = () => runtime.sandbox!.acceptedMessages().filter((message) => message.recipient.startsWith('919270')).length;
    try {
      const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body: orderUpdate(data) });
      expect(accepted.status).toBe(202);
      const jobId = accepted.body.data.jobId as string;
      await eventually(
        async () => sentOfJob(),
        (count) => count >= 50,
        60_000,
        5,
      );
      runtime.sandbox!.webhooks.changeTemplateCategory({ name: 'order_update', language: 'en_US', category: 'MARKETING' });
      await waitForTerminal(runtime.demo.organizationId, jobId, 180_000);
      await settle();
      // A status batch whose write timed out under load comes back from the queue a little later.
      await eventually(
        () => summaryOf(jobId),
        (summary) => summary.delivered === 1_001,
        120_000,
        1_000,
      );

      const rows = await rowsOf(jobId);
      expect(rows).toHaveLength(1_001);
      expect(rows.every((row) => row.status === 'DELIVERED' && row.pricing !== null)).toBe(true);
      const byCategory: Record<string, number> = {};
      for (const row of rows) byCategory[row.pricing!.category] = (byCategory[row.pricing!.category] ?? 0) + 1;
      expect(Object.keys(byCategory).sort()).toEqual(['marketing', 'utility']);
      const summary = await summaryOf(jobId);
      expect(summary.pricing).toEqual({ billable: rows.filter((row) => row.pricing!.billable).length, byCategory });
      expect(summary.pricing.billable).toBe(1_001);
    } finally {
      runtime.sandbox!.webhooks.configure({ sentDelayMs: 0, deliveredDelayMs: 50 });
      runtime.sandbox!.webhooks.changeTemplateCategory({ name: 'order_update', language: 'en_US', category: 'UTILITY' });
    }
  });
});
