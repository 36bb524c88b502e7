/**
 * `npm run smoke -- [options]`: the smoke suite of every surface against a deployed base URL (the
 * local runtime's, LocalStack's or an AWS stage's). Prints one line per step, PASS or FAIL with
 * the reason, and exits 1 when a step failed (2 on bad options). Options: scripts/smoke/smoke-config.ts,
 * docs/TESTING.md "Smoke against a deployed URL".
 */
import { readSmokeOptions, resolveSmokeConfig, smokeUsage, SmokeConfigError } from './smoke/smoke-config';
import { runSmoke } from './smoke/smoke-steps';

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${smokeUsage()}\n`);
    return;
  }
  let config;
  try {
    config = resolveSmokeConfig(readSmokeOptions(argv, process.env));
  } catch (error) {
    if (!(error instanceof SmokeConfigError) && !(error instanceof TypeError)) throw error;
    process.stderr.write(`${error.message}\n\n${smokeUsage()}\n`);
    process.exit(2);
  }
  process.stdout.write(`smoke run ${config.runId} against ${config.urls.broadcast} (and the other surfaces)\n`);
  const results = await runSmoke(config, (result) =>
    process.stdout.write(`${result.passed ? 'PASS' : 'FAIL'}  ${result.name}: ${result.detail}\n`),
  );
  const failed = results.filter((result) => !result.passed).length;
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  process.exitCode = failed > 0 ? 1 : 0;
}

void main();
