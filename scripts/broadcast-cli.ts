/**
 * `npm run broadcast -- send --csv recipients.csv --from <number> --template <name> --language <code> [--schedule <iso>] [values for every row]`
 * `npm run broadcast -- report <jobId> [--out results.csv]`
 * `npx wa-broadcast audience import people.csv --name "VIP customers"`, `audience list`, `campaign create|launch|watch|report`
 *   (scripts/broadcast/audience-campaign-cli.ts)
 *
 * Sends a campaign from a CSV through the typed client of the broadcast API and follows it; exports
 * per-recipient results. Locally it reads `.local/demo.json`; elsewhere `--base-url`/`--api-key` or
 * BROADCAST_BASE_URL/BROADCAST_API_KEY. Exit codes: 0 done, 1 refused (bad rows, an API refusal),
 * 2 bad options. README "Send a campaign from a CSV".
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { BroadcastApiError, createBroadcastClient } from '../client/broadcast-client';
import { resolveConnection } from './broadcast/cli-config';
import { commonValueOptions, commonValuesOf, extractParamOptions } from './broadcast/common-values';
import { AlreadySentError, AudienceFileError, CampaignCommandError, CliUsageError, RecipientsFileError, TemplateChoiceError } from './broadcast/errors';
import { audienceCampaignCli, audienceCampaignUsage } from './broadcast/audience-campaign-cli';
import { reportCommand } from './broadcast/report-command';
import { listCommand, watchCommand } from './broadcast/watch-and-list-commands';
import { printProblems, sendCommand, type CliOutput } from './broadcast/send-command';

export const broadcastUsage = [
  'usage:',
  '  npm run broadcast -- send --csv <file> --from <number> --template <name> --language <code> [--schedule <iso>] [--name <label>] [--no-wait] [--resend] [values for every row]',
  '  npm run broadcast -- report <jobId> [--out <file>]',
  '  npm run broadcast -- watch <jobId> [<jobId> …]   follow jobs to their end (progress bar, then the summary)',
  '  npm run broadcast -- list [--status <state>] [--limit <n>] [--cursor <c>]   the latest broadcasts, newest first',
  audienceCampaignUsage,
  '',
  "CSV: a header row with countryCode,toPhoneNumber (or phone, the full international number), then the template's values:",
  '     param1 … paramN   the body parameters in order (a positional template: {{1}} … {{N}})',
  "     first_name, …     a named template's body parameters, one column per name",
  '     headerLink or headerMediaId (+ headerFilename for a document)   an IMAGE, VIDEO or DOCUMENT header',
  '     headerText        a text header with a variable',
  '     headerLatitude, headerLongitude (+ headerName, headerAddress)   a LOCATION header',
  "     button0 … button9 the button at that index: a URL button's variable, a COPY_CODE button's coupon code,",
  "                       a QUICK_REPLY button's payload (optional)",
  "     every row and option is checked with the API's rules and the template's parameters before anything is sent.",
  "values for every row (a row's own non-empty cell wins): --header-link <url>, --header-media-id <id>, --header-text <text>,",
  '     --header-filename <name>, --header-latitude=<deg> --header-longitude=<deg> --header-name <name> --header-address <text>,',
  '     --button0 <value> … --button9 <value>, --param-<name> <value> (a named parameter)',
  "     --limited-time-offer <iso>   the offer's expiry (a template with a limited-time offer)",
  "     --carousel-file <json>       the request's carousel array, one card per template card, the same for every row",
  '                                  (carousels cannot be given in CSV columns)',
  'connection: --base-url <broadcast API URL ending in /prod/api/v2> --api-key <key>, or BROADCAST_BASE_URL / BROADCAST_API_KEY;',
  '     locally neither is needed: they come from .local/demo.json (written by npm start). --demo-file <path> reads another file.',
  'other: --poll-interval-ms <ms> between status polls (default 2000: the status limit is 30 a minute per key)',
  '     --resend: send again a file the service reports as already sent (more than 48 hours ago); without it such a file stops the run',
].join('\n');

const optionSpec = {
  csv: { type: 'string' },
  from: { type: 'string' },
  template: { type: 'string' },
  language: { type: 'string' },
  schedule: { type: 'string' },
  name: { type: 'string' },
  'no-wait': { type: 'boolean' },
  resend: { type: 'boolean' },
  out: { type: 'string' },
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  'demo-file': { type: 'string' },
  'poll-interval-ms': { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  audience: { type: 'string' },
  file: { type: 'string' },
  'dry-run': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  ...commonValueOptions,
} as const;

const defaultOutput = (): CliOutput => ({
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  progressStream: process.stderr,
});

/** Runs one command; returns the exit code. */
export async function broadcastCli(
  argv: string[],
  output: CliOutput = defaultOutput(),
  environment: NodeJS.ProcessEnv = process.env,
  cwd = process.cwd(),
): Promise<number> {
  try {
    const { argv: rest, params } = extractParamOptions(argv);
    let parsed;
    try {
      parsed = parseArgs({ args: rest, options: optionSpec, allowPositionals: true, strict: true });
    } catch (error) {
      throw new CliUsageError((error as Error).message);
    }
    const { values, positionals } = parsed;
    const [command, ...arguments_] = positionals;
    if (values.help) {
      output.out(broadcastUsage);
      return 0;
    }
    const connection = () => resolveConnection(values, environment, cwd);
    const pollIntervalMs = values['poll-interval-ms'] === undefined ? 2000 : Number(values['poll-interval-ms']);
    if (!Number.isInteger(pollIntervalMs) || pollIntervalMs < 0) throw new CliUsageError('--poll-interval-ms must be a whole number of milliseconds');
    if (command === 'audience' || command === 'campaign')
      return await audienceCampaignCli(command, arguments_, { options: values, connection, pollIntervalMs, cwd, output });
    if (command === 'watch') {
      if (arguments_.length === 0) throw new CliUsageError('watch takes one or more job ids: npm run broadcast -- watch <jobId>');
      await watchCommand(clientFor(connection(), output), arguments_, { pollIntervalMs }, output);
      return 0;
    }
    if (command === 'list') {
      if (arguments_.length > 0) throw new CliUsageError(`list takes no positional arguments (got ${arguments_.join(' ')})`);
      const query = {
        ...(values.status ? { status: values.status } : {}),
        ...(values.limit ? { limit: values.limit } : {}),
        ...(values.cursor ? { cursor: values.cursor } : {}),
      };
      await listCommand(clientFor(connection(), output), query, output);
      return 0;
    }
    if (command === 'send') {
      if (arguments_.length > 0) throw new CliUsageError(`send takes no positional arguments (got ${arguments_.join(' ')})`);
      const missing = (['csv', 'from', 'template', 'language'] as const).filter((name) => !values[name]);
      if (missing.length > 0) throw new CliUsageError(`send needs ${missing.map((name) => `--${name}`).join(', ')}`);
      const csvPath = resolve(cwd, values.csv!);
      let fileContent: Buffer;
      try {
        fileContent = readFileSync(csvPath);
      } catch (error) {
        throw new CliUsageError(`cannot read --csv ${csvPath}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
      }
      const common = commonValuesOf(values, params, cwd);
      const client = clientFor(connection(), output);
      await sendCommand(
        client,
        {
          csvPath,
          fileContent,
          fromPhoneNumber: values.from!,
          templateName: values.template!,
          templateLanguage: values.language!,
          ...(values.schedule ? { scheduledAt: values.schedule } : {}),
          ...(values.name ? { broadcastName: values.name } : {}),
          wait: !values['no-wait'],
          pollIntervalMs,
          resend: values.resend === true,
          common,
        },
        output,
      );
      return 0;
    }
    if (command === 'report') {
      if (arguments_.length !== 1) throw new CliUsageError('report takes one job id: npm run broadcast -- report <jobId> --out results.csv');
      await reportCommand(clientFor(connection(), output), arguments_[0]!, values.out && resolve(cwd, values.out), output);
      return 0;
    }
    throw new CliUsageError(command ? `unknown command ${command}` : 'no command given');
  } catch (error) {
    if (error instanceof RecipientsFileError || error instanceof AudienceFileError) {
      printProblems(error, output);
      return 1;
    }
    if (
      error instanceof BroadcastApiError ||
      error instanceof TemplateChoiceError ||
      error instanceof AlreadySentError ||
      error instanceof CampaignCommandError
    ) {
      output.err(error.message);
      return 1;
    }
    if (error instanceof CliUsageError) {
      output.err(`${error.message}\n\n${broadcastUsage}`);
      return 2;
    }
    throw error;
  }
}

function clientFor(connection: ReturnType<typeof resolveConnection>, output: CliOutput) {
  output.err(`broadcast API ${connection.baseUrl} (from the ${connection.source})`);
  return createBroadcastClient({
    baseUrl: connection.baseUrl,
    apiKey: connection.apiKey,
    onWait: (seconds, reason) => output.err(`waiting ${seconds} s: ${reason}`),
    ...(output.sleep ? { sleep: output.sleep } : {}),
  });
}

if (require.main === module) {
  broadcastCli(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
