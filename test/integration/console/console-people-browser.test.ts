/**
 * People in the console, in headless Chromium, on the whole local runtime (docs/CONSOLE.md "Signing
 * in as a person", "Roles", "People", "Audit log"): each demo person signs in through the local
 * identity provider's own page (code flow with PKCE), a viewer sees campaigns without a control and
 * the API refuses the viewer's token on launch, an admin invites, changes a role and removes a
 * person over the real routes and reads each action in the real audit log; a reload signs in again
 * in one redirect, sign-out ends the provider's session, idle signs out. No token in any URL,
 * storage or log line, no CSP violation, no sideways scroll at 390 px. Only the `/campaigns` answers
 * come from the recorded stub (console-campaign-stub.ts), as in the campaigns suite.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { consoleAddress, signInAsPerson } from '../../support/console-sign-in';
import { BASE } from '../broadcast/broadcast-test-kit';
import { SENDING_ID, stubCampaignRoutes } from './console-campaign-stub';
import { browserPath, captureLogs, outputDirectory } from './console-kit';

jest.setTimeout(120_000);

if (!browserPath) process.stdout.write('SKIPPED console-people-browser: no Chromium found (/usr/bin/chromium or CHROMIUM_PATH).\n');

const CAMPAIGN_CONTROLS = [
  'Pause campaign',
  'Resume campaign',
  'Cancel campaign',
  'Follow up to failed…',
  'Follow up to unread…',
  'Follow up by reply or click…',
];
const IDLE_MINUTES = 5;

interface Watched {
  page: Page;
  urls: string[];
  messages: string[];
  /** The `authorization` headers the page sent (the person's tokens, to look for elsewhere). */
  bearers: Set<string>;
}

