/**
 * The committed client types are what `npm run client:generate` makes of the current document.
 * The generator runs as its own process (as the npm script does): openapi-typescript's
 * dependencies are ES modules, which jest's CommonJS runtime cannot load.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { originOf } from '../../../../client/broadcast-client';

jest.setTimeout(60_000);

const root = join(__dirname, '../../../..');
const clientTypesPath = join(root, 'client', 'api-types.ts');

describe('client/api-types.ts', () => {
  it('equals a fresh generation from the OpenAPI document (run `npm run client:generate` after changing the API)', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'client-types-')), 'api-types.ts');
    execFileSync(join(root, 'node_modules', '.bin', 'tsx'), ['scripts/generate-client-types.ts', '--out', out], { cwd: root, stdio: 'pipe' });
    const generated = readFileSync(out, 'utf8');
    // One assertion on the whole text; on failure the first differing line is the useful part.
    const committed = readFileSync(clientTypesPath, 'utf8');
    if (generated !== committed) {
      const generatedLines = generated.split('\n');
      const committedLines = committed.split('\n');
      const line = generatedLines.findIndex((text, index) => text !== committedLines[index]);
      expect({ line: line + 1, committed: committedLines[line], generated: generatedLines[line] }).toEqual({
        line: line + 1,
        committed: generatedLines[line],
        generated: generatedLines[line],
      });
    }
    expect(generated).toBe(committed);
  });

  it('carries the operations the CLI calls, under the paths the client uses', async () => {
    const committed = readFileSync(clientTypesPath, 'utf8');
    for (const path of ['templates', 'send-template-broadcast', 'status/{jobId}', 'broadcasts/{jobId}/recipients']) {
      expect(committed).toContain(`"/prod/api/v2/broadcast/public/${path}": {`);
    }
  });
});

describe('originOf', () => {
  it('takes the broadcast API URL (stack output) or the origin serving it', () => {
    expect(originOf('https://abc.execute-api.eu-west-1.amazonaws.com/prod/api/v2/')).toBe('https://abc.execute-api.eu-west-1.amazonaws.com');
    expect(originOf('http://127.0.0.1:3000')).toBe('http://127.0.0.1:3000');
  });
});
