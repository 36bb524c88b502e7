/**
 * `npx wa-broadcast audience import` against a fake API on an ephemeral port: pages of 10,000 with
 * keys that are the same in every run (a re-run is answered from the first and writes nothing), the
 * audience found again by its name, attributes and tags from the columns, bad lines named by line.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { broadcastCli } from '../../../../scripts/broadcast-cli';
import type { CliOutput } from '../../../../scripts/broadcast/cli-output';
import { startFakeCampaignApi, type FakeCampaignApi } from '../../../support/fake-campaign-api';

const directory = mkdtempSync(join(tmpdir(), 'audience-import-unit-'));
let api: FakeCampaignApi;

jest.setTimeout(60_000);

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

const memberPosts = () => api.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/members'));

describe('audience import: pages, keys and re-runs (one fake API, one audience, in order)', () => {
  const rows = 20_001;
  const file = join(directory, 'people.csv');
  let firstKeys: Array<string | undefined>;
  beforeAll(async () => {
    api = await startFakeCampaignApi();
    const lines = ['countryCode,toPhoneNumber,first_name', ...Array.from({ length: rows }, (_, index) => `91,${9100000000 + index},Customer ${index}`)];
    writeFileSync(file, `${lines.join('\n')}\n`);
  });
  afterAll(async () => api.close());

  it('creates the audience, sends 10,000 + 10,000 + 1 with a key each, and says so', async () => {
    const result = await run(['audience', 'import', 'people.csv', '--name', 'VIP customers']);
    expect(result.code).toBe(0);
    expect(api.requests.filter((request) => request.path === '/audiences' && request.method === 'POST')).toHaveLength(1);
    expect(memberPosts().map((request) => (request.body as { members: unknown[] }).members.length)).toEqual([10_000, 10_000, 1]);
    firstKeys = memberPosts().map((request) => request.idempotencyKey);
    expect(new Set(firstKeys).size).toBe(3);
    expect(result.stderr).toEqual(['created audience aud_1 "VIP customers"']);
    expect(result.stdout).toEqual([
      '20001 rows read, 20001 members sent in 3 pages: 20001 added, 0 updated, 0 lines not imported',
      'audience aud_1 "VIP customers": 20001 members',
    ]);
    expect((memberPosts()[2]!.body as { members: unknown[] }).members).toEqual([
      { countryCode: '91', toPhoneNumber: String(9100000000 + 20_000), attributes: { first_name: 'Customer 20000' } },
    ]);
  });

  it('re-run with the same name: the same audience, the same keys, every page a replay, nothing written', async () => {
    api.requests.length = 0;
    const again = await run(['audience', 'import', 'people.csv', '--name', 'VIP customers']);
    expect(again.code).toBe(0);
    expect(api.requests.some((request) => request.method === 'POST' && request.path === '/audiences')).toBe(false);
    expect(again.stderr).toEqual(['adding to audience aud_1 "VIP customers"']);
    expect(memberPosts().map((request) => request.idempotencyKey)).toEqual(firstKeys);
    expect(again.stdout[0]).toBe('20001 rows read, 20001 members sent in 3 pages: 0 added, 0 updated, 0 lines not imported');
    expect(again.stdout[1]).toBe('3 pages answered from an earlier import of the same rows (same Idempotency-Key): nothing written again for them');
    expect(again.stdout[2]).toBe('audience aud_1 "VIP customers": 20001 members');
    expect(api.audiences.get('aud_1')!.members.size).toBe(rows);
  });

  it("--audience adds to that audience; a changed row changes only its page's key", async () => {
    writeFileSync(
      join(directory, 'changed.csv'),
      `countryCode,toPhoneNumber,first_name\n${Array.from({ length: rows }, (_, index) => `91,${9100000000 + index},${index === 20_000 ? 'Renamed' : `Customer ${index}`}`).join('\n')}\n`,
    );
    api.requests.length = 0;
    const result = await run(['audience', 'import', 'changed.csv', '--audience', 'aud_1']);
    expect(result.code).toBe(0);
    const keys = memberPosts().map((request) => request.idempotencyKey);
    expect(keys.slice(0, 2)).toEqual(firstKeys.slice(0, 2));
    expect(keys[2]).not.toBe(firstKeys[2]);
    expect(result.stdout.slice(0, 2)).toEqual([
      '20001 rows read, 20001 members sent in 3 pages: 0 added, 1 updated, 0 lines not imported',
      '2 pages answered from an earlier import of the same rows (same Idempotency-Key): nothing written again for them',
    ]);
  });
});

describe('audience import: columns and bad lines', () => {
  beforeEach(async () => {
    api = await startFakeCampaignApi();
  });
  afterEach(async () => api.close());

  it('makes every other column an attribute (as written: "042" stays a string), tags split on |, empty cells left out', async () => {
    writeFileSync(join(directory, 'columns.csv'), 'phone,first_name,zip,tags,city\n+44 7700 900123,Ada,042,vip| new ,\n,Grace,,,Pune\n');
    const result = await run(['audience', 'import', 'columns.csv', '--name', 'Columns']);
    expect((memberPosts()[0]!.body as { members: unknown[] }).members).toEqual([
      { countryCode: '44', toPhoneNumber: '7700900123', attributes: { first_name: 'Ada', zip: '042' }, tags: ['vip', 'new'] },
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr.slice(1)).toEqual(['1 line not imported:', expect.stringMatching(/^ {2}line 3: phone must be a full international number/)]);
  });

  it('names the lines the CLI cannot read and the rows the API refuses, by file line, in line order', async () => {
    const long = 'x'.repeat(1025);
    const lines = [
      'countryCode,toPhoneNumber,userId,note',
      '91,9876543210,,ok',
      '91,12,,short number',
      '91,9876543211',
      `91,9876543212,,${long}`,
      '',
      ',,US.13491208655302741918,by id',
      '91,9876543213,US.1,both',
    ];
    writeFileSync(join(directory, 'bad.csv'), `${lines.join('\n')}\n`);
    const result = await run(['audience', 'import', 'bad.csv', '--name', 'Bad']);
    expect(result.code).toBe(1);
    expect(result.stdout[0]).toBe('6 rows read, 3 members sent in 1 page: 2 added, 0 updated, 4 lines not imported');
    expect(result.stderr.slice(1)).toEqual([
      '4 lines not imported:',
      '  line 3: toPhoneNumber must have at least 4 digits',
      '  line 4: 2 fields, the header has 4',
      '  line 5: attributes.note: must be at most 1024 characters',
      '  line 8: give either a number or a userId, not both',
    ]);
  });

  it('refuses a header it cannot use before creating anything', async () => {
    writeFileSync(join(directory, 'header.csv'), 'countryCode,toPhoneNumber,first name\n91,9876543210,Ada\n');
    const result = await run(['audience', 'import', 'header.csv', '--name', 'Header']);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([
      '1 problem in the audience file; nothing was imported',
      '  line 1: column "first name" is not an attribute name (letters, digits and _, 1 to 64 characters)',
    ]);
    expect(api.requests).toEqual([]);
  });

  it('asks for --name or --audience (exit code 2)', async () => {
    writeFileSync(join(directory, 'one.csv'), 'phone\n+447700900123\n');
    expect((await run(['audience', 'import', 'one.csv'])).code).toBe(2);
    expect(api.requests).toEqual([]);
  });
});
