/**
 * `npm run smoke:localstack -- [smoke options]`: the smoke suite against the stack `npm run
 * deploy:localstack` deployed. The surfaces' URLs come from that deploy's outputs file
 * (`.localstack/outputs.json`; LOCALSTACK_OUTPUTS overrides), rewritten to LocalStack's
 * execute-api host names (LOCALSTACK_URL, default http://localhost.localstack.cloud:4566).
 * Credentials and data as for `npm run smoke` (options, SMOKE_*, a file in demo.json's shape).
 */
import { existsSync, readFileSync } from 'node:fs';
import { localStackSurfaceUrls } from './smoke/localstack-outputs';
import { smokeCli } from './smoke';

const outputsFile = process.env.LOCALSTACK_OUTPUTS ?? '.localstack/outputs.json';
if (!existsSync(outputsFile)) {
  process.stderr.write(`${outputsFile} not found: run \`npm run deploy:localstack\` first\n`);
  process.exit(2);
}
const urls = localStackSurfaceUrls(JSON.parse(readFileSync(outputsFile, 'utf8')), process.env.LOCALSTACK_URL ?? 'http://localhost.localstack.cloud:4566');
smokeCli(process.argv.slice(2), Object.fromEntries(Object.entries(urls).map(([surface, url]) => [`${surface}-url`, url]))).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
