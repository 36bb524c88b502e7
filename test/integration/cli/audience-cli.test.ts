/**
 * `npx wa-broadcast audience import` against the local runtime in-process, configured only by its
 * demo.json as a user's would be: a file of 20,000 people streams in two pages of 10,000 into a new
 * audience; running the same command again finds the audience by its name and changes nothing
 * (every page answered from the first run's Idempotency-Key, memberCount unchanged); the same people
 * in another file (other pages, so other keys) reach the API itself, which adds no one.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { createCampaignClient } from '../../../client/campaign-client';
import { broadcastCli } from '../../../scripts/broadcast-cli';
import { audienceImportCommand } from '../../../scripts/broadcast/audience-import-command';
import { resolveConnection } from '../../../scripts/broadcast/cli-config';
import type { CliOutput } from '../../../scripts/broadcast/cli-output';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

// 20,000 upserts on dynalite: seconds on an idle machine, minutes on a loaded one.
jest.setTimeout(600_000);

let runtime: TestRuntime;
let workDirectory: string;
// AUDIENCE_CLI_ROWS: fewer rows on a machine too loaded for dynalite to write 10,000 members within the route's 29 s.
const rows = Number(process.env.AUDIENCE_CLI_ROWS ?? 20_000);
const pages = Math.ceil(rows / 10_000);
const plural = (count: number) => (count === 1 ? 'page' : 'pages');

beforeAll(async () => {
  runtime = await startTestRuntime();
  workDirectory = mkdtempSync(join(tmpdir(), 'audience-cli-it-'));
  const lines = [
    'phone,first_name,city,tags',
    ...Array.from(
      { length: rows },
      (_, index) => `+91 ${9100000000 + index},Customer ${index},${index % 2 === 0 ? 'Pune' : 'Mumbai'},${index % 10 === 0 ? 'vip|new' : 'new'}`,
    ),
  ];
  writeFileSync(join(workDirectory, 'people.csv'), `${lines.join('\n')}\n`);
}, 120_000);
afterAll(async () => {
  await runtime?.close();
});

function capture(): CliOutput & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line), progressStream: new PassThrough() };
}

/** stderr without the connection line and the client's waits (a loaded machine's 503s, retried). */
const notes = (stderr: string[]) => stderr.filter((line) => !line.startsWith('broadcast API ') && !line.startsWith('waiting '));

const demoFile = () => join(runtime.dataDirectory, 'demo.json');

const run = async (argv: string[]) => {
  const output = capture();
  const code = await broadcastCli([...argv, '--demo-file', demoFile()], output, {}, workDirectory);
  return { code, ...output };
};

const client = () => {
  const connection = resolveConnection({ 'demo-file': demoFile() }, {}, workDirectory);
  return createCampaignClient({ baseUrl: connection.baseUrl, apiKey: connection.apiKey });
};

/** The member of that national number, paging `GET /audiences/{id}/members`. */
async function findMember(audienceId: string, toPhoneNumber: string): Promise<Record<string, unknown> | undefined> {
  let cursor: string | null = null;
  do {
    const page = await runtime.call(
      'GET',
      `/prod/api/v2/broadcast/public/audiences/${audienceId}/members?limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      { headers: { 'x-api-key': runtime.demo.apiKey } },
    );
    expect(page.status).toBe(200);
    const found = (page.body.data.members as Array<Record<string, unknown>>).find((member) => member.toPhoneNumber === toPhoneNumber);
    if (found) return found;
    cursor = page.body.data.nextCursor as string | null;
  } while (cursor);
  return undefined;
}

describe('npx wa-broadcast audience import against the local runtime', () => {
  let audienceId: string;

  it('imports 20,000 rows into a new audience in pages of 10,000, with their attributes and tags', async () => {
    const result = await run(['audience', 'import', 'people.csv', '--name', 'VIP customers']);
    expect(notes(result.stderr)).toEqual([expect.stringMatching(/^created audience aud_\S+ "VIP customers"$/)]);
    expect(result.code).toBe(0);
    audienceId = /audience (aud_\S+)/.exec(result.stderr.join('\n'))![1]!;
    // A page the service failed midway (a 503 from a loaded store) is retried with its key: some of its rows may then count as updated.
    const counts = new RegExp(
      `^${rows} rows read, ${rows} members sent in ${pages} ${plural(pages)}: (\\d+) added, (\\d+) updated, 0 lines not imported$`,
    ).exec(result.stdout[0]!);
    expect(Number(counts![1]) + Number(counts![2])).toBe(rows);
    expect(result.stdout[1]).toBe(`audience ${audienceId} "VIP customers": ${rows} members`);
    expect(await findMember(audienceId, '9100000010')).toMatchObject({
      countryCode: '91',
      attributes: { first_name: 'Customer 10', city: 'Pune' },
      tags: ['vip', 'new'],
    });
  });

  it('running the same command again finds the audience by name and changes nothing', async () => {
    const result = await run(['audience', 'import', 'people.csv', '--name', 'VIP customers']);
    expect(result.code).toBe(0);
    expect(notes(result.stderr)).toEqual([`adding to audience ${audienceId} "VIP customers"`]);
    expect(result.stdout).toEqual([
      `${rows} rows read, ${rows} members sent in ${pages} ${plural(pages)}: 0 added, 0 updated, 0 lines not imported`,
      `${pages} ${plural(pages)} answered from an earlier import of the same rows (same Idempotency-Key): nothing written again for ${pages === 1 ? 'it' : 'them'}`,
      `audience ${audienceId} "VIP customers": ${rows} members`,
    ]);
    expect((await client().audience(audienceId)).memberCount).toBe(rows);
    const listed = await client().listAudiences();
    expect(listed.audiences.filter((audience) => audience.name === 'VIP customers')).toHaveLength(1);
  });

  it('a twentieth of the same people in another file (other pages, other keys) reach the API itself, which adds no one', async () => {
    const sampleSize = Math.ceil(rows / 20);
    const sample = [
      'phone,first_name,city,tags',
      ...Array.from(
        { length: sampleSize },
        (_, index) => `+91 ${9100000000 + index * 20},Customer ${index * 20},${index % 2 === 0 ? 'Pune' : 'Mumbai'},${index % 10 === 0 ? 'vip|new' : 'new'}`,
      ),
    ];
    writeFileSync(join(workDirectory, 'sample.csv'), `${sample.join('\n')}\n`);
    const outcome = await audienceImportCommand(client(), { filePath: join(workDirectory, 'sample.csv'), audienceId }, capture());
    expect(outcome).toMatchObject({ pages: 1, replayedPages: 0, added: 0, updated: sampleSize, badLines: [], memberCount: rows });
  });
});
