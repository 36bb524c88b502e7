/** Bundles code as the CDK app bundles a function (lib/constructs/service-function.ts `bundlingOf`), for the CDK tests. */
import * as path from 'node:path';
import { tmpdir } from 'node:os';
import { build, type Metafile } from 'esbuild';
import { bundlingOf } from '../../../lib/constructs/service-function';
import type { FunctionName } from '../../../runtime-contract/resource-definitions';

const projectRoot = path.join(__dirname, '../../..');

/**
 * `entry` (a file of the project, or module text resolved from its root) bundled with `name`'s
 * options: its defines, its side packages left external, the createRequire banner. Written to
 * `outfile` when given; the metafile either way.
 *
 * @example
 * const { outputs } = await bundleAsDeployed('v1-inbox', { file: entryOf('v1-inbox') });
 */
export async function bundleAsDeployed(name: FunctionName, entry: { file: string } | { contents: string }, outfile?: string): Promise<Metafile> {
  const options = bundlingOf(name);
  const result = await build({
    ...('file' in entry
      ? { entryPoints: [path.join(projectRoot, entry.file)] }
      : { stdin: { contents: entry.contents, resolveDir: projectRoot, sourcefile: 'probe.ts', loader: 'ts' as const } }),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    mainFields: ['module', 'main'],
    minify: true,
    banner: { js: options.banner! },
    ...(outfile ? { outfile } : { write: false, outdir: path.join(tmpdir(), 'bundle-as-deployed') }),
    metafile: true,
    logLevel: 'silent',
    define: options.define ?? {},
    external: options.externalModules ?? [],
  });
  return result.metafile;
}
