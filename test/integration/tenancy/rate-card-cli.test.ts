/** `set-rate-card` / `show-rate-card` through the admin CLI on dynalite (docs/OPERATIONS.md "Rate card"). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateLocalTokenKey } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { runAdminCli, type AdminCliResult } from '../../support/admin-cli';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;
let directory: string;
let envFile: string;

const admin = (args: string[]): Promise<AdminCliResult> => runAdminCli([...args, '--env-file', envFile]);

beforeAll(async () => {
  dynamo = await startTestDynamo();
  directory = mkdtempSync(join(tmpdir(), 'rate-card-cli-'));
  envFile = join(directory, 'runtime.env');
  writeFileSync(
    envFile,
    [...Object.entries(dynamo.environment).map(([name, value]) => `${name}=${value}`), `LOCAL_TOKEN_KEY=${generateLocalTokenKey()}`, ''].join('\n'),
  );
});

afterAll(async () => {
  await dynamo.stop();
  rmSync(directory, { recursive: true, force: true });
});

test('sets the example card for the platform and shows it; refuses a broken card naming the field', async () => {
  const set = await admin(['set-rate-card', '--file', 'examples/rate-card.json']);
  expect(set.code).toBe(0);
  expect(JSON.parse(set.stdout)).toMatchObject({ owner: 'PLATFORM', currency: 'USD', countries: 4 });
  const shown = JSON.parse((await admin(['show-rate-card'])).stdout);
  expect(shown.card).toMatchObject({ currency: 'USD', rates: { '44': { marketing: '0.0529' } } });

  const broken = join(directory, 'broken.json');
  writeFileSync(broken, JSON.stringify({ currency: 'USD', rates: { '44': { marketing: 0.05 } } }));
  const refused = await admin(['set-rate-card', '--file', broken, '--org', 'org_1']);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain('"code":"INVALID_RATE_CARD","message":"rate card rates.44.marketing must be string (received 0.05)"');
  expect(JSON.parse((await admin(['show-rate-card', '--org', 'org_1'])).stdout)).toEqual({ owner: 'org_1', card: null });
}, 120_000);
