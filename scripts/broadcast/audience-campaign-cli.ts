/**
 * The `audience` and `campaign` commands of `npx wa-broadcast` (scripts/broadcast-cli.ts hands them
 * here): which subcommand, its arguments and options, the client of audiences and campaigns.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createCampaignClient, type CampaignClient } from '../../client/campaign-client';
import { audienceImportCommand } from './audience-import-command';
import { audienceListCommand, campaignCreateCommand, campaignLaunchCommand } from './campaign-commands';
import { campaignReportCommand, campaignWatchCommand } from './campaign-watch-report';
import type { Connection } from './cli-config';
import type { CliOutput } from './cli-output';
import { CliUsageError } from './errors';

export const audienceCampaignUsage = [
  "  npx wa-broadcast audience import <file.csv> (--name <name> | --audience <audienceId>)   add the file's people to an audience",
  '  npx wa-broadcast audience list [--limit <n>] [--cursor <c>]',
  '  npx wa-broadcast campaign create --file <campaign.json>   prints the campaignId',
  '  npx wa-broadcast campaign launch <campaignId> [--dry-run]',
  '  npx wa-broadcast campaign watch <campaignId>',
  '  npx wa-broadcast campaign report <campaignId> [--csv <file>]',
  'audience CSV: countryCode,toPhoneNumber (or phone, or userId) address a member; tags (separated by |) are tags;',
  '     every other column is an attribute of that name (values as written). Re-running the same file writes nothing.',
].join('\n');

/** The options of broadcast-cli.ts these commands read. */
export interface AudienceCampaignOptions {
  name?: string;
  audience?: string;
  file?: string;
  'dry-run'?: boolean;
  csv?: string;
  limit?: string;
  cursor?: string;
}

export interface AudienceCampaignContext {
  options: AudienceCampaignOptions;
  connection: () => Connection;
  pollIntervalMs: number;
  cwd: string;
  output: CliOutput;
}

function clientOf(context: AudienceCampaignContext): CampaignClient {
  const connection = context.connection();
  context.output.err(`broadcast API ${connection.baseUrl} (from the ${connection.source})`);
  return createCampaignClient({
    baseUrl: connection.baseUrl,
    apiKey: connection.apiKey,
    onWait: (seconds, reason) => context.output.err(`waiting ${seconds} s: ${reason}`),
    ...(context.output.sleep ? { sleep: context.output.sleep } : {}),
  });
}

/** The one id a subcommand takes, else a usage error naming the subcommand. */
function oneId(subcommand: string, rest: string[]): string {
  if (rest.length !== 1) throw new CliUsageError(`${subcommand} takes one id (got ${rest.length === 0 ? 'none' : rest.join(' ')})`);
  return rest[0]!;
}

/** Returns the exit code: 1 when an import left lines out. */
async function audienceCommand(subcommand: string | undefined, rest: string[], context: AudienceCampaignContext): Promise<number> {
  const { options, output } = context;
  if (subcommand === 'list') {
    if (rest.length > 0) throw new CliUsageError(`audience list takes no positional arguments (got ${rest.join(' ')})`);
    await audienceListCommand(
      clientOf(context),
      { ...(options.limit ? { limit: options.limit } : {}), ...(options.cursor ? { cursor: options.cursor } : {}) },
      output,
    );
    return 0;
  }
  if (subcommand !== 'import') throw new CliUsageError(subcommand ? `unknown audience command ${subcommand}` : 'audience needs a command: import or list');
  if (rest.length !== 1) throw new CliUsageError('audience import takes one file: npx wa-broadcast audience import people.csv --name "VIP customers"');
  if (Boolean(options.name) === Boolean(options.audience)) throw new CliUsageError('audience import needs either --name <name> or --audience <audienceId>');
  const filePath = resolve(context.cwd, rest[0]!);
  if (!existsSync(filePath)) throw new CliUsageError(`cannot read ${filePath}: ENOENT`);
  const target = options.audience ? { audienceId: options.audience } : { name: options.name! };
  const outcome = await audienceImportCommand(clientOf(context), { filePath, ...target }, output);
  return outcome.badLines.length > 0 ? 1 : 0;
}

async function campaignCommand(subcommand: string | undefined, rest: string[], context: AudienceCampaignContext): Promise<number> {
  const { options, output } = context;
  if (subcommand === 'create') {
    if (!options.file || rest.length > 0) throw new CliUsageError('campaign create takes --file <campaign.json> (the POST /campaigns body) and nothing else');
    await campaignCreateCommand(clientOf(context), resolve(context.cwd, options.file), output);
  } else if (subcommand === 'launch') {
    await campaignLaunchCommand(clientOf(context), oneId('campaign launch', rest), { dryRun: options['dry-run'] === true }, output);
  } else if (subcommand === 'watch') {
    await campaignWatchCommand(clientOf(context), oneId('campaign watch', rest), { pollIntervalMs: context.pollIntervalMs }, output);
  } else if (subcommand === 'report') {
    await campaignReportCommand(clientOf(context), oneId('campaign report', rest), options.csv && resolve(context.cwd, options.csv), output);
  } else {
    throw new CliUsageError(subcommand ? `unknown campaign command ${subcommand}` : 'campaign needs a command: create, launch, watch or report');
  }
  return 0;
}

/**
 * Runs `audience …` or `campaign …`; answers the exit code (errors are the caller's to map).
 *
 * @example
 * await audienceCampaignCli('audience', ['import', 'people.csv'], context);
 */
export async function audienceCampaignCli(command: 'audience' | 'campaign', arguments_: string[], context: AudienceCampaignContext): Promise<number> {
  const [subcommand, ...rest] = arguments_;
  return command === 'audience' ? audienceCommand(subcommand, rest, context) : campaignCommand(subcommand, rest, context);
}
