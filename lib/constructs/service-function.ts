/**
 * One Lambda function of the service, configured the same way for every definition in
 * `runtime-contract/resource-definitions.ts`: Node.js 22 on arm64, esbuild bundle, JSON logs into an
 * explicit one-month log group, X-Ray tracing, and an execution role that starts empty
 * (grants are added by the stack from the definition).
 *
 * Skipping bundling
 * -----------------
 * `NodejsFunction` refuses to construct when its entry file is missing, even when the CLI's
 * `aws:cdk:bundling-stacks` context tells it not to bundle (checked: aws-cdk-lib 2.276
 * `findEntry` throws "Cannot find entry file"). The entries are written by other people and
 * may not exist yet, so this construct decides itself:
 *  - bundle (normal `cdk synth` / `cdk deploy`): `NodejsFunction` with `entry` and esbuild options;
 *    the stack checks beforehand that every entry exists and names all missing ones at once;
 *  - skip, when the context value `skipBundling` is true (tests, offline synth) or when the CLI did
 *    not select this stack for bundling (`cdk deploy <other stack>`): the same `NodejsFunction`
 *    with every other property unchanged but `code` = the tiny `lib/lambda-placeholder` asset, which
 *    `NodejsFunction` accepts without an entry. The placeholder throws if ever invoked.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { Duration, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { Charset, LogLevel as EsbuildLogLevel, NodejsFunction, OutputFormat, type BundlingOptions } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { groupRoutesDefine } from './group-routes-define';
import { requiredVariablesDefine } from './required-variables-define';
import { esbuildArguments } from '../../runtime-contract/browser-assets';
import { entryOf, functions, type FunctionDefinition, type FunctionName } from '../../runtime-contract/resource-definitions';
import { projectRoot, type LogLevel } from '../settings';
import { sidePackageArguments, sidePackageDefines, sidePackagesOf, type SidePackage } from './side-packages';

export const placeholderCodeDirectory = path.join(__dirname, '..', 'lambda-placeholder');

export interface ServiceFunctionProps {
  name: FunctionName;
  definition: FunctionDefinition;
  /** Physical function name. Fixed so API integrations can address the function by ARN (see SurfaceApi). */
  functionName: string;
  environment: Record<string, string>;
  logLevel: LogLevel;
  skipBundling: boolean;
  /** Repository root the entry paths are relative to. */
  root?: string;
}

/**
 * esbuild options shared by every function.
 *
 * `externalModules: []` bundles everything, the AWS SDK v3 included, although the Node.js 22
 * runtime ships one: the bundle then runs exactly the SDK versions in package-lock.json that the
 * tests ran against, instead of whatever the runtime carries that month. Node built-ins are
 * never bundled (esbuild's `platform: node`).
 *
 * ESM output: @middy/* is ESM only and Node 22 loads `.mjs` natively. CommonJS dependencies
 * bundled into ESM still call `require()` for built-ins, hence the `createRequire` banner.
 */
export const bundlingOptions: BundlingOptions = {
  minify: true,
  sourceMap: true,
  sourcesContent: false,
  target: 'node22',
  format: OutputFormat.ESM,
  mainFields: ['module', 'main'],
  banner: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  externalModules: [],
  charset: Charset.UTF8,
  logLevel: EsbuildLogLevel.WARNING,
};

/**
 * A function's esbuild options: the shared ones, plus a copy of the package files it reads at run
 * time (`bundledFiles`: the docs page's renderer), the browser files built from our sources
 * (`browserAssets`: the console's script and style sheet, runtime-contract/browser-assets.ts) and
 * the side packages it gets (side-packages.ts: the SDK tracer, jose), each a file of its own
 * required only on the path that needs it, into the bundle's folder.
 */
export function bundlingOf(name: FunctionName, definition: FunctionDefinition = functions[name], root: string = projectRoot): BundlingOptions {
  const sides = sidePackagesOf(name, definition);
  const commands = (outputDir: string) => [
    ...copyCommands(definition, root, outputDir),
    ...browserAssetCommands(definition, root, outputDir),
    ...sides.map((sidePackage) => sidePackageCommand(sidePackage, root, outputDir)),
  ];
  return {
    ...bundlingOptions,
    // The route groups' rows and every function's required variables are written in
    // (group-routes-define.ts, required-variables-define.ts); the rest are the side packages' files.
    define: { ...sidePackageDefines(name, definition), ...groupRoutesDefine(name), ...requiredVariablesDefine(name) },
    // The bundle's require() of a side package's file stays a require at run time.
    externalModules: sides.map((sidePackage) => sidePackage.file),
    ...(commands('/').length === 0
      ? {}
      : { commandHooks: { beforeBundling: () => [], beforeInstall: () => [], afterBundling: (_inputDir: string, outputDir: string) => commands(outputDir) } }),
  };
}

function sidePackageCommand(sidePackage: SidePackage, root: string, outputDir: string): string {
  const esbuild = path.join(root, 'node_modules', '.bin', 'esbuild');
  const outfile = path.posix.join(outputDir, sidePackage.file);
  return [esbuild, ...sidePackageArguments(sidePackage, root, outfile, bundlingOptions.target!)].map((part) => `"${part}"`).join(' ');
}

function copyCommands(definition: FunctionDefinition, root: string, outputDir: string): string[] {
  const copy = definition.bundledFiles;
  if (!copy) return [];
  const sourceDirectory = path.dirname(require.resolve(`${copy.package}/package.json`, { paths: [root] }));
  return [
    `mkdir -p "${outputDir}/${copy.directory}"`,
    ...copy.files.map((file) => `cp "${path.join(sourceDirectory, file)}" "${outputDir}/${copy.directory}/${file}"`),
  ];
}

