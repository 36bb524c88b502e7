/**
 * The API keys screen in headless Chromium on the local runtime (docs/CONSOLE.md "API keys"): the
 * demo admin signs in through the local identity provider's page, creates a key (shown once with a
 * warning; Copy puts it on the clipboard), the key works at the gateway, revokes it after the
 * confirmation (it then answers 401); on a 390 px phone without sideways scrolling; the secret is
 * in no URL, storage or log line; no CSP violation. A campaign manager's `#/api-keys` is "Not available".
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { signInAsPerson } from '../../support/console-sign-in';
import { BASE, keyHeader } from '../broadcast/broadcast-test-kit';
import { browserPath, captureLogs, outputDirectory } from './console-kit';

jest.setTimeout(90_000);

if (!browserPath) process.stdout.write('SKIPPED console-api-keys-browser: no Chromium found (/usr/bin/chromium or CHROMIUM_PATH).\n');

(browserPath ? describe : describe.skip)('API keys in the console (headless Chromium)', () => {
  let runtime: TestRuntime;
  let browser: Browser;
  let logs: ReturnType<typeof captureLogs>;

  beforeAll(async () => {
    logs = captureLogs();
    runtime = await startTestRuntime({ startWorkers: false });
    browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
    mkdirSync(outputDirectory, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
    logs?.stop();
  });

  it('an admin creates a key (shown once, copied), it works, and revokes it after a confirmation; a campaign manager may not open the screen', async () => {
    const person = (role: string) => runtime.demo.people.find((candidate) => candidate.role === role)!;
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await context.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (event) => console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI));",
    });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    const urls: string[] = [];
    const messages: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    page.on('console', (message) => messages.push(message.text()));
    page.on('pageerror', (error) => messages.push(String(error)));
    const overflow = () => page.evaluate('document.documentElement.scrollWidth - window.innerWidth');

    await signInAsPerson(page, { baseUrl: runtime.baseUrl, email: person('admin').email, password: person('admin').password });
    await page.getByRole('link', { name: 'API keys' }).click();
    const table = page.getByRole('table', { name: 'API keys of the organization' });
    await table.waitFor();
    const before = await table.locator('tbody tr').count();

    await page.getByLabel('May use').selectOption({ label: 'The whole organization' });
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByText('Copy the key now: it is shown this once').waitFor();
    const secret = await page.getByLabel('API key', { exact: true }).inputValue();
    expect(secret).toMatch(/^wbk_/);
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByText('Copied.').waitFor();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(secret);
    await expect(table.locator('tbody tr').count()).resolves.toBe(before + 1);
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(outputDirectory, 'console-api-keys-phone.png'), fullPage: true });

    const me = await runtime.call('GET', `${BASE}/me`, { headers: keyHeader(secret) });
    expect([me.status, me.body.data.actor]).toEqual([200, 'api-key']);
    const credentialId = me.body.data.credentialId as string;

    let question = '';
    page.once('dialog', (dialog) => {
      question = dialog.message();
      void dialog.accept();
    });
    await page.getByRole('button', { name: `Revoke ${credentialId}` }).click();
    await page.getByText(`${credentialId} was revoked.`).waitFor();
    expect(question).toBe(`Revoke ${credentialId}? Back ends using it are refused at once.`);
    await table.getByRole('row', { name: new RegExp(`${credentialId}.*revoked`) }).waitFor();
    expect((await runtime.call('GET', `${BASE}/me`, { headers: keyHeader(secret) })).status).toBe(401);

    // The secret was only in the answer and the page: in no URL, storage or log line.
    expect(urls.filter((url) => url.includes(secret))).toEqual([]);
    expect(messages.filter((line) => line.includes(secret))).toEqual([]);
    expect(logs.lines.filter((line) => line.includes(secret))).toEqual([]);
    await expect(page.evaluate('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })')).resolves.not.toContain(secret);
    expect(messages.filter((line) => /Content Security Policy|CSP violation/i.test(line))).toEqual([]);
    await context.close();

    const managerContext = await browser.newContext();
    const managerPage = await managerContext.newPage();
    await signInAsPerson(managerPage, {
      baseUrl: runtime.baseUrl,
      email: person('campaign-manager').email,
      password: person('campaign-manager').password,
      hash: '#/api-keys',
    });
    await managerPage.getByRole('heading', { name: 'Not available' }).waitFor();
    await expect(managerPage.getByRole('link', { name: 'API keys' }).count()).resolves.toBe(0);
    await managerContext.close();
  });
});
