/**
 * The linter's promises are kept: typescript-eslint's type-aware rules are on for the Lambda code
 * (an unawaited promise in a handler ends with the invocation, its work lost) and the formatter's
 * settings are the house style. `npm test` runs the linter itself (scripts/run-tests.cjs); these
 * cases fail when a rule is switched off or a folder drops out of its reach.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { projectRoot } from './import-graph';

// The CLI, not the ESLint class: the config is an ES module, which jest's CommonJS runtime cannot import.
const eslintBin = join(projectRoot, 'node_modules/eslint/bin/eslint.js');
const configFor = (file: string) =>
  JSON.parse(execFileSync(process.execPath, [eslintBin, '--print-config', file], { cwd: projectRoot, encoding: 'utf8' })) as { rules: Record<string, unknown> };

const REQUIRED_ERRORS = [
  '@typescript-eslint/no-floating-promises',
  '@typescript-eslint/no-misused-promises',
  '@typescript-eslint/switch-exhaustiveness-check',
  '@typescript-eslint/await-thenable',
];

const severityOf = (entry: unknown): number | string | undefined => (Array.isArray(entry) ? entry[0] : entry) as number | string | undefined;
const isError = (entry: unknown) => severityOf(entry) === 2 || severityOf(entry) === 'error';

describe('the linter', () => {
  test.each(['functions/chunk-worker/chunk-worker.lambda.ts', 'console/ui/main.ts'])('holds the type-aware promise rules as errors for %s', (file) => {
    const { rules } = configFor(file);
    expect(REQUIRED_ERRORS.filter((rule) => !isError(rules[rule]))).toEqual([]);
    // The check sees a rule that is off.
    expect(isError(rules['@typescript-eslint/require-await'])).toBe(false);
  });
});

describe('the formatter', () => {
  test('keeps the house style: 2 spaces, single quotes, semicolons, trailing commas, 160 columns', () => {
    const biome = JSON.parse(readFileSync(join(projectRoot, 'biome.json'), 'utf8')) as {
      formatter: { indentStyle: string; indentWidth: number; lineWidth: number };
      javascript: { formatter: Record<string, string> };
    };
    expect(biome.formatter).toMatchObject({ indentStyle: 'space', indentWidth: 2, lineWidth: 160 });
    expect(biome.javascript.formatter).toMatchObject({ quoteStyle: 'single', semicolons: 'always', trailingCommas: 'all' });
  });

  test('runs in npm test beside the type check and the linter', () => {
    const runner = readFileSync(join(projectRoot, 'scripts/run-tests.cjs'), 'utf8');
    expect(runner).toMatch(/\['typecheck', 'lint', 'format:check'\]/);
  });
});
