/** How bundling is skipped (placeholder code) or refused (missing entries), and how context becomes settings. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { App, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { ApiStack } from '../../lib/api-stack';
import { bundleAsDeployed } from './support/bundle-as-deployed';
import { bundlingOf, bundlingOptions, bundlingSkipped, findMissingEntries, physicalFunctionName, ServiceFunction } from '../../lib/constructs/service-function';
import { sidePackageArguments, sidePackagesOf, tracesSdkCallsOf } from '../../lib/constructs/side-packages';
import { entryOf, functions, type FunctionName } from '../../runtime-contract/resource-definitions';
import { readSettings } from '../../lib/settings';
import { StatefulStack } from '../../lib/stateful-stack';

const names = Object.keys(functions) as FunctionName[];

/** A directory with an entry file for only the given functions. */
function rootWithEntries(present: FunctionName[]): string {
  const root = mkdtempSync(path.join(tmpdir(), 'entries-'));
  for (const name of present) {
    const file = path.join(root, entryOf(name));
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, 'export const handler = async () => ({});\n');
  }
  return root;
}

const context = (values: Record<string, unknown>) => ({ tryGetContext: (key: string) => values[key] });

describe('missing entries', () => {
  it('lists exactly the functions whose entry file does not exist', () => {
    const [first, ...rest] = names;
    expect(findMissingEntries(names, rootWithEntries([first!]))).toEqual(rest.map(entryOf));
    expect(findMissingEntries(names, rootWithEntries(names))).toEqual([]);
  });

  it('without skipBundling, the ApiStack refuses to synthesize and names every missing entry', () => {
    const app = new App();
    const stateful = new StatefulStack(app, 'Stateful', { tokenKeyAlias: 'alias/test/tokens' });
    const settings = { ...readSettings(context({}), {}), skipBundling: false };
    let message = '';
    try {
      new ApiStack(app, 'Api', { stateful, settings, entryRoot: rootWithEntries([]) });
    } catch (error) {
      message = String(error);
    }
    expect(message).toMatch(/Lambda entry files missing/);
    for (const name of names) expect(message).toContain(entryOf(name));
  });
});

describe('skipping bundling', () => {
  const synthFunction = (appContext: Record<string, unknown>, skipBundling: boolean) => {
    const app = new App({ context: appContext });
    const stack = new Stack(app, 'Functions');
    const fn = new ServiceFunction(stack, 'Fn', {
      name: 'chunk-worker',
      definition: functions['chunk-worker'],
      functionName: 'test-chunk-worker',
      environment: {},
      logLevel: 'INFO',
      skipBundling,
      root: rootWithEntries([]), // the entry does not exist
    });
    return { stack, fn, template: Template.fromStack(stack) };
  };

  it('skipBundling=true gives placeholder code even though the entry is missing', () => {
    const { fn, template } = synthFunction({}, true);
    expect(fn.usesPlaceholderCode).toBe(true);
    template.hasResourceProperties('AWS::Lambda::Function', { Handler: 'index.handler', Runtime: 'nodejs22.x' });
  });

  it('a stack the CLI did not select for bundling (aws:cdk:bundling-stacks) also gets placeholder code', () => {
    const { stack, fn } = synthFunction({ 'aws:cdk:bundling-stacks': [] }, false);
    expect(bundlingSkipped(stack, false)).toBe(true);
    expect(fn.usesPlaceholderCode).toBe(true);
  });

  it('a stack selected for bundling with bundling not skipped really bundles (NodejsFunction needs the entry)', () => {
    expect(() => synthFunction({ 'aws:cdk:bundling-stacks': ['**'] }, false)).toThrow(/Cannot find entry file/);
  });

  it('bundles everything (AWS SDK included) as minified ESM with source maps for Node 22', () => {
    expect(bundlingOptions).toEqual(expect.objectContaining({ externalModules: [], minify: true, sourceMap: true, target: 'node22', format: 'esm' }));
  });
});

