/**
 * package.json `allowScripts` denies the install scripts of esbuild, classic-level and @scarf/scarf
 * (README "Install scripts"): what each would have done is not needed, proven here on the install
 * as `npm ci` leaves it (no script run).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { transformSync } from 'esbuild';

const packageJson = JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { allowScripts?: Record<string, boolean> };

it('declares every dependency install script as denied', () => {
  expect(packageJson.allowScripts).toEqual({ esbuild: false, 'classic-level': false, '@scarf/scarf': false });
});

it('esbuild works from its platform package without its postinstall', () => {
  expect(transformSync('const n: number = 1', { loader: 'ts' }).code).toBe('const n = 1;\n');
});

it("classic-level (dynalite's on-disk store) loads its prebuilt binary without node-gyp", async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- what is tested is a CommonJS require of the prebuilt binary
  const { ClassicLevel } = require('classic-level') as typeof import('classic-level');
  const directory = mkdtempSync(join(tmpdir(), 'classic-level-'));
  const db = new ClassicLevel<string, string>(directory);
  try {
    await db.put('key', 'value');
    expect(await db.get('key')).toBe('value');
  } finally {
    await db.close();
    rmSync(directory, { recursive: true, force: true });
  }
});
