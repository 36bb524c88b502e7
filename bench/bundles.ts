/**
 * Lambda bundles: each `functions/<name>/<name>.lambda.ts` bundled with esbuild exactly as the CDK
 * app's NodejsFunction does (the options are read from lib/constructs/service-function.ts:
 * platform node, target node22, ESM with the createRequire banner, minified, source map without
 * sources content, everything bundled incl. @aws-sdk), then loaded cold in fresh processes.
 *
 * Load time = `import()` of the bundle, timed inside a fresh `node -e` process (the module graph
 * evaluated, no handler call). Twice: plain, and with NODE_OPTIONS=--enable-source-maps, which the
 * stack sets on every function. A `node -e` importing an empty module is the baseline.
 *
 * Each function is set beside its floor, built and loaded the same way in the same run: a
 * one-line handler that only builds the SDK clients the function's resource definition says it
 * calls (tables → DynamoDB, queues → SQS, token key → KMS, API keys → API Gateway). The goal is
 * a bundle and a cold load within 1.3x of the floor, and no SDK client in the bundle (metafile
 * inputs with bytes in the output) that the function never calls.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { bundlingOf, bundlingOptions } from '../lib/constructs/service-function';
import { sidePackagesOf, type SidePackage } from '../lib/constructs/side-packages';
import { entryOf, functions, variablesOf, type FunctionDefinition, type FunctionName } from '../runtime-contract/resource-definitions';
import { median } from './lib/stats';

const projectRoot = resolve(__dirname, '..');

export interface BundleSample {
  name: FunctionName;
  memoryMb: number;
  bytes: number;
  sourceMapBytes: number;
  buildMs: number;
  /** Bytes of the minified output by npm package (or `project` for our own code), largest first. */
  topContributors: Array<{ source: string; bytes: number }>;
  loadMs: number[];
  loadMsMedian: number;
  loadWithSourceMapsMs: number[];
  loadWithSourceMapsMsMedian: number;
  /** SDK clients the definition says the function calls, and those its bundle carries. */
  clientsCalled: SdkClient[];
  clientsCarried: SdkClient[];
  /** Side packages' files beside the bundle (lib/constructs/side-packages.ts: read only on the path that needs them), not in `bytes`. */
  sideFiles: Array<{ file: string; bytes: number }>;
  floor: FloorSample;
}

/** The one-line handler building only `clients`, bundled and loaded like a function. */
export interface FloorSample {
  clients: SdkClient[];
  bytes: number;
  loadMs: number[];
  loadMsMedian: number;
}

export type SdkClient = 'dynamodb' | 'sqs' | 'kms' | 'api-gateway' | 'cognito';

/** The npm package of each client and how the floor builds it. */
const sdkClients: Record<SdkClient, { packageName: string; imports: string; build: string }> = {
  dynamodb: {
    packageName: '@aws-sdk/client-dynamodb',
    imports: "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';",
    build: 'DynamoDBDocumentClient.from(new DynamoDBClient({}))',
  },
  sqs: { packageName: '@aws-sdk/client-sqs', imports: "import { SQSClient } from '@aws-sdk/client-sqs';", build: 'new SQSClient({})' },
  kms: { packageName: '@aws-sdk/client-kms', imports: "import { KMSClient } from '@aws-sdk/client-kms';", build: 'new KMSClient({})' },
  'api-gateway': {
    packageName: '@aws-sdk/client-api-gateway',
    imports: "import { APIGatewayClient } from '@aws-sdk/client-api-gateway';",
    build: 'new APIGatewayClient({})',
  },
  cognito: {
    packageName: '@aws-sdk/client-cognito-identity-provider',
    imports: "import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';",
    build: 'new CognitoIdentityProviderClient({})',
  },
};

/** The clients a function's resource definition says it calls. */
export function clientsCalledBy(definition: FunctionDefinition): SdkClient[] {
  const called: SdkClient[] = [];
  if (Object.keys(definition.tables).length > 0) called.push('dynamodb');
  if (definition.sendsTo.length > 0 || (definition.receivesFrom ?? []).length > 0) called.push('sqs');
  if (definition.tokenKey) called.push('kms');
  if (definition.managesApiKeys) called.push('api-gateway');
  if (definition.managesPeople) called.push('cognito');
  return called;
}

function floorSource(clients: SdkClient[]): string {
  return [
    ...clients.map((client) => sdkClients[client].imports),
    `const clients = [${clients.map((client) => sdkClients[client].build).join(', ')}];`,
    'export const handler = async () => ({ statusCode: 200, body: String(clients.length) });',
  ].join('\n');
}

