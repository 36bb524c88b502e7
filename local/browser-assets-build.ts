/**
 * Builds the browser files the local runtime serves (the campaign console's script and style
 * sheet) with the same esbuild options the CDK bundling hook uses (runtime-contract/browser-assets.ts),
 * into `.build/<directory>` of the repository, where the console function reads them when it does
 * not run on Lambda (functions/console/console.lambda.ts).
 *
 * Once per process; each file is written whole and renamed into place, so runtimes started at the
 * same time by parallel test workers never read half a file.
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { browserBuildOptions } from '../runtime-contract/browser-assets';
import { functions, type FunctionName } from '../runtime-contract/resource-definitions';

const repositoryRoot = resolve(__dirname, '..');
/** The folder the functions read built files from locally. */
export const localBuildDirectory = join(repositoryRoot, '.build');

let built: Promise<void> | undefined;

/**
 * Builds every function's browser files; resolves when they are in place.
 *
 * @example
 * await buildBrowserAssets(); // .build/console-assets/console.js and console.css
 */
export function buildBrowserAssets(): Promise<void> {
  built ??= buildAll().catch((error: unknown) => {
    built = undefined;
    throw error;
  });
  return built;
}

async function buildAll(): Promise<void> {
  const withAssets = (Object.keys(functions) as FunctionName[]).flatMap((name) => (functions[name].browserAssets ? [functions[name].browserAssets] : []));
  for (const assets of withAssets) {
    const directory = join(localBuildDirectory, assets.directory);
    mkdirSync(directory, { recursive: true });
    await Promise.all(
      assets.bundles.map(async ({ entry, file }) => {
        const result = await build({ ...browserBuildOptions, entryPoints: [join(repositoryRoot, entry)], outfile: join(directory, file), write: false, logLevel: 'warning' });
        const output = result.outputFiles.find((candidate) => candidate.path.endsWith(file)) ?? result.outputFiles[0]!;
        const temporary = join(directory, `.${file}.${process.pid}.${Date.now()}.tmp`);
        writeFileSync(temporary, output.contents);
        renameSync(temporary, join(directory, file));
      }),
    );
  }
}
