/**
 * Builds the browser files the local runtime serves (the campaign console's script and style
 * sheet) with the same esbuild options the CDK bundling hook uses (runtime-contract/browser-assets.ts),
 * into `.build/<directory>` of the repository, where the console function reads them when it does
 * not run on Lambda (functions/console/console.lambda.ts).
 *
 * Once per process, and not at all when the files in `.build/` were built from the same sources:
 * every integration suite starts a runtime (under jest, each in a module registry of its own), and
 * rebuilding the console for each was about 0.3 s of esbuild CPU per suite. A build records every
 * input file esbuild read with its content hash (`.build/<directory>/.inputs.json`); a later start
 * reuses the files while each input still has that hash. Each file is written whole and renamed
 * into place, so runtimes started at the same time by parallel test workers never read half a file.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, version as esbuildVersion } from 'esbuild';
import { browserBuildOptions } from '../runtime-contract/browser-assets';
import { functions, type BrowserAssets, type FunctionName } from '../runtime-contract/resource-definitions';

const repositoryRoot = resolve(__dirname, '..');
/** The folder the functions read built files from locally. */
export const localBuildDirectory = join(repositoryRoot, '.build');

/** What a build of one set of files was made from: the build's settings, and each input's content hash. */
interface BuildRecord {
  settings: string;
  inputs: Record<string, string>;
}

let built: Promise<void> | undefined;

/**
 * Builds every function's browser files (or finds them built from the same sources); resolves when they are in place.
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
    const settings = settingsOf(assets);
    if (isCurrent(directory, assets, settings)) continue;
    const inputs: Record<string, string> = {};
    await Promise.all(
      assets.bundles.map(async ({ entry, file }) => {
        const result = await build({
          ...browserBuildOptions,
          entryPoints: [join(repositoryRoot, entry)],
          outfile: join(directory, file),
          write: false,
          metafile: true,
          absWorkingDir: repositoryRoot,
          logLevel: 'warning',
        });
        const output = result.outputFiles.find((candidate) => candidate.path.endsWith(file)) ?? result.outputFiles[0]!;
        writeWhole(directory, file, output.contents);
        for (const input of Object.keys(result.metafile.inputs)) inputs[input] = contentHash(join(repositoryRoot, input)) ?? '';
      }),
    );
    // Last: a build that failed midway leaves no record, so the next start builds again.
    writeWhole(directory, recordFile, JSON.stringify({ settings, inputs } satisfies BuildRecord));
  }
}

const recordFile = '.inputs.json';

/** esbuild's version, the shared options and the entries: a change to any of them is a new build. */
const settingsOf = (assets: BrowserAssets): string => JSON.stringify({ esbuild: esbuildVersion, options: browserBuildOptions, bundles: assets.bundles });

/** Whether every output is there and was built with these settings from inputs that still have the recorded content. */
function isCurrent(directory: string, assets: BrowserAssets, settings: string): boolean {
  if (!assets.bundles.every(({ file }) => existsSync(join(directory, file)))) return false;
  let record: BuildRecord;
  try {
    record = JSON.parse(readFileSync(join(directory, recordFile), 'utf8')) as BuildRecord;
  } catch {
    return false;
  }
  if (record.settings !== settings || Object.keys(record.inputs).length === 0) return false;
  return Object.entries(record.inputs).every(([input, hash]) => contentHash(join(repositoryRoot, input)) === hash);
}

const contentHash = (file: string): string | undefined => {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return undefined;
  }
};

function writeWhole(directory: string, file: string, contents: string | Uint8Array): void {
  const temporary = join(directory, `.${file}.${process.pid}.${Date.now()}.tmp`);
  writeFileSync(temporary, contents);
  renameSync(temporary, join(directory, file));
}