/** SDK clients with bytes in the output, from esbuild's metafile inputs. */
function clientsIn(metafile: Metafile): SdkClient[] {
  const inputs = Object.values(metafile.outputs).flatMap((output) =>
    Object.entries(output.inputs)
      .filter(([, { bytesInOutput }]) => bytesInOutput > 0)
      .map(([path]) => path),
  );
  return (Object.keys(sdkClients) as SdkClient[]).filter((client) => inputs.some((path) => path.includes(`node_modules/${sdkClients[client].packageName}/`)));
}

export interface BundleResult {
  esbuildOptions: Record<string, unknown>;
  nodeVersion: string;
  processesPerMeasurement: number;
  baselineMs: number[];
  baselineMsMedian: number;
  bundles: BundleSample[];
  /** Functions in runtime-contract/resource-definitions.ts whose entry file does not exist (yet). */
  missingEntries: string[];
}

/** NodejsFunction's BundlingOptions translated to esbuild's API (what its CLI call amounts to). */
export function cdkEsbuildOptions(): BuildOptions {
  const options = bundlingOptions;
  return {
    bundle: true,
    platform: 'node',
    target: options.target,
    format: options.format as BuildOptions['format'],
    minify: options.minify,
    sourcemap: options.sourceMap,
    sourcesContent: options.sourcesContent,
    mainFields: options.mainFields,
    banner: options.banner ? { js: options.banner } : undefined,
    external: options.externalModules ?? ['@aws-sdk/*'],
    charset: options.charset as BuildOptions['charset'],
    logLevel: 'warning',
  };
}

const IMPORT_TIMER = [
  'const started = performance.now();',
  'import(process.argv[1]).then((module) => {',
  '  const elapsed = performance.now() - started;',
  "  if (process.argv[2] === 'handler' && typeof module.handler !== 'function') throw new Error('no handler export');",
  '  process.stdout.write(String(elapsed));',
  '});',
].join('\n');

function timeImport(fileUrl: string, expectHandler: boolean, extraNodeOptions?: string, functionEnv: Record<string, string> = {}): number {
  const env = { ...process.env, ...functionEnv, NODE_OPTIONS: extraNodeOptions ?? '' };
  const out = execFileSync(process.execPath, ['-e', IMPORT_TIMER, fileUrl, expectHandler ? 'handler' : 'none'], {
    encoding: 'utf8',
    env,
    cwd: tmpdir(),
    timeout: 60_000,
  });
  return Number(out);
}

/** Output bytes grouped by npm package, from esbuild's metafile. */
function contributorsOf(metafile: Metafile, outfile: string): Array<{ source: string; bytes: number }> {
  const output = Object.entries(metafile.outputs).find(([path]) => resolve(projectRoot, path) === outfile)?.[1];
  const totals = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {})) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input);
    const source = match ? match[1]! : 'project';
    totals.set(source, (totals.get(source) ?? 0) + bytesInOutput);
  }
  return [...totals]
    .map(([source, bytes]) => ({ source, bytes }))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, 8);
}