describe('side packages: files of their own beside the bundle', () => {
  const projectRoot = path.join(__dirname, '../..');
  const probe = [
    "export { tracedClient } from './shared/observability/tracer';",
    "export { SQSClient } from '@aws-sdk/client-sqs';",
    "export const verifier = () => import('./shared/adapters/oidc/jose-token-verifier');",
    "export { publishedCount } from './functions/composition/published-count';",
  ].join('\n');

  /** The probe bundled with `name`'s bundling options (into `directory` with its side files); the npm packages in the bundle. */
  async function bundleProbe(name: FunctionName, directory?: string): Promise<string[]> {
    const metafile = await bundleAsDeployed(name, { contents: probe }, directory ? path.join(directory, 'index.mjs') : undefined);
    if (directory)
      for (const sidePackage of sidePackagesOf(name, functions[name]))
        execFileSync(
          path.join(projectRoot, 'node_modules', '.bin', 'esbuild'),
          sidePackageArguments(sidePackage, projectRoot, path.join(directory, sidePackage.file), 'node22'),
        );
    return Object.keys(metafile.inputs).flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? []);
  }

  /** Runs `lines` as an ES module next to a bundled probe, with a Lambda's environment. */
  async function runBesideProbe(name: FunctionName, lines: string[]): Promise<string> {
    const directory = mkdtempSync(path.join(tmpdir(), 'side-packages-'));
    await bundleProbe(name, directory);
    const script = [`const probe = await import(${JSON.stringify(pathToFileURL(path.join(directory, 'index.mjs')).href)});`, ...lines].join('\n');
    return execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { PATH: process.env.PATH ?? '', AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_REGION: 'eu-west-1' },
      encoding: 'utf8',
    });
  }

  const sidePackageNpm = ['@aws-lambda-powertools/tracer', 'aws-xray-sdk-core', 'cls-hooked', 'jose'];

  it('leaves the tracer, the X-Ray SDK and jose out of bundles; functions that use them get their files beside it', async () => {
    const untraced = names.filter((name) => functions[name].tracesSdkCalls === false);
    expect(untraced).toEqual(expect.arrayContaining(['chunk-worker', 'delivery-events']));
    expect(names.filter((name) => !tracesSdkCallsOf(functions[name])).sort()).toEqual([...untraced, 'console', 'docs', 'health'].sort());
    // (The probe reaches the verifier in every function: one without jose's file would have jose inside, as before.)
    for (const name of ['chunk-worker', 'broadcast-send', 'request-authorizer', 'meta-webhook'] as const) {
      const absent = name === 'chunk-worker' ? sidePackageNpm.filter((npmPackage) => npmPackage !== 'jose') : sidePackageNpm;
      for (const npmPackage of absent)
        expect({ name, packages: await bundleProbe(name) }).toEqual({ name, packages: expect.not.arrayContaining([npmPackage]) });
    }
    for (const name of names) {
      const afterBundling = bundlingOf(name).commandHooks?.afterBundling('/in', '/out') ?? [];
      const built = (file: string) => afterBundling.filter((command) => command.includes(`/out/${file}`)).length;
      expect({ name, tracer: built('sdk-tracer.cjs'), jose: built('jose.cjs') }).toEqual({
        name,
        tracer: tracesSdkCallsOf(functions[name]) ? 1 : 0,
        jose: sidePackagesOf(name, functions[name]).some(({ file }) => file === './jose.cjs') ? 1 : 0,
      });
    }
    expect(names.filter((name) => sidePackagesOf(name, functions[name]).some(({ file }) => file === './jose.cjs'))).toEqual(
      expect.arrayContaining(['request-authorizer', 'broadcast-send', 'broadcast-people']),
    );
  }, 120_000);

  it('no function bundles a side package inside: where its code reaches one, the file is beside it (every entry bundled)', async () => {
    for (const name of names) {
      const metafile = await bundleAsDeployed(name, { file: entryOf(name) });
      const inputs = Object.entries(metafile.outputs).flatMap(([, output]) => Object.keys(output.inputs));
      const packages = new Set(inputs.flatMap((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? []));
      expect({ name, inside: sidePackageNpm.filter((npmPackage) => packages.has(npmPackage)) }).toEqual({ name, inside: [] });
      // Powertools Metrics: beside the route groups that count rare faults; the queue workers publish on every record and keep it inside.
      if (sidePackagesOf(name, functions[name]).some(({ file }) => file === './powertools-metrics.cjs')) {
        expect({ name, metricsInside: packages.has('@aws-lambda-powertools/metrics') }).toEqual({ name, metricsInside: false });
      }
    }
    expect(names.filter((name) => sidePackagesOf(name, functions[name]).some(({ file }) => file === './powertools-metrics.cjs'))).toEqual(
      expect.arrayContaining(['broadcast-send', 'click-redirect', 'organization-admin']),
    );
  }, 180_000);

  it("a route group's bundle publishes a rare count with Powertools Metrics from its file", async () => {
    const output = await runBesideProbe('click-redirect', [
      "probe.publishedCount({ origin: { name: 'click-redirect', environment: {} } }, 'ClicksNotCounted')();",
    ]);
    const emf = JSON.parse(
      output
        .trim()
        .split('\n')
        .find((line) => line.includes('_aws'))!,
    );
    expect([emf.ClicksNotCounted, emf.service, emf._aws.CloudWatchMetrics[0].Metrics]).toEqual([
      1,
      'click-redirect',
      [{ Name: 'ClicksNotCounted', Unit: 'Count' }],
    ]);
  }, 60_000);

  it('with tracing on, a bundle loads the tracer from its file and traces the client as unbundled code does', async () => {
    const output = await runBesideProbe('broadcast-send', [
      "const client = probe.tracedClient(new probe.SQSClient({ region: 'eu-west-1' }), true);",
      'console.log(JSON.stringify(client.middlewareStack.identify()));',
    ]);
    expect(output).toContain('XRaySDKInstrumentation');
  }, 60_000);

  it("a bundle's token verifier reads tokens with jose from its file", async () => {
    const token = ['{"alg":"RS256"}', '{"iss":"https://elsewhere.example","sub":"1"}']
      .map((part) => Buffer.from(part).toString('base64url'))
      .concat('c2ln')
      .join('.');
    const output = await runBesideProbe('broadcast-send', [
      'const { createJoseTokenVerifier } = await probe.verifier();',
      "const verifier = createJoseTokenVerifier({ issuers: [{ issuer: 'https://issuer.example', audience: 'console' }] });",
      `console.log(await verifier.verify(${JSON.stringify(token)}).then(() => 'accepted', (error) => error.name + ': ' + error.message));`,
    ]);
    expect(output).toMatch(/^InvalidPersonTokenError: .*/);
  }, 60_000);
});

