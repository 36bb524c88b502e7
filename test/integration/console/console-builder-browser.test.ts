/**
 * The campaign builder in headless Chromium (docs/CONSOLE.md "New campaign", "Audiences",
 * "Templates"; issue 37 items 4 and 5): a 2,000-row CSV uploaded as a new audience (three bad lines
 * named by their line numbers), the audience's page, the templates, a campaign on `order_shipped`
 * mapping `{{1}}` to `first_name` with a fallback (every tenth member has none), `{{2}}` and the URL
 * button to `order_id`, the preview for three members, the dry run, the confirmed launch, the
 * campaign finished; the sandbox received exactly the eligible members, once each, with their values.
 * No CSP violation, no sideways scroll at 390 px, screenshots under test-output/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, acceptedByRecipient, bodyParameters, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';
import { browserPath, outputDirectory, recordRequests } from './console-kit';
import { signInAsPerson } from '../../support/console-sign-in';

// 28 s alone; up to ~105 s in a fresh-clone CI beside three other workers and the linter on 2 cores.
jest.setTimeout(300_000);

if (!browserPath) process.stdout.write('SKIPPED console-builder-browser: no Chromium found (/usr/bin/chromium or CHROMIUM_PATH).\n');

const ROWS = 2_000;
const FIRST = 9_400_000_000;
/** Data row i is on line i + 2 (the header is line 1). */
const BAD_ROWS: Readonly<Record<number, string>> = { 10: '91,12,F10,A-10', 1_234: '91,9400001234,F1234,A-1234,extra', 1_700: '91,94000x1700,F1700,A-1700' };
const full = (index: number) => `91${FIRST + index}`;
const firstNameOf = (index: number) => (index % 10 === 0 ? '' : `F${index}`);

function csvFile(): Buffer {
  const lines = ['countryCode,toPhoneNumber,first_name,order_id'];
  for (let index = 0; index < ROWS; index += 1) lines.push(BAD_ROWS[index] ?? `91,${FIRST + index},${firstNameOf(index)},A-${index}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n`);
}

const eligible = Array.from({ length: ROWS }, (_, index) => index).filter((index) => BAD_ROWS[index] === undefined);

/** The URL button's value of an accepted template message. */
function buttonText(message: { body: unknown }): string | undefined {
  const components =
    (message.body as { template?: { components?: Array<{ type: string; sub_type?: string; parameters: Array<{ text?: string }> }> } }).template?.components ??
    [];
  return components.find((component) => component.type === 'button' && component.sub_type === 'url')?.parameters[0]?.text;
}