export async function benchBundles(processes = 5, log: (line: string) => void = () => undefined): Promise<BundleResult> {
  const outRoot = mkdtempSync(join(tmpdir(), 'wbp-bench-bundles-'));
  try {
    const options = cdkEsbuildOptions();
    const extension = options.format === 'esm' ? 'mjs' : 'js';

    const empty = join(outRoot, `empty.${extension}`);
    writeFileSync(empty, 'export {};\n');
    timeImport(pathToFileURL(empty).href, false); // warm the OS file cache for node itself
    const baselineMs = Array.from({ length: processes }, () => timeImport(pathToFileURL(empty).href, false));

    const floors = new Map<string, FloorSample>();
    const floorOf = async (clients: SdkClient[]): Promise<FloorSample> => {
      const key = clients.join('+') || 'none';
      if (!floors.has(key)) {
        const outfile = join(outRoot, 'floors', key, `index.${extension}`);
        await build({
          ...options,
          stdin: { contents: floorSource(clients), resolveDir: projectRoot, sourcefile: `floor-${key}.ts`, loader: 'ts' },
          outfile,
          absWorkingDir: projectRoot,
        });
        const url = pathToFileURL(outfile).href;
        timeImport(url, true);
        const loadMs = Array.from({ length: processes }, () => timeImport(url, true));
        floors.set(key, { clients, bytes: statSync(outfile).size, loadMs, loadMsMedian: median(loadMs) });
      }
      return floors.get(key)!;
    };

    const sideFileBytes = new Map<string, number>();
    const sideFileOf = async (sidePackage: SidePackage): Promise<{ file: string; bytes: number }> => {
      if (!sideFileBytes.has(sidePackage.file)) {
        const outfile = join(outRoot, 'side', sidePackage.file);
        await build({ ...options, format: 'cjs', banner: undefined, entryPoints: [join(projectRoot, sidePackage.entry)], outfile, absWorkingDir: projectRoot });
        sideFileBytes.set(sidePackage.file, statSync(outfile).size);
      }
      return { file: sidePackage.file, bytes: sideFileBytes.get(sidePackage.file)! };
    };

    const bundles: BundleSample[] = [];
    const missingEntries: string[] = [];
    for (const name of Object.keys(functions) as FunctionName[]) {
      if (!existsSync(join(projectRoot, entryOf(name)))) {
        missingEntries.push(entryOf(name));
        log(`  ${name}: skipped, ${entryOf(name)} does not exist`);
        continue;
      }
      const outfile = join(outRoot, name, `index.${extension}`);
      const buildStarted = performance.now();
      // The function's own defines and externals (side packages in files of their own), as the CDK app bundles it.
      const { define, externalModules } = bundlingOf(name);
      const result = await build({
        ...options,
        ...(define ? { define } : {}),
        ...(externalModules ? { external: externalModules } : {}),
        entryPoints: [join(projectRoot, entryOf(name))],
        outfile,
        absWorkingDir: projectRoot,
        metafile: true,
      });
      const buildMs = performance.now() - buildStarted;
      const url = pathToFileURL(outfile).href;
      // A function parses its configuration at init: give it the tables and queues AWS would.
      const functionEnv: Record<string, string> = Object.fromEntries(
        variablesOf(functions[name]).required.map((variable) => [variable, `bench-${variable.toLowerCase()}`]),
      );
      // Files the CDK app copies next to the bundle (the docs page's renderer), as on Lambda.
      const extraFiles = functions[name].bundledFiles;
      if (extraFiles) {
        mkdirSync(join(outRoot, name, extraFiles.directory), { recursive: true });
        for (const file of extraFiles.files)
          copyFileSync(join(projectRoot, 'node_modules', extraFiles.package, file), join(outRoot, name, extraFiles.directory, file));
        functionEnv.LAMBDA_TASK_ROOT = join(outRoot, name);
      }
      // Side packages' files next to the bundle, as the CDK app puts them (loaded only on the path that needs them).
      const sideFiles = await Promise.all(sidePackagesOf(name, functions[name]).map(sideFileOf));
      for (const { file } of sideFiles) copyFileSync(join(outRoot, 'side', file), join(outRoot, name, file));
      timeImport(url, true, undefined, functionEnv); // one unmeasured load: page cache, like a Lambda's code already on disk
      const loadMs = Array.from({ length: processes }, () => timeImport(url, true, undefined, functionEnv));
      const loadWithSourceMapsMs = Array.from({ length: processes }, () => timeImport(url, true, '--enable-source-maps', functionEnv));
      const sample: BundleSample = {
        name,
        memoryMb: functions[name].memoryMb,
        bytes: statSync(outfile).size,
        sourceMapBytes: statSync(`${outfile}.map`).size,
        buildMs,
        topContributors: contributorsOf(result.metafile!, outfile),
        loadMs,
        loadMsMedian: median(loadMs),
        loadWithSourceMapsMs,
        loadWithSourceMapsMsMedian: median(loadWithSourceMapsMs),
        clientsCalled: clientsCalledBy(functions[name]),
        clientsCarried: clientsIn(result.metafile!),
        sideFiles,
        floor: await floorOf(clientsCalledBy(functions[name])),
      };
      log(`  ${name}: ${sample.bytes} bytes, load ${sample.loadMsMedian.toFixed(1)} ms (${sample.loadWithSourceMapsMsMedian.toFixed(1)} ms with source maps)`);
      bundles.push(sample);
    }
    const { banner: _banner, ...shown } = options;
    return {
      esbuildOptions: { ...shown, banner: 'createRequire shim (see lib/constructs/service-function.ts)' },
      nodeVersion: process.version,
      processesPerMeasurement: processes,
      baselineMs,
      baselineMsMedian: median(baselineMs),
      bundles,
      missingEntries,
    };
  } finally {
    rmSync(outRoot, { recursive: true, force: true });
  }
}
