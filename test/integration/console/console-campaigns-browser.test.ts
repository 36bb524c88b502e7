/**
 * Campaigns in the console, in headless Chromium (docs/CONSOLE.md "Campaigns"): the Campaigns tab
 * beside Broadcasts, a campaign's page for the whole campaign (the funnel equal to its totals,
 * failures by code, who was left out, cost, the state with WAITING_FOR_LIMIT's time), pause, resume
 * and cancel shown only when the state allows them, the recipient table (paged, filtered, the CSV
 * joined from its pages), a follow-up through the campaign's route, and "not found". The page, its
 * files and the sign-in are the real local runtime's; the `/campaigns…` answers come from a recorded
 * stub (console-campaign-stub.ts) until the campaign routes are merged. Skipped, with a printed
 * reason, only when no browser is installed.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { signInWithApiKey } from '../../support/console-sign-in';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { FOLLOW_UP_JOB_ID, SENDING_ID, stubCampaignRoutes, WAITING_ID, type CampaignStub } from './console-campaign-stub';
import { browserPath, outputDirectory, recordRequests } from './console-kit';

jest.setTimeout(120_000);

if (!browserPath) process.stdout.write('SKIPPED console-campaigns-browser: no Chromium found (/usr/bin/chromium or CHROMIUM_PATH).\n');

const countOf = async (page: Page, bar: string) => Number((await page.locator(`dd[data-count="${bar}"]`).innerText()).replace(/\D/g, ''));
const shownControls = async (page: Page) => {
  const shown: string[] = [];
  for (const name of ['Pause campaign', 'Resume campaign', 'Cancel campaign']) if (await page.getByRole('button', { name }).isVisible()) shown.push(name);
  return shown;
};

(browserPath ? describe : describe.skip)('campaigns in the console (headless Chromium)', () => {
  let runtime: TestRuntime;
  let browser: Browser;

  beforeAll(async () => {
    runtime = await startTestRuntime();
    browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
    mkdirSync(outputDirectory, { recursive: true });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
  });

  async function signedIn(): Promise<{ page: Page; stub: CampaignStub; urls: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    // The shared machine of CI may be busy: a minute for each wait, not Playwright's 30 s.
    page.setDefaultTimeout(60_000);
    const requests = await recordRequests(page, runtime.baseUrl);
    const stub = await stubCampaignRoutes(page);
    await signInWithApiKey(page, { baseUrl: runtime.baseUrl, key: runtime.demo.apiKey });
    await page.getByRole('heading', { name: 'Broadcasts' }).waitFor({ timeout: 30_000 });
    return { page, stub, urls: requests.urls };
  }

  it('lists campaigns beside broadcasts and shows one for the whole campaign: funnel, failures, left out, cost, recipients and CSV', async () => {
    const { page, stub, urls } = await signedIn();
    await page.getByRole('link', { name: 'Campaigns', exact: true }).click();
    const list = page.getByRole('table', { name: 'Campaigns, newest first' });
    await list.waitFor({ timeout: 30_000 });
    await expect(list.locator('tbody tr').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Spring VIP\s+spring_offer \(en\)\s+Sending/),
      expect.stringMatching(/^Autumn launch\s+spring_offer \(en\)\s+Waiting for the messaging limit goes on at .+ as the 24-hour window frees/),
    ]);

    await page.getByRole('link', { name: 'Spring VIP' }).click();
    await page.getByRole('heading', { name: 'Spring VIP' }).waitFor({ timeout: 30_000 });
    await page.locator('dd[data-count="audience"]').waitFor();
    const { totals } = stub.campaigns.get(SENDING_ID)!;
    const bars = ['audience', 'sendable', 'sent', 'delivered', 'read', 'skipped', 'opted-out', 'failed'] as const;
    const shown = Object.fromEntries(await Promise.all(bars.map(async (bar) => [bar, await countOf(page, bar)])));
    expect(shown).toEqual({
      audience: totals.audience,
      sendable: totals.sendable,
      sent: totals.sent,
      delivered: totals.delivered,
      read: totals.read,
      skipped: totals.skipped,
      'opted-out': totals.optedOut,
      failed: totals.failed,
    });
    await expect(page.locator('table.failures tbody tr').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^131049\s+Meta chose not to deliver/),
      expect.stringMatching(/^131026\s/),
    ]);
    await expect(page.locator('table.skipped tbody tr td:first-child').allInnerTexts()).resolves.toEqual(['DUPLICATE', 'MISSING_ATTRIBUTE']);
    await expect(page.locator('.cost-total').innerText()).resolves.toBe('390.0000 EUR for 3,250 billed messages');
    await page.getByRole('table', { name: /^Recipients, page 1/ }).waitFor();
    await page.screenshot({ path: join(outputDirectory, 'console-audience-campaign.png'), fullPage: true });

    // The whole campaign's recipients: two pages of 50, then the FAILED filter, then its CSV joined from two pages.
    await page.getByRole('table', { name: /^Recipients, page 1/ }).waitFor();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('table', { name: /^Recipients, page 2/ }).waitFor();
    await expect(page.locator('table.recipients tbody tr').count()).resolves.toBe(10);
    await page.getByLabel('Status').selectOption('FAILED');
    await page.getByRole('table', { name: /with status FAILED/ }).waitFor();
    await expect(page.locator('table.recipients tbody tr td:nth-child(2)').allInnerTexts()).resolves.toEqual(Array(20).fill('FAILED'));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toBe(`${SENDING_ID}-recipients-failed.csv`);
    const csv = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split(/\r\n/);
    expect(csv[0]).toMatch(/^countryCode,toPhoneNumber,status,/);
    expect(csv.slice(1).map((line) => line.split(',')[2])).toEqual(Array(20).fill('FAILED'));
    expect(
      stub.calls.filter((call) => call.path.endsWith(`/campaigns/${SENDING_ID}/recipients`) && call.query.includes('format=csv')).map((call) => call.query),
    ).toEqual(['?format=csv&status=FAILED', '?format=csv&status=FAILED&cursor=csv2']);
    // Nothing about this campaign was read from the job routes, and the key is in no URL.
    expect(urls.filter((url) => url.includes('/status/') || url.includes('/broadcasts/'))).toEqual([]);
    expect(urls.filter((url) => url.includes(runtime.demo.apiKey))).toEqual([]);
    await page.context().close();
  });

  it('shows pause, resume and cancel only when the state allows them, and follows up through the campaign', async () => {
    const { page, stub } = await signedIn();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${runtime.baseUrl}/console/#/campaigns/${SENDING_ID}`);
    await page.getByRole('heading', { name: 'Spring VIP' }).waitFor({ timeout: 30_000 });
    await expect(shownControls(page)).resolves.toEqual(['Pause campaign', 'Cancel campaign']);

    await page.getByRole('button', { name: 'Pause campaign' }).click();
    await page.getByText('paused by user').waitFor();
    await expect(shownControls(page)).resolves.toEqual(['Resume campaign', 'Cancel campaign']);
    await page.getByRole('button', { name: 'Resume campaign' }).click();
    await page.locator('.badge', { hasText: 'Sending' }).waitFor();
    await expect(shownControls(page)).resolves.toEqual(['Pause campaign', 'Cancel campaign']);

    await page.getByRole('button', { name: 'Follow up to failed…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Follow up to the failed' });
    await dialog.getByRole('table', { name: /Dry run/ }).waitFor({ timeout: 30_000 });
    // Prefilled from the campaign: its name, template and category (a campaign knows it).
    await expect(dialog.getByLabel('Campaign name').inputValue()).resolves.toBe('Spring VIP · follow-up to failed');
    await expect(dialog.getByLabel('Template category').inputValue()).resolves.toBe('MARKETING');
    await dialog.getByRole('button', { name: 'Send follow-up' }).click();
    await page.waitForURL(`**/console/#/campaigns/${FOLLOW_UP_JOB_ID}`);
    const followUps = stub.calls.filter((call) => call.path.endsWith(`/campaigns/${SENDING_ID}/follow-up`));
    expect(followUps.map((call) => call.query)).toEqual(['?dryRun=true', '']);
    expect(followUps[1]!.idempotencyKey).toMatch(/^[0-9a-f-]{32,36}$/);
    expect(followUps[1]!.body).toEqual({
      broadcastName: 'Spring VIP · follow-up to failed',
      fromPhoneNumber: '4915700000001',
      templateName: 'spring_offer',
      templateLanguage: 'en',
      templateType: 'MARKETING',
      audience: { statuses: ['FAILED'] },
    });

    await page.goto(`${runtime.baseUrl}/console/#/campaigns/${SENDING_ID}`);
    await page.getByRole('heading', { name: 'Spring VIP' }).waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Cancel campaign' }).click();
    await page.locator('.badge', { hasText: 'Cancelled' }).waitFor();
    await expect(shownControls(page)).resolves.toEqual([]);
    expect(stub.calls.filter((call) => call.method === 'POST' && !call.path.endsWith('/follow-up')).map((call) => call.path.split('/').pop())).toEqual([
      'pause',
      'resume',
      'cancel',
    ]);
    await page.context().close();
  });

  it('shows when a campaign waiting for the messaging limit goes on, and an unknown campaign as not found with the key kept', async () => {
    const { page } = await signedIn();
    await page.goto(`${runtime.baseUrl}/console/#/campaigns/${WAITING_ID}`);
    await page.getByRole('heading', { name: 'Autumn launch' }).waitFor({ timeout: 30_000 });
    await expect(page.locator('.facts').innerText()).resolves.toMatch(/Goes on at\s+\S/);
    await expect(page.locator('.state-note').innerText()).resolves.toMatch(/goes on at .+ as the 24-hour window frees/);
    await expect(shownControls(page)).resolves.toEqual(['Pause campaign', 'Cancel campaign']);
    // No rate card: no cost section.
    await expect(page.getByRole('heading', { name: 'Cost' }).isVisible()).resolves.toBe(false);
    // A phone: one column, no sideways scrolling of the page.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).resolves.toBeLessThanOrEqual(0);

    await page.goto(`${runtime.baseUrl}/console/#/campaigns/cmp_unknown`);
    await page.getByRole('heading', { name: 'Campaign not found' }).waitFor({ timeout: 30_000 });
    await expect(page.evaluate('sessionStorage.length')).resolves.toBe(1);
    await page.context().close();
  });
});