describe('settings', () => {
  it('parses -c strings: skipBundling, numbers, log level; env supplies account/region', () => {
    const settings = readSettings(context({ skipBundling: 'true', upstreamTimeoutMs: '9000', logLevel: 'debug', stackNamePrefix: 'Staging' }), {
      CDK_DEFAULT_ACCOUNT: '111111111111',
      CDK_DEFAULT_REGION: 'eu-central-1',
    });
    expect(settings).toEqual(
      expect.objectContaining({ skipBundling: true, logLevel: 'DEBUG', stackNamePrefix: 'Staging', account: '111111111111', region: 'eu-central-1' }),
    );
    expect(settings.upstream.timeoutMs).toBe(9000);
  });

  it('context wins over the environment, and defaults are safe', () => {
    const settings = readSettings(context({ account: '222222222222', skipBundling: 'false' }), { CDK_DEFAULT_ACCOUNT: '111111111111' });
    expect(settings.account).toBe('222222222222');
    expect(settings.region).toBeUndefined();
    expect(settings.skipBundling).toBe(false);
    expect(settings.logLevel).toBe('INFO');
  });

  it('rejects nonsense', () => {
    expect(() => readSettings(context({ logLevel: 'LOUD' }), {})).toThrow(/logLevel/);
    expect(() => readSettings(context({ upstreamTimeoutMs: '-5' }), {})).toThrow(/upstreamTimeoutMs/);
  });

  it('keeps physical function names within 64 characters', () => {
    expect(physicalFunctionName('Short-Api', 'health')).toBe('Short-Api-health');
    const long = physicalFunctionName('A'.repeat(70), 'chunk-worker');
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).not.toBe(physicalFunctionName('A'.repeat(71), 'chunk-worker'));
  });
});
