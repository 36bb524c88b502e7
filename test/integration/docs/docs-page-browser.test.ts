/**
 * The rendered reference in a real browser (Debian's `chromium`, driven by playwright-core): every
 * operation of the document is listed on the page, and a screenshot is saved to
 * test-output/docs-page.png. Skipped, with a printed reason, only when no browser is installed
 * (`.ci/run` installs it; locally `apt-get install chromium` or set CHROMIUM_PATH).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import type { OpenApiDocument } from '../../../shared/openapi/openapi-document';

const browserPath = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find((path): path is string => !!path && existsSync(path));
const outputDirectory = join(__dirname, '..', '..', '..', 'test-output');

if (!browserPath) {
  process.stdout.write('SKIPPED docs-page-browser: no Chromium found (/usr/bin/chromium or CHROMIUM_PATH); install it with `apt-get install chromium`.\n');
}

(browserPath ? describe : describe.skip)('the docs page in headless Chromium', () => {
  let runtime: TestRuntime;
  let browser: Browser;
  beforeAll(async () => {
    runtime = await startTestRuntime();
    browser = await chromium.launch({ executablePath: browserPath, args: ['--no-sandbox'] });
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await runtime?.close();
  });

  it('lists every operation of the document, offline, and saves a screenshot', async () => {
    const document = (await runtime.call('GET', '/docs/openapi.json')).body as OpenApiDocument;
    const expected = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));

    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const foreign: string[] = [];
    // Offline: any request leaving the local runtime is refused (and recorded).
    await page.route('**/*', (route) => {
      if (route.request().url().startsWith(runtime.baseUrl)) return route.continue();
      foreign.push(route.request().url());
      return route.abort();
    });
    await page.goto(`${runtime.baseUrl}/docs`);
    await page.waitForSelector('.opblock', { timeout: 60_000 });
    const listed = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => {
        const method = block.querySelector('.opblock-summary-method')?.textContent?.trim() ?? '';
        const path = block.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? '';
        return `${method.toUpperCase()} ${path}`;
      }),
    );
    expect(new Set(listed)).toEqual(new Set(expected));
    expect(listed).toHaveLength(expected.length);
    expect(foreign).toEqual([]);

    mkdirSync(outputDirectory, { recursive: true });
    await page.screenshot({ path: join(outputDirectory, 'docs-page.png'), fullPage: false });
    expect(existsSync(join(outputDirectory, 'docs-page.png'))).toBe(true);
  }, 120_000);
});