(browserPath ? describe : describe.skip)('the campaign builder in headless Chromium', () => {
  let runtime: TestRuntime;
  let browser: Browser;

  beforeAll(async () => {
    // 200 a second (the default is Meta's 30 for a new number): 2,000 sends in ~10 s, not ~70.
    runtime = await startTestRuntime({ environment: { ...kitEnvironment, DEFAULT_MESSAGES_PER_SECOND: '200' } });
    browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
    mkdirSync(outputDirectory, { recursive: true });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
  });

  /** The one sign-in of the suite: the demo campaign manager, through the local identity provider's own page. */
  async function signIn(page: Page): Promise<void> {
    const manager = runtime.demo.people.find((person) => person.role === 'campaign-manager')!;
    await signInAsPerson(page, { baseUrl: runtime.baseUrl, email: manager.email, password: manager.password });
    await page.getByRole('heading', { name: 'Broadcasts' }).waitFor({ timeout: 30_000 });
  }

  const noSidewaysScroll = async (page: Page) => expect(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).toBeLessThanOrEqual(0);

  it('imports a CSV, builds a campaign on order_shipped, previews, checks, launches and sends each eligible member once with their values', async () => {
    const started = Date.now();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const requests = await recordRequests(page, runtime.baseUrl, [`${runtime.demo.identity.issuer}/`]);
    const pageMessages: string[] = [];
    page.on('console', (message) => pageMessages.push(message.text()));
    page.on('pageerror', (error) => pageMessages.push(String(error)));
    await signIn(page);

    // Audiences: a new one from the file, imported in two pages of 1,000; the bad lines named.
    await page.getByRole('link', { name: 'Audiences' }).click();
    await page.getByLabel('New audience name').fill('Shipped today');
    await page.locator('#new-audience-file').setInputFiles({ name: 'shipped.csv', mimeType: 'text/csv', buffer: csvFile() });
    await page.getByRole('button', { name: 'Create and import' }).click();
    await page.getByRole('link', { name: 'Shipped today' }).last().waitFor({ timeout: 30_000 });
    await expect(page.locator('#new-audience-progress-text').innerText()).resolves.toBe('1,999 of 1,999 rows sent · 1,997 added, 0 updated, 3 lines refused');
    const problems = await page.locator('.line-problems li').allInnerTexts();
    expect(problems).toEqual([
      expect.stringMatching(/^Line 12: toPhoneNumber must have at least 4 digits/),
      "Line 1236: column 5 is beyond the header's 4 columns",
      expect.stringMatching(/^Line 1702: toPhoneNumber /),
    ]);
    await page.screenshot({ path: join(outputDirectory, 'console-audiences.png'), fullPage: true });

    await page.getByRole('link', { name: 'Shipped today' }).last().click();
    await page.getByRole('heading', { name: 'Shipped today' }).waitFor({ timeout: 30_000 });
    await expect(page.locator('dl.facts dd').first().innerText()).resolves.toBe('1,997');
    await page.getByLabel('Search this page').fill('F7');
    await expect(page.locator('table.members tbody tr').count()).resolves.toBeGreaterThan(0);
    await page.screenshot({ path: join(outputDirectory, 'console-audience.png'), fullPage: false });

    await page.getByRole('link', { name: '← All audiences' }).click();
    await page.getByRole('link', { name: 'Templates' }).click();
    await page.getByRole('table', { name: /Templates of/ }).waitFor({ timeout: 30_000 });
    const shipped = page.locator('table.templates tbody tr', { hasText: 'order_shipped' });
    await expect(shipped.innerText()).resolves.toMatch(
      /order_shipped \(en_US\)\s+APPROVED\s+.*UTILITY\s+—\s+Header image link, Body \{\{1\}\}, Body \{\{2\}\}, Button 1: URL suffix/,
    );
    // Every status is listed (status=all): the demo's template in review too.
    await expect(page.locator('table.templates tbody tr', { hasText: 'holiday_offer' }).innerText()).resolves.toMatch(/PENDING/);
    await page.screenshot({ path: join(outputDirectory, 'console-templates.png'), fullPage: true });

    // The builder.
    await page.getByRole('link', { name: 'New campaign' }).click();
    await page.getByLabel('Campaign name').fill('Shipped today');
    await page.getByLabel('Audience', { exact: true }).selectOption({ label: 'Shipped today (1,997 members)' });
    await page.getByLabel('order_shipped (en_US)').check();
    await page.locator('#need-header-literal').fill('https://cdn.example/parcel.jpg');
    await page.locator('#need-body-1-attribute').fill('first_name');
    await page.locator('#need-body-1-fallback').fill('there');
    await page.locator('#need-body-2-attribute').fill('order_id');
    await page.locator('#need-button-0-attribute').fill('order_id');
    // The first page's first three members: index 0 has no first_name (the fallback), 1 and 2 have theirs.
    const previews = page.locator('.wa-preview');
    await expect(previews.locator('.wa-body').allInnerTexts()).resolves.toEqual([
      'Hi there, your order A-0 is on its way.',
      'Hi F1, your order A-1 is on its way.',
      'Hi F2, your order A-2 is on its way.',
    ]);
    await expect(previews.first().locator('.wa-media').getAttribute('aria-label')).resolves.toBe('Image header: https://cdn.example/parcel.jpg');
    await expect(previews.first().locator('.wa-buttons').innerText()).resolves.toBe('Link · A-0');

    await page.getByRole('button', { name: 'Create draft and check (dry run)' }).click();
    const dryRun = page.getByRole('table', { name: 'Dry run: nothing was sent' });
    await dryRun.waitFor({ timeout: 30_000 });
    await expect(dryRun.locator('tr', { hasText: 'Sendable' }).innerText()).resolves.toMatch(/1,997$/);
    await expect(dryRun.locator('tr', { hasText: 'Missing values' }).innerText()).resolves.toMatch(/\s0$/);
    await expect(page.locator('.limit-plan li').count()).resolves.toBeGreaterThan(0);
    await page.screenshot({ path: join(outputDirectory, 'console-builder.png'), fullPage: true });

    await page.getByRole('button', { name: 'Launch…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Launch the campaign' });
    await expect(dialog.locator('#launch-question').innerText()).resolves.toMatch(/^Send order_shipped to 1,997 members now\? Cost: /);
    await dialog.getByRole('button', { name: 'Launch', exact: true }).click();
    await page.waitForURL(/#\/campaigns\/cmp_/, { timeout: 30_000 });
    await page.getByRole('heading', { name: 'Shipped today' }).waitFor({ timeout: 30_000 });
    await page
      .locator('.badge', { hasText: /^Completed$/ })
      .first()
      .waitFor({ timeout: 180_000 });
    await page.screenshot({ path: join(outputDirectory, 'console-builder-campaign.png'), fullPage: true });

    // The sandbox received exactly the eligible members, once each, with their values.
    const sent = [...acceptedByRecipient(runtime).entries()].filter(([recipient]) => recipient.startsWith('91940'));
    expect(sent.map(([recipient]) => recipient).sort()).toEqual(eligible.map(full).sort());
    expect(sent.every(([, messages]) => messages.length === 1)).toBe(true);
    const byRecipient = new Map(sent.map(([recipient, [message]]) => [recipient, message!]));
    for (const index of eligible) {
      const message = byRecipient.get(full(index))!;
      expect([bodyParameters(message), buttonText(message)]).toEqual([[firstNameOf(index) || 'there', `A-${index}`], `A-${index}`]);
    }

    // Phone width: the builder reads without sideways scrolling.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${runtime.baseUrl}/console/#/campaigns/new`);
    await page.getByLabel('Campaign name').waitFor();
    await page.getByLabel('order_shipped (en_US)').waitFor({ timeout: 30_000 });
    await noSidewaysScroll(page);
    await page.screenshot({ path: join(outputDirectory, 'console-builder-phone.png'), fullPage: false });
    await page.goto(`${runtime.baseUrl}/console/#/audiences`);
    await page.getByRole('link', { name: 'Shipped today' }).first().waitFor({ timeout: 30_000 });
    await noSidewaysScroll(page);

    expect(requests.foreign).toEqual([]);
    expect(pageMessages.filter((message) => /Content Security Policy|Refused to|Error/i.test(message))).toEqual([]);
    process.stdout.write(`console-builder-browser: ${Date.now() - started} ms from sign-in to the campaign finished and checked\n`);
    await context.close();
  });

  it('retries a page whose answer was lost with the same Idempotency-Key: each member written once, the counts right', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await context.newPage();
    const keys: string[] = [];
    // The second request reaches the service, but its answer is lost (a 503 instead): the page is written, the browser does not know.
    await page.route('**/audiences/*/members', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      keys.push(route.request().headers()['idempotency-key']!);
      if (keys.length !== 2) return route.continue();
      await route.fetch();
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({
          statusCode: 503,
          message: 'Service unavailable',
          data: { error: { code: 'SERVICE_UNAVAILABLE', message: 'Service unavailable' } },
        }),
      });
    });
    await signIn(page);
    await page.goto(`${runtime.baseUrl}/console/#/audiences`);
    const lines = ['toPhoneNumber,countryCode,city', ...Array.from({ length: 1_500 }, (_, index) => `${8_100_000_000 + index},91,Pune`)];
    await page.getByLabel('New audience name').fill('Retried');
    await page.locator('#new-audience-file').setInputFiles({ name: 'retried.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\n')) });
    await page.getByRole('button', { name: 'Create and import' }).click();
    await expect(page.getByRole('alert').innerText({ timeout: 30_000 })).resolves.toMatch(
      /^Page 2 \(lines 1002–1501\) was not written: Service unavailable \(HTTP 503/,
    );
    await expect(page.locator('#new-audience-progress-text').innerText()).resolves.toBe('1,000 of 1,500 rows sent · 1,000 added, 0 updated, 0 lines refused');
    await noSidewaysScroll(page);
    await page.getByRole('button', { name: 'Retry page 2' }).click();
    const link = page.getByRole('link', { name: 'Retried' }).last();
    await link.waitFor({ timeout: 30_000 });
    // The retry carried the page's key: the service answered it from the first (lost) answer and wrote nothing again.
    expect(keys).toHaveLength(3);
    expect(keys[2]).toBe(keys[1]);
    expect(keys[0]).not.toBe(keys[1]);
    await expect(page.locator('#new-audience-progress-text').innerText()).resolves.toBe('1,500 of 1,500 rows sent · 1,500 added, 0 updated, 0 lines refused');
    const audienceId = decodeURIComponent((await link.getAttribute('href'))!.replace('#/audiences/', ''));
    const audience = await runtime.call('GET', `${BASE}/audiences/${audienceId}`, { headers: keyHeader(runtime.demo.apiKey) });
    expect(audience.body.data).toMatchObject({ name: 'Retried', memberCount: 1_500 });
    await context.close();
  });
});