/** The project's own esbuild (node_modules/.bin), run on the build machine: the same version the local runtime builds with. */
function browserAssetCommands(definition: FunctionDefinition, root: string, outputDir: string): string[] {
  const assets = definition.browserAssets;
  if (!assets) return [];
  const esbuild = path.join(root, 'node_modules', '.bin', 'esbuild');
  return assets.bundles.map(({ entry, file }) =>
    [esbuild, ...esbuildArguments(path.join(root, entry), `${outputDir}/${assets.directory}/${file}`), '--log-level=warning']
      .map((part) => `"${part}"`)
      .join(' '),
  );
}

/** Entry files (relative to the root) of the given functions that do not exist. */
export function findMissingEntries(names: readonly FunctionName[], root: string = projectRoot): string[] {
  return names.map((name) => entryOf(name)).filter((entry) => !existsSync(path.join(root, entry)));
}

/** Whether functions created in this scope get placeholder code instead of a bundle. */
export function bundlingSkipped(scope: Construct, skipBundling: boolean): boolean {
  return skipBundling || !Stack.of(scope).bundlingRequired;
}

const applicationLogLevels: Record<LogLevel, lambda.ApplicationLogLevel> = {
  DEBUG: lambda.ApplicationLogLevel.DEBUG,
  INFO: lambda.ApplicationLogLevel.INFO,
  WARN: lambda.ApplicationLogLevel.WARN,
  ERROR: lambda.ApplicationLogLevel.ERROR,
};

export class ServiceFunction extends NodejsFunction {
  readonly serviceName: FunctionName;
  /** The fixed physical name (`functionName` is a CloudFormation reference). */
  readonly fixedFunctionName: string;
  readonly definition: FunctionDefinition;
  /** The explicit one-month log group (also reachable as `logGroup`). */
  readonly functionLogGroup: logs.LogGroup;
  readonly usesPlaceholderCode: boolean;

  constructor(scope: Construct, id: string, props: ServiceFunctionProps) {
    const root = props.root ?? projectRoot;
    const entry = path.join(root, entryOf(props.name));
    const skip = bundlingSkipped(scope, props.skipBundling);

    // Created in the parent scope: `super()` must run before `this` exists.
    const logGroup = new logs.LogGroup(scope, `${id}LogGroup`, { retention: logs.RetentionDays.ONE_MONTH });
    // Own role instead of the default AWSLambdaBasicExecutionRole (logs:* on *): it may write to
    // its log group and nothing else until the stack grants what the definition declares.
    const role = new iam.Role(scope, `${id}Role`, {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of the ${props.name} function`,
    });
    logGroup.grantWrite(role);

    const codeProps = skip
      ? { code: lambda.Code.fromAsset(placeholderCodeDirectory), handler: 'index.handler' }
      : {
          entry,
          handler: 'handler',
          projectRoot: root,
          depsLockFilePath: path.join(root, 'package-lock.json'),
          bundling: bundlingOf(props.name, props.definition, root),
        };

    super(scope, id, {
      ...codeProps,
      functionName: props.functionName,
      description: `${props.name}: ${summarize(props.name, props.definition)}`,
      runtime: lambda.Runtime.NODEJS_22_X,
      architecture: lambda.Architecture.ARM_64,
      memorySize: props.definition.memoryMb,
      timeout: Duration.seconds(props.definition.timeoutSeconds),
      role,
      environment: {
        ...props.environment,
        // Bundles carry source maps; without this flag stack traces point into minified code.
        NODE_OPTIONS: '--enable-source-maps',
        // No X-Ray subsegments per SDK call (its bundle carries no tracer): Powertools and AppConfig agree.
        ...(props.definition.tracesSdkCalls === false ? { POWERTOOLS_TRACE_ENABLED: 'false' } : {}),
      },
      tracing: lambda.Tracing.ACTIVE,
      loggingFormat: lambda.LoggingFormat.JSON,
      applicationLogLevelV2: applicationLogLevels[props.logLevel],
      systemLogLevelV2: lambda.SystemLogLevel.INFO,
      logGroup,
    });

    this.serviceName = props.name;
    this.fixedFunctionName = props.functionName;
    this.definition = props.definition;
    this.functionLogGroup = logGroup;
    this.usesPlaceholderCode = skip;
  }
}

function summarize(name: FunctionName, definition: FunctionDefinition): string {
  if (name === 'chunk-worker') return 'sends one chunk of a broadcast from the outbound queue';
  if (name === 'single-sender') return 'sends single messages (one-recipient jobs) from the single-messages queue';
  if (name === 'chunk-dead-letters') return "settles the chunks that reached the lanes' dead-letter queues, without a send";
  if (name === 'delivery-events') return "applies Meta's webhook events from the meta-events queue";
  if (name === 'broadcast-scheduler') return 'fires scheduled broadcasts (one-time schedules) and sweeps missed ones';
  if (name === 'campaign-expander') return "expands launched campaigns page by page into their jobs' chunks";
  const parts = [definition.callsUpstream ? 'calls the WhatsApp Cloud API' : undefined, definition.managesApiKeys ? 'issues API keys' : undefined];
  return ['API endpoint group', ...parts.filter(Boolean)].join(', ');
}

/** A physical function name `<stack>-<name>`, shortened with a hash when over Lambda's 64 characters. */
export function physicalFunctionName(stackName: string, name: FunctionName): string {
  const full = `${stackName}-${name}`;
  if (full.length <= 64) return full;
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 8);
  return `${full.slice(0, 64 - hash.length - 1)}-${hash}`;
}
