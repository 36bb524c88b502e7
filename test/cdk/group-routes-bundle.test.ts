/**
 * A route group's bundle serves the routes written in at synth (lib/constructs/group-routes-define.ts,
 * shared/http/group-routes.ts) and does not carry the route manifest; the rows are the manifest's.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { groupRoutesDefine } from '../../lib/constructs/group-routes-define';
import { bundleAsDeployed } from './support/bundle-as-deployed';
import { entryOf, type FunctionName } from '../../runtime-contract/resource-definitions';
import { serviceRoutes, type EndpointGroup } from '../../runtime-contract/route-manifest';
import { servedRoutesOfGroup } from '../../runtime-contract/served-routes';

const groups = [...new Set(serviceRoutes.map((route) => route.group))].filter((group) => group !== 'upstream-wrapper') as Array<EndpointGroup & FunctionName>;

/** `entry` bundled as the CDK app bundles `name`: the inputs with bytes in the output (into `directory` when given). */
async function bundle(name: FunctionName, entry: { file: string } | { contents: string }, directory?: string): Promise<string[]> {
  const metafile = await bundleAsDeployed(name, entry, directory ? path.join(directory, 'index.mjs') : undefined);
  return Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs).flatMap(([input, { bytesInOutput }]) => (bytesInOutput > 0 ? [input] : [])),
  );
}

describe("route groups' bundles", () => {
  it('every route group but the wrapper gets its rows written in; the wrapper and the queue workers do not', () => {
    expect(groups).toEqual(expect.arrayContaining(['v1-inbox', 'broadcast-send', 'click-redirect', 'health']));
    for (const group of groups) expect(JSON.parse(JSON.parse(groupRoutesDefine(group).__GROUP_ROUTES__!))).toEqual(servedRoutesOfGroup(group));
    for (const name of ['upstream-wrapper', 'chunk-worker', 'campaign-expander'] as const)
      expect(groupRoutesDefine(name)).toEqual({ __GROUP_ROUTES__: 'false' });
  });

  it("carry no route manifest (health reads it for its inventory, docs for the API reference; the wrapper's /upstream rows need it)", async () => {
    for (const group of groups.filter((name) => name !== 'health' && name !== 'docs')) {
      const inputs = await bundle(group, { file: entryOf(group) });
      expect({ group, manifest: inputs.filter((input) => input.endsWith('route-manifest.ts')) }).toEqual({ group, manifest: [] });
      expect(inputs).toContain('shared/http/group-routes.ts');
    }
  }, 180_000);

  it('a bundle reads back the rows the manifest gives its group, and refuses rows handed in', async () => {
    const directory = mkdtempSync(path.join(tmpdir(), 'group-routes-'));
    await bundle('v1-inbox', { contents: "export { groupRoutes } from './shared/http/group-routes';" }, directory);
    const script = [
      `const { groupRoutes } = await import(${JSON.stringify(pathToFileURL(path.join(directory, 'index.mjs')).href)});`,
      "console.log(JSON.stringify(groupRoutes('v1-inbox')));",
      "try { groupRoutes('v1-inbox', []); console.log('accepted'); } catch (error) { console.log(error.message); }",
    ].join('\n');
    const [rows, refusal] = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim().split('\n');
    expect(JSON.parse(rows!)).toEqual(servedRoutesOfGroup('v1-inbox'));
    expect(servedRoutesOfGroup('v1-inbox').map(({ resource }) => resource)).toContain('/contacts');
    expect(refusal).toBe('Group v1-inbox: a bundle serves the routes written in at synth, not given ones');
  }, 60_000);
});
