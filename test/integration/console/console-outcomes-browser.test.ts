/**
 * What a broadcast and a campaign earned, in the console in headless Chromium (issue 38 items 3 and
 * 4, docs/CONSOLE.md "Outcomes"):
 * - a finished 20-recipient broadcast through the sandbox with its delivery webhooks, outcome facts
 *   written on the runtime's messaging table with DynamoDbOutcomeStore (replies, a second click,
 *   button taps: the inbound and click paths that record them have tests of their own), then the
 *   job's page: the funnel continues sent → delivered → read → replied / clicked with the status
 *   answer's counts and rates against delivered, the taps per button, the recipients' outcome
 *   columns and HELD_OUT among the filter's statuses, and the follow-up "read but did not reply"
 *   sends `replied: false` with the statuses chosen (and a payload tapped, `buttonPayloads`);
 * - a campaign with a holdout (the view served by the recorded stub, shaped as HELPER-RULES says):
 *   its outcomes, the lift panel, "too few held out to trust" in words; an older campaign shows none;
 * - the builder: the holdout, the attribution window and a tracked button's destination in the
 *   create body, and the problems said before anything is sent.
 * Skipped, with a printed reason, only when no browser is installed.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { getServices } from '../../../functions/composition';
import { DynamoDbOutcomeStore } from '../../../shared/adapters/dynamodb/dynamodb-outcome-store';
import type { CampaignView } from '../../../console/model/api-types';
import type { OutcomeEvent } from '../../../shared/outcomes/outcome-facts';
import { signInWithApiKey } from '../../support/console-sign-in';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, keyHeader, kitEnvironment, latestJobId, orderUpdate, readJob, recipients, waitForTerminal } from '../broadcast/broadcast-test-kit';
import { SENDING_ID, stubCampaignRoutes } from './console-campaign-stub';
import { browserPath, outputDirectory, recordRequests } from './console-kit';

jest.setTimeout(180_000);

if (!browserPath) process.stdout.write('SKIPPED console-outcomes-browser: no Chromium found (/usr/bin/chromium or CHROMIUM_PATH).\n');

const SIZE = 20;
const REPLIED = [0, 1, 2, 3, 4, 5];
const CLICKED = [0, 7, 9];
const TAPS: ReadonlyArray<readonly [number, number, string]> = [
  [0, 0, 'YES'],
  [1, 0, 'YES'],
  [2, 0, 'YES'],
  [3, 1, 'NO'],
];

const countOf = async (page: Page, bar: string) => Number((await page.locator(`dd[data-count="${bar}"]`).innerText()).replace(/\D/g, ''));
const rateOf = (page: Page, bar: string) => page.locator(`dd[data-rate="${bar}"]`).innerText();

/** The facts the inbound and click paths would record, written straight on the job's tally items. */
async function recordOutcomes(jobId: string): Promise<void> {
  const { clients, config } = getServices();
  const store = new DynamoDbOutcomeStore(clients.dynamoDb, config.tableNames.messaging);
  const at = (seconds: number) => new Date(Date.now() + seconds * 1_000);
  const events: Array<{ index: number; event: OutcomeEvent }> = [
    ...REPLIED.map((index) => ({ index, event: { kind: 'reply', at: at(index), via: 'context' } as const })),
    ...CLICKED.map((index) => ({ index, event: { kind: 'click', at: at(index) } as const })),
    // A second click a minute later: one person clicked, two clicks.
    { index: 7, event: { kind: 'click', at: at(60) } },
    ...TAPS.map(([index, button, payload]) => ({ index, event: { kind: 'button', at: at(index), index: button, payload } as const })),
  ];
  await store.recordOutcomes(
    jobId,
    events.map(({ index, event }) => ({ location: { jobId, chunkIndex: 0, index }, event })),
  );
}

