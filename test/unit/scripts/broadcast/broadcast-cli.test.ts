/**
 * `npm run broadcast -- send` end to end in-process, with every HTTP request caught: a file the API
 * would refuse stops at its line before any request, the API's rule in the CLI's words.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { broadcastCli } from '../../../../scripts/broadcast-cli';
import type { CliOutput } from '../../../../scripts/broadcast/send-command';

const directory = mkdtempSync(join(tmpdir(), 'broadcast-cli-unit-'));
let requests: string[];

beforeEach(() => {
  requests = [];
  // The client's requests go through fetch: each is recorded and refused as an unknown key would be.
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    requests.push(input instanceof Request ? `${input.method} ${new URL(input.url).pathname}` : String(input));
    return new Response(JSON.stringify({ status: false, status_code: 401, message: 'Invalid API key' }), {
      status: 401,
      headers: { 'content-type': 'application/json' },
    });
  });
});
afterEach(() => jest.restoreAllMocks());

async function send(csv: string, extra: string[] = []) {
  writeFileSync(join(directory, 'march.csv'), csv);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const output: CliOutput = {
    out: (line) => stdout.push(line),
    err: (line) => stderr.push(line),
    progressStream: new PassThrough(),
    sleep: async () => undefined,
  };
  const argv = [
    'send',
    '--csv',
    'march.csv',
    '--from',
    '15550100001',
    '--template',
    'order_update',
    '--language',
    'en_US',
    '--base-url',
    'https://api.example/prod/api/v2',
    '--api-key',
    'bk_test',
    ...extra,
  ];
  const code = await broadcastCli(argv, output, {}, directory);
  return { code, stdout, stderr: stderr.filter((line) => !line.startsWith('broadcast API ')) };
}

describe('npm run broadcast -- send, refusing before any request', () => {
  it("names line 3 (91,12: a toPhoneNumber of 2 digits) with the API's rule and makes no HTTP request", async () => {
    const result = await send('countryCode,toPhoneNumber,param1,param2\n91,9876543210,Ada,A-1\n91,12,A,B\n');
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual(['1 problem in the recipients file; nothing was sent', '  line 3: toPhoneNumber must have at least 4 digits']);
    expect(requests).toEqual([]);
  });

  it('reaches the API with the same file once line 3 is valid (the requests above would have been seen)', async () => {
    const result = await send('countryCode,toPhoneNumber,param1,param2\n91,9876543210,Ada,A-1\n91,9876543211,A,B\n');
    expect(requests).toEqual(['GET /prod/api/v2/broadcast/public/templates']);
    expect(result.code).toBe(1);
  });

  it("refuses an option the API would refuse, naming the option and the API's rule, with no HTTP request", async () => {
    const result = await send('countryCode,toPhoneNumber,param1,param2\n91,9876543210,Ada,A-1\n', ['--schedule', 'tomorrow']);
    expect(result.code).toBe(2);
    expect(result.stderr[0]).toMatch(/^--schedule: scheduledAt must be an ISO 8601 date and time with a UTC offset or Z/);
    expect(requests).toEqual([]);
  });
});

describe('npm run broadcast -- send, a file the service reports as sent before', () => {
  it('prints "already sent as job … on …" with the way to send it again, exit code 1', async () => {
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const request = input as Request;
      requests.push(`${request.method} ${new URL(request.url).pathname}`);
      if (request.method === 'GET') {
        const template = {
          name: 'order_update',
          language: 'en_US',
          category: 'UTILITY',
          status: 'APPROVED',
          components: [{ type: 'BODY', text: 'Hi {{1}}, {{2}}' }],
        };
        return new Response(JSON.stringify({ status: true, status_code: 200, message: 'ok', data: [template] }), {
          status: 200,
          headers: { 'content-type': 'application/json' },
        });
      }
      const message =
        'This Idempotency-Key was already used for job pub_march, accepted at 2026-03-01T09:00:00.000Z; a key can be retried for 48 hours only. Nothing was queued: use a new key to send this broadcast again';
      const error = { code: 'IDEMPOTENCY_KEY_REUSED', message, earlierJob: { jobId: 'pub_march', acceptedAt: '2026-03-01T09:00:00.000Z' } };
      return new Response(JSON.stringify({ status: false, status_code: 422, message, data: { error } }), {
        status: 422,
        headers: { 'content-type': 'application/json' },
      });
    });
    const result = await send('countryCode,toPhoneNumber,param1,param2\n91,9876543210,Ada,A-1\n');
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual(['this file was already sent as job pub_march on 2026-03-01 09:00 UTC; run again with --resend to send it again']);
    expect(requests.filter((line) => line.startsWith('POST'))).toHaveLength(1);
  });
});
