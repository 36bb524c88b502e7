/**
 * `npm run smoke:localstack -- [smoke options]`: the smoke suite against the stack `npm run
 * deploy:localstack` deployed. Reads the API URLs from the deploy's outputs file
 * (`.localstack/outputs.json`, written by `cdklocal deploy --outputs-file`) and rewrites AWS's
 * `https://<id>.execute-api.<region>.amazonaws.com/<stage>...` to LocalStack's
 * `http://<id>.execute-api.localhost.localstack.cloud:4566/<stage>...` (LOCALSTACK_URL overrides
 * the host and port). Credentials and data as for `npm run smoke` (options, SMOKE_*, demo file).
 */
import { existsSync, readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { localStackSurfaceUrls } from './smoke/localstack-outputs';

const outputsFile = process.env.LOCALSTACK_OUTPUTS ?? '.localstack/outputs.json';
if (!existsSync(outputsFile)) {
  process.stderr.write(`${outputsFile} not found: run \`npm run deploy:localstack\` first\n`);
  process.exit(2);
}
const urls = localStackSurfaceUrls(JSON.parse(readFileSync(outputsFile, 'utf8')), process.env.LOCALSTACK_URL ?? 'http://localhost.localstack.cloud:4566');
const urlOptions = Object.entries(urls).flatMap(([surface, url]) => [`--${surface}-url`, url]);
const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/smoke.ts', ...urlOptions, ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
