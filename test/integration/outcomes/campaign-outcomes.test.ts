/**
 * Issue 38's proof, end to end through the local runtime, the sandbox and Meta-signed webhooks: a
 * campaign of 1,000 people with a 10 % holdout and a template of two quick replies and a tracked
 * URL button. Of the people sent: 100 reply quoting the campaign's message (70 in text, 3 of them
 * STOP; 30 by tapping a quick reply), 20 write without quoting it inside the attribution window
 * (2 of them by BSUID only, which Meta named beside their number on the delivered status), 5 after it; 40 open their tracked link (10
 * of them twice), a link-preview fetcher and a HEAD open two more links; 10 held-out people write
 * too. The summary, the campaign's view and its lift, the recipients list and CSV, follow-up
 * audiences (dry runs) and the customer events must match exactly; the held-out people are never
 * sent; an unknown and a tampered token answer the plain page, never a redirect.
 */
import { getServices } from '../../../functions/composition';
import { DynamoDbCampaignStore } from '../../../shared/adapters/dynamodb/dynamodb-campaign-store';
import { demoIds } from '../../../local/demo-tenant';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { callSandbox } from '../../support/sandbox-control';
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, readJob } from '../broadcast/broadcast-test-kit';
import { audienceOf } from '../campaigns/campaign-test-kit';
import { OUTCOME_TEMPLATE, createOutcomeTemplate, csvRows, open, postInbound, sentMessages, type Inbound } from './outcomes-kit';

// Tens of seconds on an idle machine; minutes when several suites share two cores.
jest.setTimeout(420_000);

const PEOPLE = 1_000;
const national = (index: number) => String(9_500_000_000 + index);
const full = (index: number) => `91${national(index)}`;
const destination = (index: number) => `https://shop.example/p/${index}?utm_source=wa`;
/** People the sandbox knows as WhatsApp users with a username: Meta names their BSUID beside the number on every status. */
const USERS = Array.from({ length: 10 }, (_, offset) => PEOPLE - 10 + offset);
const range = (from: number, count: number) => Array.from({ length: count }, (_, offset) => from + offset);

type Row = {
  toPhoneNumber: string;
  status: string;
  repliedAt?: string | null;
  buttonPayload?: string | null;
  firstClickAt?: string | null;
  clicks?: number | null;
};
type CustomerEvent = { id: string; type: string; data: Record<string, unknown> };

