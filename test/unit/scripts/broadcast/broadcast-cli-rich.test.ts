/**
 * `npm run broadcast -- send` with a rich template, every HTTP request caught: the options reach
 * the request's broadcast-level fields, the cells its recipients'; a row that does not fit the
 * template's `parameters` stops the run after the template lookup with no send.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { broadcastCli, broadcastUsage } from '../../../../scripts/broadcast-cli';
import type { CliOutput } from '../../../../scripts/broadcast/send-command';
import { orderShipped, welcomeNamed } from '../../../support/rich-template-records';

const directory = mkdtempSync(join(tmpdir(), 'broadcast-cli-rich-'));
let requests: Array<{ line: string; body?: unknown }>;

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  requests = [];
  jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const request = input as Request;
    const line = `${request.method} ${new URL(request.url).pathname}`;
    if (request.method === 'GET') {
      requests.push({ line });
      return json(200, { status: true, status_code: 200, message: 'ok', data: [orderShipped, welcomeNamed] });
    }
    requests.push({ line, body: await request.json() });
    return new Response(JSON.stringify({ status: true, status_code: 200, message: 'queued', data: {} }), {
      status: 200,
      headers: { 'content-type': 'application/json', 'x-broadcast-job-id': 'pub_rich' },
    });
  });
});
afterEach(() => jest.restoreAllMocks());

async function send(csv: string, template: string, extra: string[]) {
  writeFileSync(join(directory, 'rich.csv'), csv);
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
    'rich.csv',
    '--from',
    '15550100001',
    '--template',
    template,
    '--language',
    'en_US',
    '--no-wait',
    '--base-url',
    'https://api.example/prod/api/v2',
    '--api-key',
    'bk_test',
    ...extra,
  ];
  const code = await broadcastCli(argv, output, {}, directory);
  return { code, stdout, stderr: stderr.filter((text) => !text.startsWith('broadcast API ')) };
}

describe('npm run broadcast -- send with a rich template', () => {
  it("--header-link and --button0 become the request's header and buttons; a row's own button0 cell wins for it", async () => {
    const result = await send('phone,param1,param2,button0\n+44 7700 900123,Ada,A-1042,A-1042\n+91 98765 43210,Grace,A-1043,\n', 'order_shipped', [
      '--header-link',
      'https://demo-retail.example/img/parcel.jpg',
      '--button0',
      'latest',
    ]);
    expect(result.stderr).toEqual([]);
    expect(result.code).toBe(0);
    expect(requests.map(({ line }) => line)).toEqual([
      'GET /prod/api/v2/broadcast/public/templates',
      'POST /prod/api/v2/broadcast/public/send-template-broadcast',
    ]);
    expect(requests[1]!.body).toMatchObject({
      header: { type: 'image', link: 'https://demo-retail.example/img/parcel.jpg' },
      buttons: [{ index: 0, type: 'url', text: 'latest' }],
      data: [
        { countryCode: '44', toPhoneNumber: '7700900123', templateParams: ['Ada', 'A-1042'], buttons: [{ index: 0, type: 'url', text: 'A-1042' }] },
        { countryCode: '91', toPhoneNumber: '9876543210', templateParams: ['Grace', 'A-1043'] },
      ],
    });
  });

  it('--param-<name> (either form) becomes globalTemplateParams of a named template', async () => {
    const result = await send('phone,first_name\n+44 7700 900123,Ada\n', 'welcome_named', ['--param-store', 'Covent Garden']);
    expect(result.code).toBe(0);
    expect(requests[1]!.body).toMatchObject({
      globalTemplateParams: { store: 'Covent Garden' },
      data: [{ templateParams: { first_name: 'Ada', store: 'Covent Garden' } }],
    });
    await send('phone,first_name\n+44 7700 900124,Ada\n', 'welcome_named', ['--param-store=Soho']);
    expect(requests[3]!.body).toMatchObject({ globalTemplateParams: { store: 'Soho' } });
  });

  it('stops at a row without its button value, naming the line and the column: no send, exit code 1', async () => {
    const result = await send('phone,param1,param2,button0\n+44 7700 900123,Ada,A-1042,A-1042\n+91 98765 43210,Grace,A-1043,\n', 'order_shipped', [
      '--header-link',
      'https://demo-retail.example/img/parcel.jpg',
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toEqual([
      '1 problem in the recipients file; nothing was sent',
      "  line 3: button0 is required: the template's button 0 is a URL button with a variable",
    ]);
    expect(requests.map(({ line }) => line)).toEqual(['GET /prod/api/v2/broadcast/public/templates']);
  });

  it('refuses a malformed common value before any request (exit code 2)', async () => {
    const result = await send('phone,first_name\n+44 7700 900123,Ada\n', 'welcome_named', ['--param-store', '', '--limited-time-offer', 'soon']);
    expect(result.code).toBe(2);
    expect(result.stderr[0]).toMatch(/^--param-store must not be empty\n\nusage:/);
    expect(requests).toEqual([]);
  });

  it('documents the columns and options in its help', async () => {
    for (const text of [
      'headerLink or headerMediaId',
      'button0 … button9',
      '--param-<name>',
      '--limited-time-offer <iso>',
      '--carousel-file <json>',
      'carousels cannot be given in CSV columns',
    ]) {
      expect(broadcastUsage).toContain(text);
    }
  });
});
