import { spawnSync } from 'node:child_process';

/**
 * The independent check of the document: @seriousme/openapi-schema-validator (OpenAPI 3.1 schema).
 * It is ESM that locates its schemas through `import.meta.url`, which jest's CommonJS transform
 * cannot provide, so it runs in a child Node process reading the document on stdin.
 */
export function validateOpenApiDocument(document: unknown): { valid: boolean; version: string; errors: unknown } {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(text));
    process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? null }));
  `;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { input: JSON.stringify(document), encoding: 'utf8', cwd: process.cwd() });
  if (run.status !== 0) throw new Error(`openapi-schema-validator failed to run: ${run.stderr}`);
  return JSON.parse(run.stdout) as { valid: boolean; version: string; errors: unknown };
}
