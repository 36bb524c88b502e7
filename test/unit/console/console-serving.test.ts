/** The console function: its page (CSP, where the API is), its files (built ones, the reason table), nothing else. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { consoleAssets } from '../../../functions/console/console-assets';
import { apiBaseOf, consoleContentSecurityPolicy, consolePageHtml } from '../../../shared/console/console-page';
import { reasonTable } from '../../../shared/sending/failure-reasons';
import { esbuildArguments } from '../../../runtime-contract/browser-assets';
import { functions } from '../../../runtime-contract/resource-definitions';
import { bundlingOf } from '../../../lib/constructs/service-function';

describe('the console page', () => {
  it('loads only its own files, no inline script or style, and names the API of its own REST API', () => {
    const html = consolePageHtml('/prod/api/v2/console/');
    expect(html).toContain('<script src="/prod/api/v2/console/assets/console.js"></script>');
    expect(html).toContain('<link rel="stylesheet" href="/prod/api/v2/console/assets/console.css">');
    expect(html).toContain('<meta name="console-api-base" content="/prod/api/v2/broadcast/public">');
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/);
    expect(apiBaseOf('/prod/api/v2/console')).toBe('/prod/api/v2/broadcast/public');
    expect(apiBaseOf('/base/console/')).toBe('/base/broadcast/public');
    expect(consolePageHtml('/x"><script>/console')).not.toContain('"><script>');
  });

  it('has a policy without unsafe-inline, eval or foreign origins', () => {
    expect(consoleContentSecurityPolicy).toContain("default-src 'none'");
    expect(consoleContentSecurityPolicy).toContain("script-src 'self'");
    expect(consoleContentSecurityPolicy).toContain("connect-src 'self'");
    expect(consoleContentSecurityPolicy).not.toMatch(/unsafe|https?:|\*/);
  });
});

describe('the console files', () => {
  it('serves the built files and the reason table generated from the one table, and no other name', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'console-assets-'));
    writeFileSync(join(directory, 'console.js'), 'built();');
    const assets = consoleAssets(directory);
    await expect(assets.read('console.js')).resolves.toEqual({ text: 'built();', contentType: 'application/javascript; charset=utf-8' });
    const table = await assets.read('failure-codes.json');
    expect(JSON.parse(table!.text)).toEqual(reasonTable());
    await expect(assets.read('console.css')).resolves.toBeUndefined();
    await expect(assets.read('../console.js')).resolves.toBeUndefined();
    await expect(assets.read('package.json')).resolves.toBeUndefined();
  });

  it('are built by the CDK hook with the same esbuild options as locally, next to the console bundle', () => {
    const built = functions.console.browserAssets!;
    const commands = bundlingOf('console').commandHooks!.afterBundling('/in', '/out');
    expect(commands).toHaveLength(built.bundles.length);
    for (const [index, { entry, file }] of built.bundles.entries()) {
      const expected = esbuildArguments(join(process.cwd(), entry), `/out/${built.directory}/${file}`);
      for (const part of expected) expect(commands[index]).toContain(`"${part}"`);
      expect(commands[index]).toMatch(/node_modules\/\.bin\/esbuild"/);
    }
  });
});
