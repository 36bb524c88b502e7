/**
 * `npm run broadcast` against the local runtime in-process, configured only by its demo.json as a
 * user's would be: a CSV of 1,200 rows is validated, sent, followed to the end and summarised; the
 * same command again sends nothing (the Idempotency-Keys replay the first answers); the report
 * exports every recipient. Days later (the keys expired) the same file stops with the job it was
 * sent as, and `--resend` sends it again, once.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { DeleteCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { parse } from 'csv-parse/sync';
import { getServices } from '../../../functions/composition';
import { messagingKeys } from '../../../shared/adapters/dynamodb/messaging-table';
import { broadcastCli } from '../../../scripts/broadcast-cli';
import type { CliOutput } from '../../../scripts/broadcast/send-command';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

jest.setTimeout(240_000);

let runtime: TestRuntime;
let workDirectory: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  workDirectory = mkdtempSync(join(tmpdir(), 'broadcast-cli-it-'));
}, 120_000);
afterAll(async () => {
  await runtime?.close();
});

function capture(): CliOutput & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (line) => stdout.push(line), err: (line) => stderr.push(line), progressStream: new PassThrough() };
}

const run = async (argv: string[]) => {
  const output = capture();
  const code = await broadcastCli([...argv, '--demo-file', join(runtime.dataDirectory, 'demo.json')], output, {}, workDirectory);
  return { code, ...output };
};

const sendArgs = (csv: string) => [
  'send',
  '--csv',
  csv,
  '--from',
  runtime.demo.phoneNumbers[0]!,
  '--template',
  'order_update',
  '--language',
  'en_US',
  '--poll-interval-ms',
  '500',
];

describe('npm run broadcast against the local runtime', () => {
  const rows = 1200;
  let jobId: string;

  it('sends a CSV of 1,200 rows as one job, follows it to COMPLETED and prints the summary', async () => {
    // Half the rows with the full number in one column would need another file; this one uses the split columns.
    const lines = [
      'countryCode,toPhoneNumber,param1,param2',
      ...Array.from({ length: rows }, (_, index) => `91,${9100000000 + index},Customer ${index},A-${index}`),
    ];
    writeFileSync(join(workDirectory, 'march.csv'), `${lines.join('\n')}\n`);
    const before = runtime.sandbox!.acceptedMessages().length;

    const result = await run(sendArgs('march.csv'));

    expect(result.stderr.filter((line) => !line.startsWith('broadcast API '))).toEqual([]);
    expect(result.code).toBe(0);
    expect(result.stdout[0]).toBe('1200 recipients in 1 request of up to 10,000; template order_update (en_US, UTILITY)');
    const accepted = /^part 1 of 1 \(lines 2-1201, 1200 recipients\): job (pub_\S+): /.exec(result.stdout[1]!);
    expect(accepted).not.toBeNull();
    jobId = accepted![1]!;
    expect(result.stdout).toContainEqual(
      expect.stringMatching(
        new RegExp(`^${jobId}  COMPLETED  1200 recipients: sent 1200, delivered 0, read 0, failed 0, unknown 0, unconfirmed 0, cancelled 0, pending 0$`),
      ),
    );
    expect(result.stdout).toContainEqual(
      'overall  1 job  1200 recipients: sent 1200, delivered 0, read 0, failed 0, unknown 0, unconfirmed 0, cancelled 0, pending 0',
    );
    expect(runtime.sandbox!.acceptedMessages().length - before).toBe(rows);
    const first = runtime
      .sandbox!.acceptedMessages()
      .slice(before)
      .find((message) => JSON.stringify(message).includes('919100000007'));
    expect(JSON.stringify(first)).toContain('Customer 7');
  });

  it('sends nothing when the same file is sent again: the same job answers, the sandbox count is unchanged', async () => {
    const before = runtime.sandbox!.acceptedMessages().length;
    const result = await run(sendArgs('march.csv'));
    expect(result.code).toBe(0);
    expect(result.stdout[1]).toBe(
      `part 1 of 1 (lines 2-1201, 1200 recipients): job ${jobId}: sent before with this file (same Idempotency-Key): nothing sent again, following it`,
    );
    expect(result.stdout[2]).toBe('a replay: every part was sent before with this file, nothing new was sent; the summary below is of those jobs');
    expect(result.stdout).toContainEqual(expect.stringMatching(new RegExp(`^${jobId}  COMPLETED  1200 recipients: sent 1200`)));
    // Give any (wrongly) queued chunk time to reach the sandbox before counting.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(runtime.sandbox!.acceptedMessages().length).toBe(before);
  });

  it('watch follows a job by id to its summary; list shows it among the latest broadcasts', async () => {
    const watched = await run(['watch', jobId, '--poll-interval-ms', '100']);
    expect(watched.code).toBe(0);
    expect(watched.stdout).toContainEqual(expect.stringMatching(new RegExp(`^${jobId}  COMPLETED  1200 recipients: sent 1200`)));
    expect(watched.stdout.at(-1)).toBe(`  npm run -s broadcast -- report ${jobId} --out ${jobId}.csv`);

    const listed = await run(['list', '--limit', '5']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContainEqual(expect.stringMatching(new RegExp(`^${jobId}  COMPLETED +  1200/1200  march  order_update \\(en_US\\)  created 20`)));
    expect((await run(['watch'])).code).toBe(2);
  });

  it('exports every recipient of the job with its status to --out', async () => {
    const result = await run(['report', jobId, '--out', 'results.csv']);
    expect(result.code).toBe(0);
    expect(result.stdout).toEqual([`1200 recipients of ${jobId} (COMPLETED) written to ${join(workDirectory, 'results.csv')}`]);
    const records = parse(readFileSync(join(workDirectory, 'results.csv')), { columns: true }) as Array<Record<string, string>>;
    expect(records).toHaveLength(rows);
    expect(new Set(records.map((record) => `${record.countryCode}${record.toPhoneNumber}`)).size).toBe(rows);
    expect(records.every((record) => record.status === 'SENT' && record.messageId!.length > 0)).toBe(true);
    expect(records[0]).toMatchObject({ countryCode: '91', toPhoneNumber: '9100000000' });
  });

  it('refuses a file with a bad row, naming its line and rule, and sends nothing', async () => {
    writeFileSync(join(workDirectory, 'bad.csv'), 'phone,param1,param2\n+91 98765 43210,Ada,A-1\n+91 98765-4321O,Bob,B-2\n');
    const before = runtime.sandbox!.acceptedMessages().length;
    const result = await run(sendArgs('bad.csv'));
    expect(result.code).toBe(1);
    expect(result.stderr.filter((line) => !line.startsWith('broadcast API '))).toEqual([
      '1 problem in the recipients file; nothing was sent',
      '  line 3: phone must be a full international number: digits, optionally a leading + and spaces or hyphens',
    ]);
    expect(runtime.sandbox!.acceptedMessages().length).toBe(before);
  });

  it('refuses a file whose parameter columns do not match the template body', async () => {
    writeFileSync(join(workDirectory, 'one-param.csv'), 'phone,param1\n+44 7700 900123,Ada\n');
    const result = await run(sendArgs('one-param.csv'));
    expect(result.code).toBe(1);
    expect(result.stderr.filter((line) => !line.startsWith('broadcast API '))).toEqual([
      '1 problem in the recipients file; nothing was sent',
      '  line 1: template order_update (en_US) has 2 body parameters; the file has 1 param column (param1 … paramN, one per parameter)',
    ]);
  });

  it('days later the same file stops with the job it was sent as; --resend sends it again once, and a repeat of that resend replays', async () => {
    writeFileSync(join(workDirectory, 'weekly.csv'), 'countryCode,toPhoneNumber,param1,param2\n91,9150000000,Ada,W-1\n91,9150000001,Bob,W-2\n');
    const sentTo = () => runtime.sandbox!.acceptedMessages().filter((message) => message.recipient.startsWith('9191500000')).length;
    const first = await run([...sendArgs('weekly.csv'), '--no-wait']);
    expect(first.code).toBe(0);
    const weeklyJob = /: job (pub_\S+): /.exec(first.stdout[1]!)![1]!;
    await runtime.workersIdle();
    expect(sentTo()).toBe(2);

    // Three days pass: the key's record is gone (TTL), the job (kept 90 days) is three days old.
    const services = getServices();
    const records = (await services.clients.dynamoDb.send(new ScanCommand({ TableName: services.config.tableNames.idempotency }))).Items ?? [];
    for (const record of records)
      await services.clients.dynamoDb.send(new DeleteCommand({ TableName: services.config.tableNames.idempotency, Key: { pk: record.pk } }));
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toISOString();
    await services.clients.dynamoDb.send(
      new UpdateCommand({
        TableName: services.config.tableNames.messaging,
        Key: messagingKeys.job(weeklyJob),
        UpdateExpression: 'SET createdAt = :at',
        ExpressionAttributeValues: { ':at': threeDaysAgo },
      }),
    );

    const again = await run(sendArgs('weekly.csv'));
    expect(again.code).toBe(1);
    expect(again.stderr.filter((line) => !line.startsWith('broadcast API '))).toEqual([
      `this file was already sent as job ${weeklyJob} on ${threeDaysAgo.slice(0, 10)} ${threeDaysAgo.slice(11, 16)} UTC; run again with --resend to send it again`,
    ]);
    await runtime.workersIdle();
    expect(sentTo()).toBe(2);

    const resent = await run([...sendArgs('weekly.csv'), '--resend']);
    expect(resent.code).toBe(0);
    expect(resent.stderr).toContainEqual(
      expect.stringMatching(new RegExp(`^this file was already sent as job ${weeklyJob} on .*; sending it again \\(--resend\\)$`)),
    );
    const resentJob = /: job (pub_\S+): /.exec(resent.stdout[1]!)![1]!;
    expect(resentJob).not.toBe(weeklyJob);
    expect(resent.stdout).toContainEqual(expect.stringMatching(new RegExp(`^${resentJob}  COMPLETED  2 recipients: sent 2`)));
    // The same resend run again (a crash, a lost answer): the resend's answer, nothing sent a third time.
    const repeated = await run([...sendArgs('weekly.csv'), '--resend', '--no-wait']);
    expect(repeated.code).toBe(0);
    expect(repeated.stdout[1]).toContain(`job ${resentJob}: `);
    await runtime.workersIdle();
    expect(sentTo()).toBe(4);
  });
});