(browserPath ? describe : describe.skip)('people in the console (headless Chromium, local identity provider)', () => {
  let runtime: TestRuntime;
  let browser: Browser;
  let logs: ReturnType<typeof captureLogs>;
  const watched: Watched[] = [];
  const person = (role: string) => runtime.demo.people.find((candidate) => candidate.role === role)!;
  const signIn = (page: Page, role: string, hash?: string) =>
    signInAsPerson(page, { baseUrl: runtime.baseUrl, email: person(role).email, password: person(role).password, hash });

  beforeAll(async () => {
    logs = captureLogs();
    runtime = await startTestRuntime({ environment: { CONSOLE_IDLE_MINUTES: String(IDLE_MINUTES) } });
    browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
    mkdirSync(outputDirectory, { recursive: true });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
    logs?.stop();
  });

  /** A page whose every request and navigation URL, console line, CSP violation and bearer token is recorded. */
  async function watchedPage(viewport = { width: 1280, height: 900 }): Promise<Watched> {
    const context = await browser.newContext({ viewport });
    await context.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (event) => console.error('CSP violation: ' + event.violatedDirective + ' ' + event.blockedURI));",
    });
    const page = await context.newPage();
    page.setDefaultTimeout(60_000);
    const entry: Watched = { page, urls: [], messages: [], bearers: new Set() };
    page.on('request', (request) => {
      entry.urls.push(request.url());
      const authorization = request.headers().authorization;
      if (authorization) entry.bearers.add(authorization.replace(/^Bearer /, ''));
    });
    page.on('framenavigated', (frame) => entry.urls.push(frame.url()));
    page.on('console', (message) => entry.messages.push(message.text()));
    page.on('pageerror', (error) => entry.messages.push(String(error)));
    await stubCampaignRoutes(page);
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
    expect(settings.body).toEqual({ issuer: runtime.demo.identity.issuer, clientId: runtime.demo.identity.clientId, idleMinutes: IDLE_MINUTES });
    const pageAnswer = await fetch(consoleAddress(runtime.baseUrl));
    expect(pageAnswer.headers.get('content-security-policy')).toContain(`connect-src 'self' ${new URL(runtime.demo.identity.issuer).origin};`);
  });

  it('a viewer signs in at the provider’s page, sees campaigns but no launch, pause, cancel or follow-up, no admin screen; the API refuses their launch', async () => {
    const { page, bearers } = await watchedPage();
    await signIn(page, 'viewer', '#/campaigns');
    await expect(page.locator('.signed-in .who').innerText()).resolves.toBe(`${person('viewer').email} (Viewer)`);
    expect(page.url()).toBe(consoleAddress(runtime.baseUrl, '#/campaigns'));
    await page.getByRole('link', { name: 'Spring VIP' }).click();
    await page.getByRole('heading', { name: 'Spring VIP' }).waitFor();
    await page.getByRole('button', { name: 'Refresh' }).waitFor();
    await expect(shownControls(page)).resolves.toEqual([]);
    await expect(page.getByRole('button', { name: /launch/i }).count()).resolves.toBe(0);
    await expect(page.getByRole('link', { name: 'People' }).count()).resolves.toBe(0);
    await page.screenshot({ path: join(outputDirectory, 'console-viewer-campaign.png'), fullPage: true });
    await page.evaluate("window.location.hash = '#/people'");
    await page.getByRole('heading', { name: 'Not available' }).waitFor();

    // The API decides: the viewer's own token is refused on launch (and on the people list).
    const [token] = [...bearers];
    const launch = await runtime.call('POST', `${BASE}/campaigns/${SENDING_ID}/launch`, { headers: { authorization: `Bearer ${token}` } });
    expect([launch.status, launch.body.data?.error?.code]).toEqual([403, 'ROLE_NOT_ALLOWED']);
    await page.close();
  });

  it('a campaign manager sees the controls the state allows (the viewer’s were hidden by role)', async () => {
    const { page } = await watchedPage();
    await signIn(page, 'campaign-manager', `#/campaigns/${SENDING_ID}`);
    await page.getByRole('button', { name: 'Pause campaign' }).waitFor();
    await expect(shownControls(page)).resolves.toEqual([
      'Pause campaign',
      'Cancel campaign',
      'Follow up to failed…',
      'Follow up to unread…',
      'Follow up by reply or click…',
    ]);
    await page.close();
  });

  it('an admin invites a person (who signs in with the temporary password), changes their role, removes them (signed out by their next request’s 401), and reads each action with the person in the audit log', async () => {
    const { page } = await watchedPage();
    const admin = person('admin');
    await signIn(page, 'admin');
    await page.getByRole('link', { name: 'People' }).click();
    const table = page.getByRole('table', { name: 'People of the organization' });
    await table.getByRole('row', { name: new RegExp(person('viewer').email) }).waitFor();
    const before = await table.locator('tbody tr').count();

    await page.getByLabel('Email address').fill('new.person@demo.example');
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Invite' }).click();
    await expect(page.locator('.invitation').innerText()).resolves.toMatch(/Invited new\.person@demo\.example as Viewer/);
    const temporaryPassword = await page.locator('.temporary-password').innerText();
    expect(temporaryPassword).toMatch(/\S{8,}/);
    await table.getByRole('row', { name: /new\.person@demo\.example/ }).waitFor();
    await page.screenshot({ path: join(outputDirectory, 'console-people.png'), fullPage: true });

    // The new person signs in with the temporary password, in their own browser.
    const newcomer = (await watchedPage()).page;
    await signInAsPerson(newcomer, { baseUrl: runtime.baseUrl, email: 'new.person@demo.example', password: temporaryPassword });
    await expect(newcomer.locator('.signed-in .who').innerText()).resolves.toBe('new.person@demo.example (Viewer)');

    await page.getByLabel('Role of new.person@demo.example', { exact: true }).selectOption('campaign-manager');
    await page.getByRole('button', { name: 'Change role of new.person@demo.example' }).click();
    await page.getByText('new.person@demo.example is now Campaign manager.').waitFor();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Remove new.person@demo.example' }).click();
    await page.getByText('new.person@demo.example was removed.').waitFor();
    await table.getByRole('row', { name: /new\.person@demo\.example/ }).waitFor({ state: 'detached' });
    await expect(table.locator('tbody tr').count()).resolves.toBe(before);
    // Removed: the person's next request answers 401 and the console signs them out.
    await newcomer.evaluate("window.location.hash = '#/audit-log'");
    await newcomer.evaluate("window.location.hash = '#/'");
    await newcomer.getByText('Your sign-in has ended. Sign in again.').waitFor();
    await newcomer.close();

    // A refusal shows the API's message: inviting a member again.
    await page.getByLabel('Email address').fill(person('viewer').email);
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText(/HTTP 409, PERSON_EXISTS\)/).waitFor();

    await page.getByRole('link', { name: 'Audit log' }).click();
    const log = page.getByRole('table', { name: /^Audit log, newest first/ });
    await log.waitFor();
    const by = `${admin.email} \\(admin\\)`;
    await expect(log.locator('tbody tr').allInnerTexts()).resolves.toEqual(
      expect.arrayContaining([
        expect.stringMatching(new RegExp(`${by}\\s+invitePerson\\s+\\S+\\s+refused \\(409 PERSON_EXISTS\\)`)),
        expect.stringMatching(new RegExp(`${by}\\s+removePerson\\s+personId psn_\\w+\\s+succeeded \\(200\\)`)),
        expect.stringMatching(new RegExp(`${by}\\s+setPersonRole\\s+personId psn_\\w+\\s+succeeded \\(200\\)`)),
        expect.stringMatching(new RegExp(`${by}\\s+invitePerson\\s+\\S+\\s+succeeded \\(201\\)`)),
      ]),
    );
    await page.screenshot({ path: join(outputDirectory, 'console-audit-log.png'), fullPage: true });
    await page.getByLabel('Person').selectOption({ label: admin.email });
    await page.getByLabel('Action').fill('removePerson');
    await page.getByRole('button', { name: 'Filter' }).click();
    await log
      .getByRole('row', { name: /invitePerson/ })
      .first()
      .waitFor({ state: 'detached' });
    await expect(log.locator('tbody tr').allInnerTexts()).resolves.toEqual([expect.stringMatching(new RegExp(`${by}\\s+removePerson`))]);
    await page.close();
  });

  it('a reload signs in again in one redirect; sign-out ends the provider’s session; idle signs out', async () => {
    const { page, urls } = await watchedPage();
    await page.clock.install();
    await signIn(page, 'campaign-manager');
    const asked = urls.length;
    await page.reload();
    await page.locator('.signed-in .who').waitFor();
    expect(urls.slice(asked).filter((url) => url.includes('/interaction/'))).toEqual([]);
    const storage = (await page.evaluate('({ local: localStorage.length, session: JSON.stringify({ ...sessionStorage }) })')) as {
      local: number;
      session: string;
    };
    expect(storage).toEqual({ local: 0, session: JSON.stringify({ 'campaign-console.way': 'person' }) });

    await page.getByRole('button', { name: 'Sign out' }).click();
    // No ID token in the end-session URL: the console names itself (client_id, a registered return address) and is not asked again.
    await page.getByText('Signed out.').waitFor();
    expect(page.url()).toBe(consoleAddress(runtime.baseUrl));
    expect(urls.filter((url) => url.includes('/session/end')).every((url) => new URL(url).searchParams.get('id_token_hint') === null)).toBe(true);
    await expect(page.evaluate('sessionStorage.length')).resolves.toBe(0);
    // The provider's session ended: signing in asks for the password again.
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByLabel('Password', { exact: true }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill(person('campaign-manager').email);
    await page.getByLabel('Password', { exact: true }).fill(person('campaign-manager').password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.locator('.signed-in .who').waitFor();

    await page.clock.runFor(`${String(IDLE_MINUTES).padStart(2, '0')}:01`);
    await page.getByText(`Signed out after ${IDLE_MINUTES} minutes without use.`).waitFor();
    await page.close();
  });

  it('reads well on a 390 px phone: sign-in, people and audit log without sideways scrolling', async () => {
    const { page } = await watchedPage({ width: 390, height: 844 });
    const overflow = () => page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
    await page.goto(consoleAddress(runtime.baseUrl));
    await page.getByRole('button', { name: 'Use an API key' }).waitFor();
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(outputDirectory, 'console-sign-in-phone.png'), fullPage: true });
    await signIn(page, 'admin', '#/people');
    await page.getByRole('table', { name: 'People of the organization' }).waitFor();
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(outputDirectory, 'console-people-phone.png'), fullPage: true });
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByRole('table', { name: /^Audit log, newest first/ }).waitFor();
    await expect(overflow()).resolves.toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(outputDirectory, 'console-audit-log-phone.png'), fullPage: true });
    await page.close();
  });

  it('never put a token in a URL, local storage or a log line, and met no CSP violation', () => {
    const tokens = new Set(watched.flatMap((entry) => [...entry.bearers]));
    expect(tokens.size).toBeGreaterThanOrEqual(5);
    const urls = watched.flatMap((entry) => entry.urls);
    const messages = watched.flatMap((entry) => entry.messages);
    for (const token of tokens) {
      const signature = token.split('.')[2]!;
      expect(signature.length).toBeGreaterThan(20);
      expect(urls.filter((url) => url.includes(signature))).toEqual([]);
      expect(messages.filter((line) => line.includes(signature))).toEqual([]);
      expect(logs.lines.filter((line) => line.includes(signature))).toEqual([]);
    }
    expect(urls.filter((url) => /id_token|access_token/.test(url))).toEqual([]);
    expect(messages.filter((line) => /Content Security Policy|CSP violation/i.test(line))).toEqual([]);
  });
});
