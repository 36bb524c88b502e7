import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAppConfig } from '../../../shared/config/app-config';
import { tracedClient } from '../../../shared/observability/tracer';

const root = join(__dirname, '../../..');

/** Runs a script under tsx in a fresh process; answers whether the X-Ray SDK was loaded. */
function xraySdkLoadedAfter(script: string, env: Record<string, string>): boolean {
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', '-e', `${script}; console.log(JSON.stringify(Object.keys(require.cache).some((file) => file.includes('aws-xray-sdk-core'))))`],
    {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', ...env },
      encoding: 'utf8',
    },
  );
  if (run.status !== 0) throw new Error(run.stderr);
  return JSON.parse(run.stdout.trim().split('\n').pop()!) as boolean;
}

const buildOneClient = `
  const { createCompositionContext } = require('./functions/composition/composition-context');
  const { parseAppConfig } = require('./shared/config/app-config');
  const context = createCompositionContext(parseAppConfig(process.env));
  const { SQSClient } = require('@aws-sdk/client-sqs');
  context.client('probe', () => new SQSClient({ region: 'eu-west-1' }));
`;

describe('tracing is loaded only where it is on', () => {
  it('is on inside Lambda unless POWERTOOLS_TRACE_ENABLED=false, and off elsewhere', () => {
    expect(parseAppConfig({}).tracingEnabled).toBe(false);
    expect(parseAppConfig({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x' }).tracingEnabled).toBe(true);
    expect(parseAppConfig({ AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', POWERTOOLS_TRACE_ENABLED: 'FALSE' }).tracingEnabled).toBe(false);
  });

  it('hands the client back untouched when tracing is off', () => {
    const client = { destroy: () => undefined };
    expect(tracedClient(client, false)).toBe(client);
  });

  // The X-Ray SDK's async hook makes every promise of the process dearer (docs/PERFORMANCE.md 4g).
  it('never loads the X-Ray SDK when a function builds its clients outside Lambda', () => {
    expect(xraySdkLoadedAfter(buildOneClient, {})).toBe(false);
  }, 30_000);

  it('loads it when the client is built inside Lambda', () => {
    expect(xraySdkLoadedAfter(buildOneClient, { AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x', AWS_REGION: 'eu-west-1' })).toBe(true);
  }, 30_000);
});
