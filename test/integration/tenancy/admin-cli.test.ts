import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateLocalTokenKey } from '../../../shared/adapters/crypto/local-aes-token-cipher';
import { projectRoot, runAdminCli, runAdminCliProcess, type AdminCliResult } from '../../support/admin-cli';
import { startTestDynamo, type TestDynamo } from '../../support/dynalite';

let dynamo: TestDynamo;
let directory: string;
let envFile: string;

type CliResult = AdminCliResult;

/** In this process (test/support/admin-cli.ts); dynalite, in this process too, keeps serving while the CLI runs. */
const admin = (args: string[], options: { input?: string; env?: Record<string, string> } = {}): Promise<CliResult> => runAdminCli(args, options);

/** npm may print its own notices on stderr; the CLI's error is the one JSON line. */
function errorOf(result: CliResult): { code: string; message: string } {
  const line = result.stderr.split('\n').find((candidate) => candidate.startsWith('{"error"'));
  if (!line) throw new Error(`no JSON error on stderr: ${result.stderr}`);
  return (JSON.parse(line) as { error: { code: string; message: string } }).error;
}

beforeAll(async () => {
  dynamo = await startTestDynamo();
  directory = mkdtempSync(join(tmpdir(), 'admin-cli-'));
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

test('--help lists the commands', async () => {
  const result = await admin(['--help']);
  expect(result.code).toBe(0);
  for (const command of [
    'create-organization',
    'connect-business-account',
    'issue-broadcast-key',
    'set-pricing',
    'show-organization',
    'suspend-organization',
    'resume-organization',
  ]) {
    expect(result.stdout).toContain(command);
  }
}, 60_000);

/** Runs a command exactly as an operator types it (`npx wa-admin …` or `npm run admin -- …`); stdout as printed. */
function typed(command: string, args: string[]): Promise<CliResult> {
  return new Promise((resolvePromise) => {
    execFile(command, args, { cwd: projectRoot, env: process.env, timeout: 60_000 }, (error, stdout, stderr) =>
      resolvePromise({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

test("`npx wa-admin` prints only JSON on stdout (pipe it to jq); `npm run admin` has npm's banner first, `npm run -s admin` not", async () => {
  const args = ['create-organization', '--name', 'Piped Org', '--plan', 'starter', '--env-file', envFile];
  const viaBin = await typed('npx', ['wa-admin', ...args]);
  expect(viaBin.code).toBe(0);
  expect(JSON.parse(viaBin.stdout)).toMatchObject({ organizationId: expect.stringMatching(/^org_/) });

  const viaNpm = await typed('npm', ['run', 'admin', '--', ...args]);
  expect(viaNpm.stdout).toMatch(/^\s*> whatsapp-broadcast-platform@[\d.]+ admin/);
  const viaSilentNpm = await typed('npm', ['run', '-s', 'admin', '--', ...args]);
  expect(JSON.parse(viaSilentNpm.stdout)).toMatchObject({ organizationId: expect.stringMatching(/^org_/) });
}, 120_000);

test('onboarding through the CLI prints JSON, and show-organization prints no secrets', async () => {
  const created = await admin(['create-organization', '--name', 'CLI Org', '--plan', 'professional', '--api-add-on', '--env-file', envFile]);
  expect(created.code).toBe(0);
  const organization = JSON.parse(created.stdout) as { organizationId: string; plan: string; apiAddOn: boolean };
  expect(organization).toMatchObject({ plan: 'professional', apiAddOn: true });
  expect(organization.organizationId).toMatch(/^org_/);
  const org = organization.organizationId;

  // In a process of its own: standard input from a pipe, as an operator's `echo $TOKEN | npx wa-admin …`.
  const connected = await runAdminCliProcess(
    [
      'connect-business-account',
      '--org',
      org,
      '--waba-id',
      '7001',
      '--business-id',
      '7000',
      '--name',
      'CLI WABA',
      '--access-token-stdin',
      '--env-file',
      envFile,
    ],
    { input: 'EAAG-from-stdin\n' },
  );
  expect(connected.code).toBe(0);
  expect(connected.stdout).not.toContain('EAAG');

  const phone = await admin([
    'add-phone-number',
    '--org',
    org,
    '--waba-id',
    '7001',
    '--phone-number',
    '15558000001',
    '--phone-number-id',
    '8001',
    '--env-file',
    envFile,
  ]);
  expect(JSON.parse(phone.stdout)).toMatchObject({ digits: '15558000001', phoneNumberId: '8001' });

  const key = JSON.parse((await admin(['issue-broadcast-key', '--org', org, '--phone-number', '15558000001', '--env-file', envFile])).stdout) as {
    secret: string;
    credentialId: string;
  };
  expect(key.secret).toMatch(/^wbk_[A-Za-z0-9_-]{43}$/);

  const wallet = await admin(['top-up-wallet', '--org', org, '--amount', '12.50', '--env-file', envFile]);
  expect(JSON.parse(wallet.stdout)).toMatchObject({ balance: '12.50', balanceMicros: 12_500_000 });

  const shown = await admin(['show-organization', '--org', org, '--env-file', envFile]);
  expect(shown.code).toBe(0);
  const overview = JSON.parse(shown.stdout) as { credentials: Array<{ credentialId: string }>; phoneNumbers: unknown[] };
  expect(overview.credentials.map((credential) => credential.credentialId)).toEqual([key.credentialId]);
  expect(overview.phoneNumbers).toHaveLength(1);
  expect(shown.stdout).not.toContain(key.secret);
  expect(shown.stdout).not.toMatch(/secretHash|encryptedAccessToken|EAAG/);
}, 120_000);

test('suspend-organization and resume-organization: the kill switch through the CLI (JSON out, a missing reason refused)', async () => {
  const org = (
    JSON.parse((await admin(['create-organization', '--name', 'Kill Switch Org', '--plan', 'starter', '--env-file', envFile])).stdout) as {
      organizationId: string;
    }
  ).organizationId;
  const noReason = await admin(['suspend-organization', '--org', org, '--env-file', envFile]);
  expect(noReason.code).toBe(1);
  expect(errorOf(noReason)).toEqual({ code: 'INVALID_TENANCY_INPUT', message: '--reason is required' });

  const suspended = await admin(['suspend-organization', '--org', org, '--reason', 'chargeback', '--settle-seconds', '0', '--env-file', envFile]);
  expect(suspended.code).toBe(0);
  expect(JSON.parse(suspended.stdout)).toMatchObject({
    organization: { organizationId: org, status: 'suspended', suspensionReason: 'chargeback' },
    cancelledJobs: [],
    alreadyCancelledJobs: 0,
    finishedJobs: 0,
  });

  const resumed = await admin(['resume-organization', '--org', org, '--env-file', envFile]);
  expect(resumed.code).toBe(0);
  expect(JSON.parse(resumed.stdout)).toMatchObject({ organizationId: org, status: 'active' });
  expect(resumed.stdout).not.toContain('suspendedAt');
}, 120_000);

test('set-marketing-messages: the setting by WABA id through the CLI (JSON out, auto by default, errors as JSON)', async () => {
  const org = (
    JSON.parse((await admin(['create-organization', '--name', 'MM Org', '--plan', 'starter', '--env-file', envFile])).stdout) as { organizationId: string }
  ).organizationId;
  const connected = await admin([
    'connect-business-account',
    '--org',
    org,
    '--waba-id',
    '7101',
    '--business-id',
    '7100',
    '--name',
    'MM WABA',
    '--access-token',
    'EAAG-mm',
    '--env-file',
    envFile,
  ]);
  expect(JSON.parse(connected.stdout)).toMatchObject({ wabaId: '7101', marketingMessages: 'auto' });

  const enabled = await admin(['set-marketing-messages', '--waba', '7101', '--enabled', 'true', '--env-file', envFile]);
  expect(enabled.code).toBe(0);
  expect(JSON.parse(enabled.stdout)).toMatchObject({ organizationId: org, wabaId: '7101', marketingMessages: 'enabled' });
  expect(enabled.stdout).not.toMatch(/encryptedAccessToken|EAAG/);
  const shown = JSON.parse((await admin(['show-organization', '--org', org, '--env-file', envFile])).stdout) as {
    businessAccounts: Array<{ marketingMessages: string }>;
  };
  expect(shown.businessAccounts.map((account) => account.marketingMessages)).toEqual(['enabled']);

  const wrong = await admin(['set-marketing-messages', '--waba', '7101', '--enabled', 'maybe', '--env-file', envFile]);
  expect(wrong.code).toBe(1);
  expect(errorOf(wrong)).toEqual({ code: 'INVALID_TENANCY_INPUT', message: '--enabled must be true, false or auto' });
  const unknown = await admin(['set-marketing-messages', '--waba', '7999', '--enabled', 'auto', '--env-file', envFile]);
  expect(unknown.code).toBe(1);
  expect(errorOf(unknown)).toEqual({ code: 'BUSINESS_ACCOUNT_NOT_CONNECTED', message: 'Business account 7999 is not connected to any organization' });
}, 120_000);

test('failures are JSON on stderr with exit code 1', async () => {
  const missing = await admin(['show-organization', '--org', 'org_missing', '--env-file', envFile]);
  expect(missing.code).toBe(1);
  expect(missing.stdout).toBe('');
  expect(errorOf(missing)).toEqual({ code: 'ORGANIZATION_NOT_FOUND', message: 'Organization org_missing does not exist' });

  const unknown = await admin(['frobnicate', '--env-file', envFile]);
  expect(unknown.code).toBe(1);
  expect(errorOf(unknown).code).toBe('USAGE');
}, 60_000);

test('an unreachable emulator is reported with a hint to start the runtime', async () => {
  const deadEnv = join(directory, 'dead.env');
  writeFileSync(deadEnv, `DYNAMODB_ENDPOINT=http://127.0.0.1:9\nTENANCY_TABLE=t\nAWS_ACCESS_KEY_ID=local\nAWS_SECRET_ACCESS_KEY=local\n`);
  const result = await admin(['show-organization', '--org', 'org_x', '--env-file', deadEnv]);
  expect(result.code).toBe(1);
  const error = errorOf(result);
  expect(error.code).toBe('STORE_UNAVAILABLE');
  expect(error.message).toBe('Cannot reach DynamoDB at http://127.0.0.1:9. Is `npm start` running?');
}, 60_000);