(browserPath ? describe : describe.skip)('outcomes in the console (headless Chromium)', () => {
  let runtime: TestRuntime;
  let browser: Browser;
  let jobId: string;

  beforeAll(async () => {
    runtime = await startTestRuntime({ sandboxWebhooks: true, environment: { ...kitEnvironment } });
    await fetch(`${runtime.sandboxUrl}/_sandbox/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ duplicateRate: 0, reorderRate: 0, readRate: 0.5 }),
    });
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, {
      headers: keyHeader(runtime.demo.apiKey),
      body: orderUpdate(recipients(SIZE, { first: 9_300_000_000 }), { broadcastName: 'Outcomes' }),
    });
    if (accepted.status !== 200 && accepted.status !== 202) throw new Error(`broadcast not accepted: ${accepted.status} ${JSON.stringify(accepted.body)}`);
    jobId = accepted.headers.get('x-broadcast-job-id') ?? (await latestJobId(runtime.demo.organizationId));
    await waitForTerminal(runtime.demo.organizationId, jobId);
    await runtime.workersIdle();
    await fetch(`${runtime.sandboxUrl}/_sandbox/webhooks/drain?timeoutMs=30000`, { method: 'POST' });
    await runtime.workersIdle();
    await eventually(
      () => readJob(runtime.demo.organizationId, jobId),
      (view) => view.summary.delivered === SIZE,
    );
    await recordOutcomes(jobId);
    browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
    mkdirSync(outputDirectory, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
  });

  it("continues the job's funnel to replied and clicked, with taps per button, the recipients' outcomes and a follow-up by outcome", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const requests = await recordRequests(page, runtime.baseUrl);
    const pageErrors: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    const followUpBodies: unknown[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/follow-up')) followUpBodies.push(request.postDataJSON());
    });
    /** Runs the dialog's dry run and answers the body it posted. */
    const checked = async (dialog: ReturnType<Page['getByRole']>): Promise<unknown> => {
      const before = followUpBodies.length;
      await dialog.getByRole('button', { name: 'Check (dry run)' }).click();
      await eventually(
        async () => followUpBodies.length,
        (count) => count > before,
      );
      return followUpBodies.at(-1);
    };
    await signInWithApiKey(page, { baseUrl: runtime.baseUrl, key: runtime.demo.apiKey, hash: `#/campaigns/${jobId}` });
    await page.locator('dd[data-count="replied"]').waitFor({ timeout: 30_000 });

    // The page's numbers are the status answer's, and the answer's are the facts written.
    const status = await runtime.call('GET', `${BASE}/status/${jobId}`, { headers: keyHeader(runtime.demo.apiKey) });
    const summary = (status.body as { data: { summary: Record<string, unknown> } }).data.summary;
    expect(summary).toMatchObject({ delivered: SIZE, replied: REPLIED.length, clicked: CLICKED.length });
    const shown = Object.fromEntries(
      await Promise.all(['sent', 'delivered', 'read', 'replied', 'clicked', 'failed'].map(async (bar) => [bar, await countOf(page, bar)])),
    );
    expect(shown).toEqual({ sent: SIZE, delivered: SIZE, read: summary.read, replied: REPLIED.length, clicked: CLICKED.length, failed: 0 });
    await expect(rateOf(page, 'replied')).resolves.toBe('30.0 % of delivered');
    await expect(rateOf(page, 'clicked')).resolves.toBe('15.0 % of delivered');
    // The bars' order on the page: read, then replied and clicked, failed beside them.
    await expect(page.locator('dl.funnel-numbers dt').allInnerTexts()).resolves.toEqual(['Sent', 'Delivered', 'Read', 'Replied', 'Clicked', 'Failed']);
    await expect(page.locator('table.button-taps tbody tr').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Button 1\s+YES\s+3$/),
      expect.stringMatching(/^Button 2\s+NO\s+1$/),
    ]);

    // The recipients: the outcome columns, and HELD_OUT among the statuses to filter by.
    const table = page.getByRole('table', { name: /^Recipients, page 1/ });
    await table.waitFor();
    await expect(table.locator('thead th').allInnerTexts()).resolves.toEqual(expect.arrayContaining(['Replied', 'Button', 'Clicks (first)']));
    await expect(page.locator('#status-filter option').allInnerTexts()).resolves.toContain('HELD_OUT');
    const rowOf = (index: number) => table.locator('tbody tr', { hasText: `+91 ${9_300_000_000 + index}` });
    // Recipient 0 replied, tapped YES and clicked once; recipient 7 clicked twice; recipient 19 did nothing.
    await expect(rowOf(0).locator('td').nth(-2).innerText()).resolves.toBe('YES');
    await expect(rowOf(0).locator('td').last().innerText()).resolves.toMatch(/^1 \(first .+\)$/);
    await expect(rowOf(7).locator('td').last().innerText()).resolves.toMatch(/^2 \(first .+\)$/);
    await expect(rowOf(19).locator('td').allInnerTexts()).resolves.toEqual(expect.arrayContaining(['—', '—', '—']));
    await expect(rowOf(19).locator('td').nth(-3).innerText()).resolves.toBe('—');
    await page.screenshot({ path: join(outputDirectory, 'console-outcomes.png'), fullPage: true });

    // "Read but did not reply": the statuses chosen and `replied: false` in the follow-up's audience.
    await page.getByRole('button', { name: 'Follow up by reply or click…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Follow up by reply, click or button' });
    await dialog.locator('.dry-run, .notice').first().waitFor({ timeout: 30_000 });
    // order_update is a UTILITY template (the dialog starts with MARKETING: the list does not say).
    await dialog.getByLabel('Template category').selectOption('UTILITY');
    await checked(dialog);
    await dialog.getByRole('table', { name: /Dry run/ }).waitFor({ timeout: 30_000 });
    await dialog.getByLabel('Sent (not delivered yet)').uncheck();
    await dialog.getByLabel('Delivered (not read)').uncheck();
    await dialog.getByLabel('Replies').selectOption({ label: 'Did not reply' });
    expect(await checked(dialog)).toMatchObject({ templateType: 'UTILITY', audience: { statuses: ['READ'], replied: false } });
    // The dry run counts exactly those: read, and not among the replied.
    const listed = await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients?status=READ&limit=100`, { headers: keyHeader(runtime.demo.apiKey) });
    const readRows = (listed.body as { data: { recipients: Array<{ toPhoneNumber: string; repliedAt?: string | null }> } }).data.recipients;
    const readNotReplied = readRows.filter((row) => !row.repliedAt).length;
    expect(readNotReplied).toBe(readRows.filter((row) => !REPLIED.includes(Number(row.toPhoneNumber) - 9_300_000_000)).length);
    const wouldBeSent = () =>
      dialog
        .getByRole('table', { name: /Dry run/ })
        .locator('tbody tr')
        .first()
        .innerText()
        .catch(() => '');
    // The answer replaces the previous check's table: wait for it.
    await expect(eventually(wouldBeSent, (text) => new RegExp(`^Would be sent\\s+${readNotReplied}$`).test(text), 30_000)).resolves.toBeDefined();
    // Those who tapped YES, whatever else they did: the payloads offered are the ones tapped.
    await dialog.getByLabel('Replies').selectOption({ label: 'Either' });
    await dialog.getByRole('checkbox', { name: 'NO', exact: true }).waitFor();
    await dialog.getByRole('checkbox', { name: 'YES', exact: true }).check();
    expect(((await checked(dialog)) as { audience: unknown }).audience).toEqual({ statuses: ['READ'], buttonPayloads: ['YES'] });
    await dialog.getByRole('button', { name: 'Close' }).click();

    expect(pageErrors).toEqual([]);
    expect(requests.foreign).toEqual([]);
    await context.close();
  });

  it("shows a campaign's outcomes and its lift over the held-out group, and says when too few were held out to trust it", async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await recordRequests(page, runtime.baseUrl);
    // The campaign view as the holdout and views helpers shape it (HELPER-RULES "Holdout and lift"), served by the recorded stub.
    const stub = await stubCampaignRoutes(page);
    const base = stub.campaigns.get(SENDING_ID)!;
    const held: CampaignView = {
      ...base,
      campaignId: 'cmp_04HOLDOUT',
      name: 'Winter with a holdout',
      state: 'COMPLETED',
      totals: { ...base.totals, replied: 325, clicked: 124, heldOut: 37, repliedByStop: 4, buttons: [{ index: 0, payload: 'BUY', taps: 88 }] },
      cost: { ...base.cost!, perReply: '1.2000', perClick: '3.1452' },
      holdout: { percent: 1 },
      lift: {
        sentReplyRate: 0.1,
        holdoutInboundRate: 0.027,
        incrementalReplies: 237.25,
        costPerIncrementalReply: '1.6439',
        heldOut: 37,
        holdoutInbound: 1,
        sent: 3_250,
        replied: 325,
        reliable: false,
      },
    };
    stub.campaigns.set(held.campaignId, held);
    await signInWithApiKey(page, { baseUrl: runtime.baseUrl, key: runtime.demo.apiKey, hash: `#/campaigns/${held.campaignId}` });
    await page.getByRole('heading', { name: held.name }).waitFor({ timeout: 30_000 });
    await page.locator('dd[data-count="replied"]').waitFor();

    await expect(page.locator('dl.funnel-numbers dt').allInnerTexts()).resolves.toEqual([
      'Audience',
      'Sendable',
      'Sent',
      'Delivered',
      'Read',
      'Replied',
      'Clicked',
      'Skipped',
      'Opted out',
      'Failed',
      'Held out',
    ]);
    await expect(Promise.all(['replied', 'clicked', 'held-out'].map((bar) => countOf(page, bar)))).resolves.toEqual([325, 124, 37]);
    await expect(rateOf(page, 'replied')).resolves.toBe('10.5 % of delivered');
    await expect(page.locator('table.button-taps tbody tr').allInnerTexts()).resolves.toEqual([expect.stringMatching(/^Button 1\s+BUY\s+88$/)]);
    const facts = page.getByRole('region', { name: 'Replies, buttons and clicks' }).locator('dl.facts');
    await expect(facts.innerText()).resolves.toMatch(/Opted out by a STOP reply\s+4\s+Cost per reply\s+1\.2000 EUR\s+Cost per click\s+3\.1452 EUR/);

    const lift = page.getByRole('region', { name: 'Lift over the held-out group' });
    await expect(lift.locator('table.lift tbody tr').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Reply rate of those sent\s+10\.0 % \(325 of 3,250\)$/),
      expect.stringMatching(/^Inbound rate of those held out\s+2\.7 % \(1 of 37\)$/),
      expect.stringMatching(/^Replies the campaign caused \(incremental\)\s+237\.3$/),
      expect.stringMatching(/^Cost per incremental reply\s+1\.6439 EUR$/),
    ]);
    await expect(lift.getByRole('status').innerText()).resolves.toMatch(/^Too few held out to trust: at least 100 members must be held out/);
    await page.screenshot({ path: join(outputDirectory, 'console-campaign-lift.png'), fullPage: true });

    // A campaign without a holdout or outcomes (an older one): no lift, no outcome section, no zeros.
    await page.goto(`${runtime.baseUrl}/console/#/campaigns/${SENDING_ID}`);
    await page.getByRole('heading', { name: base.name }).waitFor({ timeout: 30_000 });
    await page.locator('dd[data-count="read"]').waitFor();
    await expect(page.locator('dd[data-count="replied"]').count()).resolves.toBe(0);
    await expect(page.getByRole('heading', { name: 'Lift over the held-out group' }).isVisible()).resolves.toBe(false);
    await expect(page.getByRole('heading', { name: 'Replies, buttons and clicks' }).isVisible()).resolves.toBe(false);
    await context.close();
  });

  it("builds a campaign with a holdout, an attribution window and a tracked link's destination", async () => {
    const headers = keyHeader(runtime.demo.apiKey);
    const audience = await runtime.call('POST', `${BASE}/audiences`, { headers, body: { name: 'Measured' } });
    const { audienceId } = (audience.body as { data: { audienceId: string } }).data;
    await runtime.call('POST', `${BASE}/audiences/${audienceId}/members`, {
      headers,
      body: {
        members: [0, 1, 2].map((index) => ({
          countryCode: '91',
          toPhoneNumber: String(9_310_000_000 + index),
          attributes: { first_name: `F${index}`, order_id: `A-${index}` },
        })),
      },
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    await recordRequests(page, runtime.baseUrl);
    // The template list as helper "clicks" marks a URL button on the platform's click link (HELPER-RULES "Clicks").
    await page.route(
      (url) => url.pathname.endsWith('/templates'),
      async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { data: Array<{ name: string; parameters: { buttons?: Array<Record<string, unknown>> } }> };
        for (const template of body.data)
          if (template.name === 'order_shipped') template.parameters.buttons = template.parameters.buttons?.map((button) => ({ ...button, tracked: true }));
        await route.fulfill({ response, json: body });
      },
    );
    const created: Array<Record<string, unknown>> = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname.endsWith('/campaigns'))
        created.push(request.postDataJSON() as Record<string, unknown>);
    });
    await signInWithApiKey(page, { baseUrl: runtime.baseUrl, key: runtime.demo.apiKey, hash: '#/campaigns/new' });
    await page.getByLabel('Campaign name').fill('Measured');
    await page.getByLabel('Audience', { exact: true }).selectOption({ label: 'Measured (3 members)' });
    await page.getByLabel('order_shipped (en_US)').check();
    await page.locator('#need-header-literal').fill('https://cdn.example/parcel.jpg');
    await page.locator('#need-body-1-attribute').fill('first_name');
    await page.locator('#need-body-2-attribute').fill('order_id');
    const destination = page.getByLabel('Link', { exact: true }).last();
    await expect(page.locator('fieldset.need legend').last().innerText()).resolves.toBe('Button 1: tracked link destination (https://)');
    const check = page.getByRole('button', { name: 'Create draft and check (dry run)' });

    await destination.fill('http://shop.example/p/42');
    await check.click();
    await page.getByText('Button 1: tracked link destination (https://): give an https:// address').waitFor();
    await destination.fill('https://shop.example/p/42?utm_source=wa');
    await page.getByLabel('Hold out (percent of the audience)').fill('60');
    await check.click();
    await page.getByText('The holdout must be above 0 and at most 50 percent, with one decimal at most.').waitFor();
    await page.getByLabel('Hold out (percent of the audience)').fill('10');
    await page.getByLabel('Attribution window (hours)').fill('48');
    await check.click();
    await eventually(
      async () => created.length,
      (count) => count === 1,
    );
    expect(created[0]).toMatchObject({
      name: 'Measured',
      audience: { audienceIds: [audienceId] },
      holdout: { percent: 10 },
      attributionWindowHours: 48,
      buttons: [{ index: 0, type: 'url', trackedUrl: 'https://shop.example/p/42?utm_source=wa' }],
    });
    await context.close();
  });
});
