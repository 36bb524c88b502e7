/**
 * `npx wa-broadcast audience list` and `campaign create | launch | watch | report` against a fake
 * API on an ephemeral port: what each prints, the launch's key, the watch through WAITING_FOR_LIMIT,
 * the recipients CSV written page by page with one header.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { broadcastCli } from '../../../../scripts/broadcast-cli';
import type { CliOutput } from '../../../../scripts/broadcast/cli-output';
import { startFakeCampaignApi, type FakeCampaignApi } from '../../../support/fake-campaign-api';

const directory = mkdtempSync(join(tmpdir(), 'campaign-cli-unit-'));
let api: FakeCampaignApi;

beforeEach(async () => {
  api = await startFakeCampaignApi();
});
afterEach(async () => api.close());

async function run(argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const output: CliOutput = {
    out: (line) => stdout.push(line),
    err: (line) => stderr.push(line),
    progressStream: new PassThrough(),
    sleep: async () => undefined,
  };
  const code = await broadcastCli([...argv, '--base-url', api.baseUrl, '--api-key', 'bk_test'], output, {}, directory);
  return { code, stdout, stderr: stderr.filter((line) => !line.startsWith('broadcast API ')) };
}

const totals = (sent: number, failed = 0) => ({
  audience: 3700,
  sendable: 3349,
  queued: 3349,
  sent,
  delivered: 0,
  read: 0,
  failed,
  unknown: 0,
  optedOut: 1,
  skipped: 50,
  cancelled: 0,
});
const view = (state: string, extra: Record<string, unknown> = {}) => ({
  campaignId: 'cmp_1',
  name: 'Spring',
  state,
  totals: totals(0),
  skippedByReason: { DUPLICATE: 300, EXCLUDED: 0 },
  failuresByCode: {},
  cost: null,
  ...extra,
});

describe('audience list and campaign create', () => {
  it('lists the audiences one line each', async () => {
    api.audiences.set('contacts', { audienceId: 'contacts', name: 'contacts', createdAt: '2026-01-01T00:00:00.000Z', members: new Map([['p:1', {}]]) });
    const result = await run(['audience', 'list']);
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual(['contacts         1 members  contacts  created 2026-01-01T00:00:00.000Z']);
  });

  it('posts the file as it is and prints the campaignId alone on stdout', async () => {
    const body = {
      name: 'Spring',
      fromPhoneNumber: '15550100001',
      templateName: 'spring',
      templateLanguage: 'en_US',
      templateType: 'MARKETING',
      audience: { audienceIds: ['aud_1'] },
      templateParams: [{ attribute: 'first_name', fallback: 'there' }],
    };
    writeFileSync(join(directory, 'campaign.json'), JSON.stringify(body));
    const result = await run(['campaign', 'create', '--file', 'campaign.json']);
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual(['cmp_1']);
    expect(api.requests).toEqual([{ method: 'POST', path: '/campaigns', body }]);
  });

  it('refuses a file that is not JSON before any request (exit code 1)', async () => {
    writeFileSync(join(directory, 'broken.json'), '{ "name": ');
    const result = await run(['campaign', 'create', '--file', 'broken.json']);
    expect(result.code).toBe(1);
    expect(result.stderr[0]).toMatch(/^cannot read the campaign file .*broken\.json: /);
    expect(api.requests).toEqual([]);
  });
});

describe('campaign launch', () => {
  it('--dry-run prints the counts, the plan and the sample, and sends nothing', async () => {
    Object.assign(api.dryRun, {
      audience: { members: 3700, duplicates: 300, optedOut: 1, excluded: 0, missingAttribute: 50, invalid: 0 },
      sendable: 3349,
      estimatedCost: { amount: 83.73, currency: 'USD' },
      messagingLimit: {
        tier: 'TIER_2K',
        headroom: 2000,
        plan: [
          { from: '2026-12-02T06:00:00.000Z', recipients: 2000 },
          { from: '2026-12-03T06:00:00.000Z', recipients: 1349 },
        ],
      },
      sample: [{ to: '919876543210', templateParams: ['Ada', 'SPRING25'] }],
    });
    const result = await run(['campaign', 'launch', 'cmp_1', '--dry-run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual([
      'dry run of cmp_1: nothing was sent',
      'audience: members 3700, duplicates 300, optedOut 1, excluded 0, missingAttribute 50, invalid 0',
      'sendable: 3349',
      'estimated cost: 83.73 USD',
      'messaging limit: tier TIER_2K, headroom 2000',
      "plan (2 steps: the rest waits for the messaging limit's 24-hour window):",
      '  from 2026-12-02T06:00:00.000Z: 2000 recipients',
      '  from 2026-12-03T06:00:00.000Z: 1349 recipients',
      'sample (1 rendered message):',
      '  {"to":"919876543210","templateParams":["Ada","SPRING25"]}',
    ]);
    expect(api.requests.map((request) => request.path)).toEqual(['/campaigns/cmp_1/launch?dryRun=true']);
  });

  it('launches with a key derived from the id (the same on every run) and prints the state', async () => {
    const first = await run(['campaign', 'launch', 'cmp_1']);
    await run(['campaign', 'launch', 'cmp_1']);
    expect(first.stdout).toEqual(['campaign cmp_1: LAUNCHING']);
    expect(api.requests.map((request) => request.idempotencyKey)).toEqual(['cli-launch-cmp_1', 'cli-launch-cmp_1']);
  });
});

describe('campaign watch and report', () => {
  it('follows the campaign through WAITING_FOR_LIMIT (with waitingUntil) to its end and prints the report', async () => {
    api.campaignViews.push(
      view('SENDING', { totals: totals(1000) }),
      view('WAITING_FOR_LIMIT', { totals: totals(2000), waitingUntil: '2026-12-03T06:00:00.000Z' }),
      view('WAITING_FOR_LIMIT', { totals: totals(2000), waitingUntil: '2026-12-03T06:00:00.000Z' }),
      view('COMPLETED_WITH_FAILURES', { totals: totals(3340, 9), failuresByCode: { '131026': 9 }, cost: { amount: 83.5, currency: 'USD' } }),
    );
    const result = await run(['campaign', 'watch', 'cmp_1', '--poll-interval-ms', '0']);
    expect(result.code).toBe(0);
    expect(result.stderr.map((line) => line.slice(9))).toEqual([
      'cmp_1 SENDING',
      "cmp_1 WAITING_FOR_LIMIT until 2026-12-03T06:00:00.000Z (the messaging limit's 24-hour window frees then)",
      'cmp_1 COMPLETED_WITH_FAILURES',
    ]);
    expect(result.stdout).toEqual([
      'cmp_1 "Spring"  COMPLETED_WITH_FAILURES',
      'totals: audience 3700, sendable 3349, queued 3349, sent 3340, delivered 0, read 0, failed 9, unknown 0, optedOut 1, skipped 50, cancelled 0',
      'skipped by reason: DUPLICATE 300',
      'failures by code: 131026 9',
      'cost: 83.5 USD',
    ]);
    expect(api.requests).toHaveLength(4);
  });

  it('refuses to watch a DRAFT (exit code 1)', async () => {
    api.campaignViews.push(view('DRAFT'));
    const result = await run(['campaign', 'watch', 'cmp_1']);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual(['campaign cmp_1 is a DRAFT: launch it first (npx wa-broadcast campaign launch cmp_1)']);
  });

  it('report --csv writes every page of recipients under one header', async () => {
    api.campaignViews.push(view('COMPLETED'));
    api.recipientPages.push(
      'countryCode,toPhoneNumber,status\r\n91,9876543210,SENT\r\n',
      'countryCode,toPhoneNumber,status\r\n91,9876543211,FAILED\r\n',
      'countryCode,toPhoneNumber,status\r\n"44","7700900123",SENT\r\n',
    );
    const result = await run(['campaign', 'report', 'cmp_1', '--csv', 'cmp_1.csv']);
    expect(result.code).toBe(0);
    expect(result.stdout.at(-1)).toBe(`3 recipients of cmp_1 written to ${join(directory, 'cmp_1.csv')}`);
    expect(readFileSync(join(directory, 'cmp_1.csv'), 'utf8')).toBe(
      'countryCode,toPhoneNumber,status\r\n91,9876543210,SENT\r\n91,9876543211,FAILED\r\n"44","7700900123",SENT\r\n',
    );
    expect(api.requests.map((request) => request.path)).toEqual([
      '/campaigns/cmp_1',
      '/campaigns/cmp_1/recipients?format=csv',
      '/campaigns/cmp_1/recipients?format=csv&cursor=1',
      '/campaigns/cmp_1/recipients?format=csv&cursor=2',
    ]);
  });
});
