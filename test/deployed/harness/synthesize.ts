/**
 * Jest global setup of the `deployed` project: `cdk synth` (bundling every function with the
 * installed esbuild) into a dedicated folder, so the suites run exactly what `cdk deploy` would
 * upload. `DEPLOYED_ASSEMBLY=<dir>` reuses an assembly synthesized before.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { assemblyDirectory, projectRoot } from './assembly-location';

export default function synthesize(): void {
  if (process.env.DEPLOYED_ASSEMBLY) return;
  rmSync(assemblyDirectory, { recursive: true, force: true });
  execFileSync('npx', ['cdk', 'synth', '--quiet', '--output', assemblyDirectory], {
    cwd: projectRoot,
    env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
}
