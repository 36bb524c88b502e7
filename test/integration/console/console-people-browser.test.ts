/**
 * People in the console, in headless Chromium (docs/CONSOLE.md "Signing in as a person", "Roles",
 * "People", "Audit log"): a person signs in through the identity provider's own page (code flow
 * with PKCE, the provider's sign-in page: oidc-test-provider.ts), a viewer sees campaigns without
 * a control, an admin invites, changes a role and removes a person and reads each action in the
 * audit log; a reload signs in again in one redirect, sign-out ends the provider's session, idle
 * signs out. No token in any URL, storage or log line, no CSP violation, no sideways scroll at
 * 390 px. The page, its files and sign-in.json are the local runtime's; `/me`, `/people`,
 * `/audit-log` and `/campaigns` answers come from stubs shaped as the contract says
 * (console-people-stub.ts, console-campaign-stub.ts) until those routes are merged.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { consoleAddress, signInAsPerson } from '../../support/console-sign-in';
import { SENDING_ID, stubCampaignRoutes } from './console-campaign-stub';
import { browserPath, captureLogs, outputDirectory } from './console-kit';
import { stubPeopleRoutes, type PeopleStub } from './console-people-stub';
import { startOidcTestProvider, type OidcTestProvider } from './oidc-test-provider';

jest.setTimeout(120_000);

if (!browserPath) process.stdout.write('SKIPPED console-people-browser: no Chromium found (/usr/bin/chromium or CHROMIUM_PATH).\n');

const PEOPLE = [
  { email: 'admin@demo.test', password: 'admin-Pass-1', role: 'admin' as const },
  { email: 'manager@demo.test', password: 'manager-Pass-1', role: 'campaign-manager' as const },
  { email: 'viewer@demo.test', password: 'viewer-Pass-1', role: 'viewer' as const },
];
const account = (role: string) => PEOPLE.find((person) => person.role === role)!;
const CAMPAIGN_CONTROLS = ['Pause campaign', 'Resume campaign', 'Cancel campaign', 'Follow up to failed…', 'Follow up to unread…'];

interface Watched {
  page: Page;
  context: BrowserContext;
  stub: PeopleStub;
  urls: string[];
  messages: string[];
}

(browserPath ? describe : describe.skip)('people in the console (headless Chromium)', () => {
  let runtime: TestRuntime;
  let provider: OidcTestProvider;
  let browser: Browser;
  let logs: ReturnType<typeof captureLogs>;
  const watched: Watched[] = [];

  beforeAll(async () => {
    logs = captureLogs();
    provider = await startOidcTestProvider(PEOPLE, () => runtime.baseUrl);
    runtime = await startTestRuntime({ environment: { PEOPLE_OIDC_ISSUERS: JSON.stringify([{ issuer: provider.issuer, audience: provider.clientId }]), CONSOLE_IDLE_MINUTES: '5' } });
    browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
    mkdirSync(outputDirectory, { recursive: true });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
    await provider?.close();
    logs?.stop();
  });

  /** A page whose every request and navigation URL, console line and CSP violation is recorded. */
  async function watchedPage(viewport = { width: 1280, height: 900 }): Promise<Watched> {
    const context = await browser.newContext({ viewport });
    await context.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI}`));
    });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const urls: string[] = [];
    const messages: string[] = [];
    page.on('request', (request) => urls.push(request.url()));
    page.on('framenavigated', (frame) => urls.push(frame.url()));
    page.on('console', (message) => messages.push(message.text()));
    page.on('pageerror', (error) => messages.push(String(error)));
    await stubCampaignRoutes(page);
    const stub = await stubPeopleRoutes(page, PEOPLE);
    const entry = { page, context, stub, urls, messages };
    watched.push(entry);
    return entry;
  }

  const shownControls = async (page: Page) => {
    const shown: string[] = [];
    for (const name of CAMPAIGN_CONTROLS) if (await page.getByRole('button', { name }).isVisible()) shown.push(name);
    return shown;
  };

  it('serves the sign-in settings and lets the page call the provider, nothing else', async () => {
    const settings = await runtime.call('GET', '/console/assets/sign-in.json');
    expect(settings.body).toEqual({ issuer: provider.issuer, clientId: 'console', idleMinutes: 5 });
    const pageAnswer = await fetch(consoleAddress(runtime.baseUrl));
    expect(pageAnswer.headers.get('content-security-policy')).toContain(`connect-src 'self' ${provider.issuer};`);
  });

  it('a viewer signs in at the provider’s page and sees campaigns but no launch, pause, cancel or follow-up control, and no admin screen', async () => {
    const { page } = await watchedPage();
    await signInAsPerson(page, { baseUrl: runtime.baseUrl, email: account('viewer').email, password: account('viewer').password, hash: '#/campaigns' });
    await expect(page.locator('.signed-in .who').innerText()).resolves.toBe('viewer@demo.test (Viewer)');
    expect(page.url()).toBe(consoleAddress(runtime.baseUrl, '#/campaigns'));
    await page.getByRole('link', { name: 'Spring VIP' }).click();
    await page.getByRole('heading', { name: 'Spring VIP' }).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).waitFor();
    await expect(shownControls(page)).resolves.toEqual([]);
    await expect(page.getByRole('button', { name: /launch/i }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'People' }).count()).resolves.toBe(0);
    await page.screenshot({ path: join(outputDirectory, 'console-viewer-campaign.png'), fullPage: true });
    await page.goto(consoleAddress(runtime.baseUrl, '#/people'));
    // A reload forgets the token; the provider's session signs the viewer in again in one redirect.
    await page.getByRole('heading', { name: 'Not available' }).waitFor();
    await page.close();
  });

  it('a campaign manager sees the controls the state allows (the same page: the viewer’s page hid them by role)', async () => {
    const { page } = await watchedPage();
    await signInAsPerson(page, { baseUrl: runtime.baseUrl, email: account('campaign-manager').email, password: account('campaign-manager').password, hash: `#/campaigns/${SENDING_ID}` });
    await page.getByRole('button', { name: 'Pause campaign' }).waitFor();
    await expect(shownControls(page)).resolves.toEqual(['Pause campaign', 'Cancel campaign', 'Follow up to failed…', 'Follow up to unread…']);
    await page.close();
  });

  it('an admin invites a person, changes their role, removes them, and reads each action with the person in the audit log', async () => {
    const { page, stub } = await watchedPage();
    await signInAsPerson(page, { baseUrl: runtime.baseUrl, email: account('admin').email, password: account('admin').password });
    await page.getByRole('link', { name: 'People' }).click();
    const table = page.getByRole('table', { name: 'People of the organization' });
    await table.waitFor();
    await expect(table.locator('tbody tr').count()).resolves.toBe(3);

    await page.getByLabel('Email address').fill('new.person@demo.test');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect(page.locator('.invitation').innerText()).resolves.toMatch(/Invited new\.person@demo\.test as Viewer/);
    await expect(page.locator('.temporary-password').innerText()).resolves.toBe('Tmp-7c1f-Pass!');
    await table.getByRole('row', { name: /new\.person@demo\.test/ }).waitFor();
    await page.screenshot({ path: join(outputDirectory, 'console-people.png'), fullPage: true });

    await page.getByLabel('Role of new.person@demo.test', { exact: true }).selectOption('campaign-manager');
    await page.getByRole('button', { name: 'Change role of new.person@demo.test' }).click();
    await page.getByText('new.person@demo.test is now Campaign manager.').waitFor();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove new.person@demo.test' }).click();
    await page.getByText('new.person@demo.test was removed.').waitFor();
    await expect(table.locator('tbody tr').count()).resolves.toBe(3);

    // A refusal shows the API's message: the last admin cannot step down.
    await page.getByLabel('Role of admin@demo.test', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Change role of admin@demo.test' }).click();
    await page.getByText('An organization keeps at least one admin (HTTP 409, LAST_ADMIN)').waitFor();

    await page.getByRole('link', { name: 'Audit log' }).click();
    const log = page.getByRole('table', { name: /^Audit log, newest first/ });
    await log.waitFor();
    const rows = await log.locator('tbody tr').allInnerTexts();
    expect(rows).toEqual([
      expect.stringMatching(/admin@demo\.test \(admin\)\s+setPersonRole\s+personId psn_\w+\s+refused \(409 LAST_ADMIN\)\s+127\.0\.0\.1/),
      expect.stringMatching(/admin@demo\.test \(admin\)\s+removePerson\s+personId psn_\w+\s+succeeded \(200\)/),
      expect.stringMatching(/admin@demo\.test \(admin\)\s+setPersonRole\s+personId psn_\w+\s+succeeded \(200\)/),
      expect.stringMatching(/admin@demo\.test \(admin\)\s+invitePerson\s+personId psn_\w+\s+succeeded \(201\)/),
    ]);
    await page.screenshot({ path: join(outputDirectory, 'console-audit-log.png'), fullPage: true });
    await page.getByLabel('Action').fill('removePerson');
    await page.getByRole('button', { name: 'Filter' }).click();
    await expect(log.locator('tbody tr').allInnerTexts()).resolves.toEqual([expect.stringMatching(/removePerson/)]);
    expect(stub.audit).toHaveLength(4);
    // Every call carried the person's token, never a key.
    expect(stub.authorizations.every((header) => header.startsWith('Bearer '))).toBe(true);
    await page.close();
  });

  it('a reload signs in again in one redirect; sign-out ends the provider’s session; idle signs out', async () => {
    const { page } = await watchedPage();
    await page.clock.install();
    await signInAsPerson(page, { baseUrl: runtime.baseUrl, email: account('campaign-manager').email, password: account('campaign-manager').password });
    const interactionsBefore = provider.requests.filter((line) => line.includes('/interaction/')).length;
    await page.reload();
    await page.locator('.signed-in .who').waitFor();
    expect(provider.requests.filter((line) => line.includes('/interaction/')).length).toBe(interactionsBefore);
    const storage = (await page.evaluate('({ local: localStorage.length, session: JSON.stringify({ ...sessionStorage }) })')) as { local: number; session: string };
    expect(storage).toEqual({ local: 0, session: JSON.stringify({ 'campaign-console.way': 'person' }) });

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Use an API key' }).waitFor();
    expect(provider.requests.at(-1)).toBe(`GET /session/end?client_id=console&post_logout_redirect_uri=${encodeURIComponent(consoleAddress(runtime.baseUrl))}&state=signed-out`);
    await page.getByText('Signed out.').waitFor();
    expect(page.url()).toBe(consoleAddress(runtime.baseUrl));
    await expect(page.evaluate('sessionStorage.length')).resolves.toBe(0);
    // The provider's session ended: signing in asks for the password again.
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Password', { exact: true }).waitFor();

    await page.getByLabel('Email', { exact: true }).fill(account('campaign-manager').email);
    await page.getByLabel('Password', { exact: true }).fill(account('campaign-manager').password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('.signed-in .who').waitFor();
    await page.clock.runFor('05:01');
    await page.getByText('Signed out after 5 minutes without use.').waitFor();
    await page.close();
  });

  it('reads well on a 390 px phone: sign-in, people and audit log without sideways scrolling', async () => {
    const { page } = await watchedPage({ width: 390, height: 844 });
    await page.goto(consoleAddress(runtime.baseUrl));
    await page.getByRole('button', { name: 'Use an API key' }).waitFor();
    await page.screenshot({ path: join(outputDirectory, 'console-sign-in-phone.png'), fullPage: true });
    await expect(page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).resolves.toBeLessThanOrEqual(0);
    await signInAsPerson(page, { baseUrl: runtime.baseUrl, email: account('admin').email, password: account('admin').password, hash: '#/people' });
    await page.getByRole('table', { name: 'People of the organization' }).waitFor();
    await expect(page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).resolves.toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(outputDirectory, 'console-people-phone.png'), fullPage: true });
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('form', { name: 'Filter the audit log' }).waitFor();
    await expect(page.evaluate('document.documentElement.scrollWidth - window.innerWidth')).resolves.toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(outputDirectory, 'console-audit-log-phone.png'), fullPage: true });
    await page.close();
  });

  it('never put a token in a URL, local storage or a log line, and met no CSP violation', () => {
    expect(provider.issuedTokens.length).toBeGreaterThanOrEqual(6);
    const urls = [...watched.flatMap((entry) => entry.urls), ...provider.requests];
    const messages = watched.flatMap((entry) => entry.messages);
    for (const token of provider.issuedTokens) {
      const signature = token.split('.')[2]!;
      expect(urls.filter((url) => url.includes(signature))).toEqual([]);
      expect(messages.filter((line) => line.includes(signature))).toEqual([]);
      expect(logs.lines.filter((line) => line.includes(signature))).toEqual([]);
    }
    expect(urls.filter((url) => /id_token|access_token/.test(url))).toEqual([]);
    expect(messages.filter((line) => /Content Security Policy|CSP violation/i.test(line))).toEqual([]);
  });
});