describe('what a campaign earned', () => {
  let runtime: TestRuntime;
  let receiver: ScriptedReceiver;
  let key: string;
  let clickBaseUrl: string;
  const bsuids = new Map<string, string>();
  /** An API call, retried on a 503 as the contract says (a loaded machine's local store times out now and then). */
  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    for (let attempt = 1; ; attempt += 1) {
      const answer = await runtime.call(method, `${BASE}${path}`, { headers: { ...keyHeader(key), ...headers }, body });
      if (answer.status !== 503 || attempt === 6) return answer;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
  const events = () => receiver.requests.map((request) => JSON.parse(request.rawBody) as CustomerEvent);

  beforeAll(async () => {
    // A 1 s base for the customer events' back-off (10 s by default): on a loaded machine the one receiver's
    // deliveries are deferred now and then (its endpoint's slots busy), and 10, 20, 40 s of back-off outran the wait below.
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment, CUSTOMER_EVENT_BACKOFF_BASE_MS: '1000' } });
    clickBaseUrl = runtime.environment.CLICK_BASE_URL!;
    key = (await issueKey(runtime.demo.organizationId)).secret;
    receiver = await startScriptedReceiver(() => 200);
    const registered = await call('POST', '/webhooks', { url: receiver.url, events: ['message.replied', 'button.tapped', 'link.clicked'] });
    expect(registered.status).toBe(201);
    // Every message delivered at once, half of them read (seeded), no duplicates: the counts below are exact.
    await callSandbox(runtime.sandboxUrl, 'POST', '/webhooks', {
      sentDelayMs: 0,
      deliveredDelayMs: 0,
      readDelayMs: 0,
      readRate: 0.5,
      duplicateRate: 0,
      reorderRate: 0,
    });
    await createOutcomeTemplate(runtime, clickBaseUrl);
    for (const index of USERS)
      expect((await callSandbox(runtime.sandboxUrl, 'POST', '/users', { phone: full(index), username: `outcome.${index}`, phoneWithheld: false })).status).toBe(
        200,
      );
    const listed = (await callSandbox(runtime.sandboxUrl, 'GET', '/users')).body.data as Array<{ phone?: string; userIds?: Record<string, string> }>;
    for (const entry of listed) if (entry.phone && entry.userIds) bsuids.set(entry.phone, entry.userIds[demoIds.businessId]!);
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await runtime?.close();
  });

  /** Waits until the workers are idle, every sandbox webhook is delivered, and what they queued is applied. */
  async function settle(): Promise<void> {
    await runtime.workersIdle();
    expect((await callSandbox(runtime.sandboxUrl, 'POST', '/webhooks/drain?timeoutMs=60000')).status).toBe(200);
    await runtime.workersIdle();
  }

  /** Creates and launches the campaign; waits for its final state and every status webhook. */
  async function runCampaign(): Promise<{ campaignId: string; jobId: string }> {
    const members = range(0, PEOPLE).map((index) => ({
      countryCode: '91',
      toPhoneNumber: national(index),
      attributes: { first_name: `P${index}`, product_url: destination(index) },
    }));
    const audienceId = await audienceOf(call, 'Outcomes', members);
    const created = await call('POST', '/campaigns', {
      name: 'Spring outcomes',
      fromPhoneNumber: DEMO.sender1,
      templateName: OUTCOME_TEMPLATE,
      templateLanguage: 'en',
      templateType: 'MARKETING',
      audience: { audienceIds: [audienceId] },
      templateParams: [{ attribute: 'first_name', fallback: 'there' }],
      buttons: [
        { index: 0, type: 'quick_reply', payload: 'YES' },
        { index: 1, type: 'quick_reply', payload: 'LATER' },
        { index: 2, type: 'url', trackedUrl: { attribute: 'product_url', fallback: 'https://shop.example/p/all?utm_source=wa' } },
      ],
      attributionWindowHours: 72,
      holdout: { percent: 10 },
    });
    expect(created.status).toBe(201);
    const campaignId = created.body.data.campaignId as string;
    expect((await call('POST', `/campaigns/${campaignId}/launch`)).status).toBe(202);
    // The job's recipients are all settled within seconds; the campaign itself reads final only at the
    // expander's next turn (~40 s later, docs/CAMPAIGNS.md "How a campaign runs"), which nothing here needs.
    const campaigns = new DynamoDbCampaignStore(getServices().clients.dynamoDb, getServices().config.tableNames.messaging);
    const { jobId } = (await eventually(
      // A store timeout on a loaded machine is one more round, not a failure.
      async () => campaigns.getCampaign(runtime.demo.organizationId, campaignId).catch(() => undefined),
      (campaign) => campaign?.jobId !== undefined,
      180_000,
      250,
    ))!;
    // Polled through the use case (no HTTP: the status class allows 30 requests a minute).
    await eventually(
      async () =>
        (await readJob(runtime.demo.organizationId, jobId!).catch(() => undefined))?.summary as { sent: number; pending: number; heldOut?: number } | undefined,
      (summary) => summary !== undefined && summary.pending === 0 && summary.sent + (summary.heldOut ?? 0) === PEOPLE,
      180_000,
      500,
    );
    await settle();
    return { campaignId, jobId: jobId! };
  }

  /** Every recipients row of the campaign (1,000 fit one JSON page). */
  async function rowsOf(campaignId: string): Promise<Map<string, Row>> {
    const answer = await call('GET', `/campaigns/${campaignId}/recipients?limit=1000`);
    expect(answer.status).toBe(200);
    expect(answer.body.data.nextCursor ?? null).toBeNull();
    return new Map((answer.body.data.recipients as Row[]).map((row) => [row.toPhoneNumber, row]));
  }

  it('counts replies, taps and clicks exactly, lists them, selects by them, tells the customer, and compares with the holdout', async () => {
    const { campaignId, jobId } = await runCampaign();
    const before = await rowsOf(campaignId);
    const indexOf = (phone: string) => Number(phone.slice(-10)) - 9_500_000_000;
    const heldOut = [...before.values()]
      .filter((row) => row.status === 'HELD_OUT')
      .map((row) => indexOf(row.toPhoneNumber))
      .sort((a, b) => a - b);
    const sentPeople = [...before.values()]
      .filter((row) => row.status !== 'HELD_OUT')
      .map((row) => indexOf(row.toPhoneNumber))
      .sort((a, b) => a - b);
    // 10 % of 1,000 drawn per person: about 100, never anyone twice.
    expect(heldOut.length).toBeGreaterThan(60);
    expect(heldOut.length).toBeLessThan(140);
    expect(heldOut.length + sentPeople.length).toBe(PEOPLE);

    // Held-out people are never sent; everyone else exactly once, with their own click token.
    const sent = sentMessages(runtime);
    for (const index of heldOut) expect(sent.has(full(index))).toBe(false);
    for (const index of sentPeople) expect(sent.get(full(index))).toHaveLength(1);
    const message = (index: number) => sent.get(full(index))![0]!;
    expect(new Set(sentPeople.map((index) => message(index).token)).size).toBe(sentPeople.length);

    // The groups, by position among the people sent (the sandbox's users apart: two of them write by BSUID only).
    const pool = sentPeople.filter((index) => !USERS.includes(index));
    const S = (from: number, count: number) => pool.slice(from, from + count);
    const textWithContext = S(0, 70);
    const stops = S(0, 3);
    const tapYes = S(70, 20);
    const tapLater = S(90, 10);
    const byBsuid = sentPeople.filter((index) => USERS.includes(index)).slice(0, 2);
    const lastTouch = [...S(100, 18), ...byBsuid];
    const afterWindow = S(120, 5);
    const clickers = S(130, 40);
    const twice = S(130, 10);
    const [previewed, headed] = S(170, 2) as [number, number];
    const holdoutWriters = heldOut.slice(0, 10);
    expect(byBsuid).toHaveLength(2);

    const now = Math.floor(Date.now() / 1000);
    const inbound: Inbound[] = [
      ...textWithContext.map((index) => ({ from: full(index), text: stops.includes(index) ? 'STOP' : 'Sounds good', contextId: message(index).messageId })),
      ...tapYes.map((index) => ({ from: full(index), button: { payload: 'YES', text: 'Yes please' }, contextId: message(index).messageId })),
      ...tapLater.map((index) => ({ from: full(index), button: { payload: 'LATER', text: 'Not now' }, contextId: message(index).messageId })),
      ...lastTouch.map((index) =>
        byBsuid.includes(index) ? { userId: bsuids.get(full(index))!, text: 'Is it still on?' } : { from: full(index), text: 'Is it still on?' },
      ),
      // Written 73 hours after delivery (Meta's time of the message): past the 72-hour window.
      ...afterWindow.map((index) => ({ from: full(index), text: 'Late question', timestamp: now + 73 * 3600 })),
      ...holdoutWriters.map((index) => ({ from: full(index), text: 'Do you have offers?' })),
    ];
    await postInbound(runtime, inbound);

    for (const index of clickers) {
      const opened = await open(`${clickBaseUrl}/r/${message(index).token}`);
      expect([opened.status, opened.location]).toEqual([302, destination(index)]);
    }
    // Clicks count one per second at most: the second openings come in another second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    for (const index of twice) expect((await open(`${clickBaseUrl}/r/${message(index).token}`)).status).toBe(302);
    const preview = await open(`${clickBaseUrl}/r/${message(previewed).token}`, { userAgent: 'WhatsApp/2.24.1 A' });
    expect([preview.status, preview.location]).toEqual([302, destination(previewed)]);
    const head = await open(`${clickBaseUrl}/r/${message(headed).token}`, { method: 'HEAD' });
    expect([head.status, head.location]).toEqual([302, destination(headed)]);
    await settle();

    // Unknown and tampered tokens: the plain page, never a redirect.
    const token = message(clickers[0]!).token;
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const bad of ['unknown-token', tampered]) {
      const page = await open(`${clickBaseUrl}/r/${bad}`);
      expect([page.status, page.location, page.type?.startsWith('text/html')]).toEqual([404, null, true]);
    }

    // The summary: replies (context and last touch, no late ones), taps per button, unique clickers, attributed STOPs.
    const replied = new Set([...textWithContext, ...tapYes, ...tapLater, ...lastTouch]);
    const status = (await call('GET', `/status/${jobId}`)).body.data;
    expect(status.summary).toMatchObject({
      replied: replied.size,
      clicked: clickers.length,
      repliedByStop: stops.length,
      heldOut: heldOut.length,
      buttons: [
        { index: 0, payload: 'YES', taps: tapYes.length },
        { index: 1, payload: 'LATER', taps: tapLater.length },
      ],
    });
    const view = (await call('GET', `/campaigns/${campaignId}`)).body.data;
    expect(view.totals).toMatchObject({ replied: replied.size, clicked: clickers.length, repliedByStop: stops.length, heldOut: heldOut.length });
    expect(view.lift).toMatchObject({
      sent: sentPeople.length,
      replied: replied.size,
      heldOut: heldOut.length,
      holdoutInbound: holdoutWriters.length,
      sentReplyRate: expect.closeTo(replied.size / sentPeople.length, 4),
      holdoutInboundRate: expect.closeTo(holdoutWriters.length / heldOut.length, 4),
      incrementalReplies: expect.closeTo(replied.size - (holdoutWriters.length / heldOut.length) * sentPeople.length, 1),
      reliable: expect.any(Boolean),
    });

    // The recipients list and its CSV: each person's outcome, nobody else's.
    const rows = await rowsOf(campaignId);
    // A held-out person who wrote in shows it on their HELD_OUT row (the holdout's inbound), never in `replied`.
    const expectedOf = (index: number) => ({
      replied: replied.has(index) || holdoutWriters.includes(index),
      buttonPayload: tapYes.includes(index) ? 'YES' : tapLater.includes(index) ? 'LATER' : null,
      clicks: clickers.includes(index) ? (twice.includes(index) ? 2 : 1) : 0,
    });
    const listed = (row: Row) => ({ replied: Boolean(row.repliedAt), buttonPayload: row.buttonPayload ?? null, clicks: row.clicks ?? 0 });
    for (const index of range(0, PEOPLE)) expect([index, listed(rows.get(national(index))!)]).toEqual([index, expectedOf(index)]);
    for (const index of clickers) expect(rows.get(national(index))!.firstClickAt).toEqual(expect.any(String));
    const csv = await call('GET', `/campaigns/${campaignId}/recipients?format=csv&limit=10000`);
    expect(csv.status).toBe(200);
    const csvByPhone = new Map(csvRows(String(csv.body)).map((row) => [row.toPhoneNumber, row]));
    expect(csvByPhone.size).toBe(PEOPLE);
    for (const index of range(0, PEOPLE)) {
      const row = csvByPhone.get(national(index))!;
      const expected = expectedOf(index);
      expect([index, row.repliedAt !== '', row.buttonPayload || null, Number(row.clicks || 0)]).toEqual([
        index,
        expected.replied,
        expected.buttonPayload,
        expected.clicks,
      ]);
    }

    // Follow-up audiences (dry runs): read but did not reply; clicked; tapped YES.
    const followUp = (audience: Record<string, unknown>) =>
      call('POST', `/campaigns/${campaignId}/follow-up?dryRun=true`, {
        broadcastName: 'Nudge',
        fromPhoneNumber: DEMO.sender1,
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        globalTemplateParams: ['there', 'X'],
        audience,
      });
    const readNoReply = [...rows.values()].filter((row) => row.status === 'READ' && !row.repliedAt).length;
    expect(readNoReply).toBeGreaterThan(100);
    const readNotReplied = await followUp({ statuses: ['READ'], replied: false });
    expect([readNotReplied.status, readNotReplied.body.data.totals.received]).toEqual([200, readNoReply]);
    const clicked = await followUp({ statuses: ['DELIVERED', 'READ'], clicked: true });
    expect([clicked.status, clicked.body.data.totals.received]).toEqual([200, clickers.length]);
    const tappedYes = await followUp({ statuses: ['DELIVERED', 'READ'], buttonPayloads: ['YES'] });
    expect([tappedYes.status, tappedYes.body.data.totals.received]).toEqual([200, tapYes.length]);
    // An outcome alone selects among the people sent: neither the held-out who wrote in nor the STOP repliers (opted out).
    const repliedOnly = await followUp({ replied: true });
    expect([repliedOnly.status, repliedOnly.body.data.totals.received]).toEqual([200, replied.size - stops.length]);

    // Customer events: one message.replied per attributed reply, one button.tapped per tap, one link.clicked per counted click.
    const ofCampaign = await eventually(
      async () => events().filter((event) => event.data.jobId === jobId),
      (received) =>
        // Every kind waited for: the fair queue serves the organization's deliveries in no fixed order of kinds.
        received.filter((event) => event.type === 'link.clicked').length >= clickers.length + twice.length &&
        received.filter((event) => event.type === 'message.replied').length >= replied.size &&
        received.filter((event) => event.type === 'button.tapped').length >= tapYes.length + tapLater.length,
      120_000,
      250,
    );
    const count = (type: string) => new Set(ofCampaign.filter((event) => event.type === type).map((event) => event.id)).size;
    expect({ replied: count('message.replied'), tapped: count('button.tapped'), clicked: count('link.clicked') }).toEqual({
      replied: replied.size,
      tapped: tapYes.length + tapLater.length,
      clicked: clickers.length + twice.length,
    });
    expect(ofCampaign.every((event) => event.data.campaignId === campaignId)).toBe(true);
  });
});
