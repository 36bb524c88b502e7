/**
 * Jest global setup of the `deployed` project: `cdk synth` (bundling every function with the
 * installed esbuild) into a dedicated folder, so the suites run exactly what `cdk deploy` would
 * upload, with one setting for test speed: `-c scheduleMinLeadSeconds=1` (it reaches broadcast-send
 * through its template environment). `DEPLOYED_ASSEMBLY=<dir>` reuses an assembly synthesized before.
 * `--no-validation`: aws-cdk-lib's built-in CloudFormation linter (about 13 s of CPU here) checks
 * the same templates in test/cdk/nag.test.ts, which asserts it finds nothing; bundling does not
 * change what it checks.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { assemblyDirectory, projectRoot } from './assembly-location';

/** Scheduled broadcasts in the smoke suite fire a few seconds after they are accepted (default 300 s). */
export const deployedScheduleMinLeadSeconds = 1;

export default function synthesize(): void {
  if (process.env.DEPLOYED_ASSEMBLY) return;
  rmSync(assemblyDirectory, { recursive: true, force: true });
  execFileSync(
    'npx',
    ['cdk', 'synth', '--quiet', '--no-validation', '--output', assemblyDirectory, '-c', `scheduleMinLeadSeconds=${deployedScheduleMinLeadSeconds}`],
    {
      cwd: projectRoot,
      env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
}
