/**
 * `npm run smoke -- [options]`: the smoke suite of every surface against a deployed base URL (the
 * local runtime's, LocalStack's or an AWS stage's). Prints one line per step, PASS or FAIL with
 * the reason, and exits 1 when a step failed (2 on bad options). Options: scripts/smoke/smoke-config.ts,
 * docs/TESTING.md "Smoke against a deployed URL".
 */
import { readSmokeOptions, resolveSmokeConfig, smokeUsage, SmokeConfigError, type SmokeOptionName } from './smoke/smoke-config';
import { runSmoke } from './smoke/smoke-steps';
import { surfaceUrlOptionsOf } from './smoke/localstack-outputs';
import { cloudFormationDescriber, readStackEnvironment } from './stack-environment';

/** `--stack`: each surface's URL from the deployment's outputs (`<Surface>ApiUrl`), as `--<surface>-url` defaults. */
async function surfaceUrlsOfStack(prefix: string, regionOption: string | undefined): Promise<Partial<Record<SmokeOptionName, string>>> {
  const region = regionOption ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  if (!region) throw new SmokeConfigError('--stack needs --region (or AWS_REGION)');
  const describer = cloudFormationDescriber(region);
  try {
    const { outputs } = await readStackEnvironment(describer, { prefix, region });
    return surfaceUrlOptionsOf(outputs);
  } finally {
    describer.destroy();
  }
}

/** Runs the suite; `defaults` (e.g. URLs found by smoke:localstack) yield to options and SMOKE_* variables. Returns the exit code. */
export async function smokeCli(argv: string[], defaults: Partial<Record<SmokeOptionName, string>> = {}): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${smokeUsage()}\n`);
    return 0;
  }
  let config;
  try {
    const options = readSmokeOptions(argv, process.env);
    const fromStack = options.stack === undefined ? {} : await surfaceUrlsOfStack(options.stack, options.region);
    config = resolveSmokeConfig({ ...defaults, ...fromStack, ...options });
  } catch (error) {
    // parseArgs refuses unknown options with a TypeError (ERR_PARSE_ARGS_*).
    if (!(error instanceof SmokeConfigError) && !(error instanceof TypeError)) throw error;
    process.stderr.write(`${error.message}\n\n${smokeUsage()}\n`);
    return 2;
  }
  process.stdout.write(`smoke run ${config.runId}: broadcast surface ${config.urls.broadcast}\n`);
  const results = await runSmoke(config, (result) => process.stdout.write(`${result.passed ? 'PASS' : 'FAIL'}  ${result.name}: ${result.detail}\n`));
  const failed = results.filter((result) => !result.passed).length;
  process.stdout.write(`${results.length - failed} passed, ${failed} failed\n`);
  return failed > 0 ? 1 : 0;
}

if (require.main === module) {
  smokeCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
