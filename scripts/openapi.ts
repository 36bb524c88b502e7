/**
 * `npm run openapi [-- --out <file>]`: writes the generated OpenAPI 3.1 document (shared/openapi/)
 * to a file, or prints it. The typed client is generated from this output.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { buildOpenApiDocument } from '../shared/openapi/openapi-document';

export function runOpenApiCommand(argv: readonly string[]): string | undefined {
  const outIndex = argv.indexOf('--out');
  const out = outIndex === -1 ? undefined : argv[outIndex + 1];
  if (outIndex !== -1 && !out) throw new Error('--out needs a file name');
  const text = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
  if (!out) {
    process.stdout.write(text);
    return undefined;
  }
  const file = resolve(out);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
  return file;
}

if (require.main === module) {
  try {
    const file = runOpenApiCommand(process.argv.slice(2));
    if (file) process.stderr.write(`OpenAPI document written to ${file}\n`);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
