/**
 * `npm run broadcast` with rich templates against the local runtime in-process: the README's
 * commands for the example files send every row through the platform to the sandbox (which checks
 * each send as Meta would), with the header, button and named values each row and option gives;
 * a file that lacks a value the template needs stops before any request, naming line and column.
 */
import { copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { broadcastCli } from '../../../scripts/broadcast-cli';
import type { CliOutput } from '../../../scripts/broadcast/send-command';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

jest.setTimeout(120_000);

let runtime: TestRuntime;
let workDirectory: string;

beforeAll(async () => {
  runtime = await startTestRuntime();
  workDirectory = mkdtempSync(join(tmpdir(), 'broadcast-cli-rich-'));
  for (const file of ['order-shipped.csv', 'welcome-named.csv', 'carousel-cards.json'])
    copyFileSync(join(__dirname, '../../../examples', file), join(workDirectory, file));
}, 120_000);
afterAll(async () => {
  await runtime?.close();
});

async function run(argv: string[]) {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const output: CliOutput = { out: (line) => stdout.push(line), err: (line) => stderr.push(line), progressStream: new PassThrough() };
  const code = await broadcastCli([...argv, '--demo-file', join(runtime.dataDirectory, 'demo.json'), '--poll-interval-ms', '300'], output, {}, workDirectory);
  return { code, stdout, stderr };
}

const send = (csv: string, template: string, language: string, ...options: string[]) =>
  run(['send', '--csv', csv, '--from', runtime.demo.phoneNumbers[0]!, '--template', template, '--language', language, ...options]);

type Component = { type: string; sub_type?: string; index?: string; parameters?: Array<Record<string, any>>; cards?: unknown[] };
const componentsTo = (recipient: string): Component[] => {
  const message = runtime.sandbox!.acceptedMessages().find((accepted) => accepted.recipient === recipient);
  if (!message) throw new Error(`nothing reached ${recipient}`);
  return (message.body as { template: { components: Component[] } }).template.components;
};

describe('npm run broadcast with rich templates', () => {
  it('order-shipped.csv: the option header for every row but the one with its own link, each row its own URL button', async () => {
    runtime.sandbox!.reset();
    const result = await send('order-shipped.csv', 'order_shipped', 'en_US', '--header-link', 'https://demo-retail.example/img/parcel.jpg');
    expect(result.stderr.filter((line) => !line.startsWith('broadcast API '))).toEqual([]);
    expect(result.code).toBe(0);
    expect(runtime.sandbox!.acceptedMessages()).toHaveLength(5);
    expect(componentsTo('447700900123')).toEqual([
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://demo-retail.example/img/parcel.jpg' } }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'Ada' },
          { type: 'text', text: 'A-1042' },
        ],
      },
      { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'A-1042' }] },
    ]);
    expect(componentsTo('4915123456789')[0]).toEqual({
      type: 'header',
      parameters: [{ type: 'image', image: { link: 'https://demo-retail.example/img/parcel-large.jpg' } }],
    });
  });

  it('welcome-named.csv: values by name, --param-store for the rows that leave it empty', async () => {
    runtime.sandbox!.reset();
    const result = await send('welcome-named.csv', 'welcome_named', 'en_US', '--param-store', 'Demo Retail Online');
    expect(result.code).toBe(0);
    expect(runtime.sandbox!.acceptedMessages()).toHaveLength(5);
    const valuesOf = (recipient: string) => componentsTo(recipient)[0]!.parameters!.map(({ parameter_name, text }) => [parameter_name, text]);
    expect(valuesOf('447700900123')).toEqual(
      expect.arrayContaining([
        ['first_name', 'Ada'],
        ['store', 'Covent Garden'],
      ]),
    );
    expect(valuesOf('4915123456789')).toEqual(
      expect.arrayContaining([
        ['first_name', 'Linus'],
        ['store', 'Demo Retail Online'],
      ]),
    );
  });

  it('carousel-cards.json: both cards to every row of a carousel template', async () => {
    runtime.sandbox!.reset();
    writeFileSync(join(workDirectory, 'picks.csv'), 'phone,param1\n+44 7700 900200,Ada\n+44 7700 900201,Grace\n');
    const result = await send('picks.csv', 'spring_carousel', 'en', '--carousel-file', 'carousel-cards.json');
    expect(result.code).toBe(0);
    const carousel = componentsTo('447700900201').find((component) => component.type === 'carousel');
    expect(carousel?.cards).toHaveLength(2);
  });

  it('a file without the button value the template needs stops before any request, naming the column (line 1, the header)', async () => {
    runtime.sandbox!.reset();
    writeFileSync(join(workDirectory, 'no-button.csv'), 'phone,param1,param2\n+44 7700 900300,Ada,A-1\n');
    const result = await send('no-button.csv', 'order_shipped', 'en_US', '--header-link', 'https://demo-retail.example/img/parcel.jpg');
    expect(result.code).not.toBe(0);
    expect(result.stderr.join('\n')).toMatch(
      /line 1: button0 is required: the template's button 0 is a URL button with a variable; add a button0 column or give --button0/,
    );
    expect(runtime.sandbox!.acceptedMessages()).toHaveLength(0);
  });
});
