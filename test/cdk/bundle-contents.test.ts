/**
 * What a function's bundle leaves out (docs/PERFORMANCE.md §2): the broadcast-store adapters its
 * composition does not name (dynamodb-broadcast-stores.ts exports each on its own), and
 * libphonenumber-js where only a calling code is read (calling-code-data.ts), and its metadata's
 * formats where numbers are parsed (phone-metadata.ts), and every function's resource definition
 * (its required variables are written in at synth: lib/constructs/required-variables-define.ts).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { bundleAsDeployed } from './support/bundle-as-deployed';
import { entryOf, functions, variablesOf, type FunctionName } from '../../runtime-contract/resource-definitions';

/** The inputs with bytes in `name`'s bundle, as the CDK app bundles it. */
async function bundledInputs(name: FunctionName): Promise<string[]> {
  const metafile = await bundleAsDeployed(name, { file: entryOf(name) });
  return Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : [])),
  );
}

const adapter = (name: string) => `shared/adapters/dynamodb/dynamodb-${name}.ts`;

describe("functions' bundles", () => {
  it('carry the broadcast-store adapters their composition names and no other', async () => {
    const scheduler = await bundledInputs('broadcast-scheduler');
    expect(scheduler).toEqual(expect.arrayContaining([adapter('job-store'), adapter('job-control-store')]));
    expect(scheduler.filter((input) => input === adapter('recipient-ledger') || input === adapter('chunk-progress-store'))).toEqual([]);
    const wrapper = await bundledInputs('upstream-wrapper');
    expect(wrapper).toEqual(expect.arrayContaining([adapter('job-store'), adapter('recipient-ledger')]));
    expect(wrapper.filter((input) => input === adapter('job-control-store') || input === adapter('chunk-progress-store'))).toEqual([]);
  }, 120_000);

  it('leave libphonenumber-js out where only a calling code is read; the chunk worker still places numbers in zones with it', async () => {
    for (const name of ['broadcast-status', 'delivery-events', 'broadcast-audiences', 'campaign-expander'] as const) {
      const inputs = await bundledInputs(name);
      expect({ name, library: inputs.filter((input) => input.includes('node_modules/libphonenumber-js/')).length }).toEqual({ name, library: 0 });
      expect(inputs).toContain('shared/recipients/calling-code-data.ts');
    }
    const chunkWorker = await bundledInputs('chunk-worker');
    expect(chunkWorker.some((input) => input.includes('node_modules/libphonenumber-js/'))).toBe(true);
    // It parses with the package's metadata less the formats (phone-metadata.ts), not the package's own file.
    expect(chunkWorker).toContain('shared/recipients/phone-metadata.ts');
    expect(chunkWorker.filter((input) => input.includes('libphonenumber-js/metadata'))).toEqual([]);
  }, 180_000);

  it('carry their required variables, not the resource definitions, and refuse a cold start without them', async () => {
    for (const name of ['broadcast-status', 'chunk-worker', 'delivery-events'] as const) {
      const inputs = await bundledInputs(name);
      expect({ name, definitions: inputs.filter((input) => input.endsWith('resource-definitions.ts')) }).toEqual({ name, definitions: [] });
    }
    const directory = mkdtempSync(path.join(tmpdir(), 'required-variables-'));
    await bundleAsDeployed(
      'broadcast-status',
      { contents: "export { parseFunctionConfig } from './shared/config/app-config';" },
      path.join(directory, 'index.mjs'),
    );
    const script = [
      `const { parseFunctionConfig } = await import(${JSON.stringify(pathToFileURL(path.join(directory, 'index.mjs')).href)});`,
      "try { parseFunctionConfig('broadcast-status', {}); console.log('accepted'); } catch (error) { console.log(error.message); }",
    ].join('\n');
    const refusal = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
    const required = variablesOf(functions['broadcast-status']).required;
    expect(required.length).toBeGreaterThan(1);
    expect(refusal).toBe(`${required.join(', ')} are not configured (broadcast-status)`);
  }, 120_000);
});
