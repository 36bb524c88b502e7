/**
 * Operators' CLI: `npm run admin -- <command> [--flag value ...]`.
 *
 * Prints the command's result as JSON on stdout; on failure prints `{"error":{"code","message"}}`
 * on stderr and exits with 1. The commands themselves live in shared/tenancy/admin-commands.ts and
 * (the Meta app and its webhook events) shared/meta-app/meta-app-admin-commands.ts.
 *
 * Configuration comes from the environment (as parseAppConfig reads it). With `--env-file <path>`,
 * or when neither DYNAMODB_ENDPOINT nor TENANCY_TABLE is set and `.local/runtime.env` exists (the
 * local runtime writes it while it runs), KEY=VALUE lines from that file are applied to the process
 * environment first and win over it, so the CLI uses exactly the runtime's endpoints, tables,
 * credentials and token key.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArguments, parseEnvFile, UsageError } from './admin-arguments';
import { cloudFormationDescriber, readStackEnvironment } from './stack-environment';
import { buildServices, type Services } from '../functions/composition';
import { ConfigurationError, parseAppConfig } from '../shared/config/app-config';
import { isMetaAppAdminCommandName, metaAppAdminCommands, runMetaAppAdminCommand } from '../shared/meta-app/meta-app-admin-commands';
import {
  adminCommands as tenancyAdminCommands,
  isAdminCommandName,
  runAdminCommand,
  type AdminFlag,
  type AdminFlagValues,
} from '../shared/tenancy/admin-commands';
import { TenancyStoreUnavailableError } from '../shared/tenancy/errors';
import { isWebhookAdminCommand, runWebhookAdminCommand, webhookAdminCommands } from '../shared/customer-events/webhook-admin-commands';
import { isOrganizationAdminCommand, organizationAdminCommands, runOrganizationAdminCommand } from '../shared/organizations/organization-admin-commands';
import { isOptOutAdminCommand, optOutAdminCommands, runOptOutAdminCommand } from '../shared/inbox/opt-out-admin-commands';
import { isRateCardAdminCommand, rateCardAdminCommands, runRateCardAdminCommand } from '../shared/pricing/rate-card-admin-commands';
import { isLedgerRepairAdminCommand, ledgerRepairAdminCommands, runLedgerRepairAdminCommand } from '../shared/broadcast/ledger-repair-admin-commands';
import { isPeopleAdminCommand, peopleAdminCommands, runPeopleAdminCommand } from '../shared/people/people-admin-commands';
import { contactPolicyAdminCommands, isContactPolicyAdminCommand, runContactPolicyAdminCommand } from '../shared/send-rules/contact-policy-admin-commands';

const localRuntimeEnvFile = '.local/runtime.env';

/** Every command's help: the tenancy commands and the Meta app ones. */
const adminCommands: Readonly<Record<string, { summary: string; flags: readonly AdminFlag[] }>> = { ...tenancyAdminCommands, ...metaAppAdminCommands };
const isKnownCommand = (name: string): boolean => isAdminCommandName(name) || isMetaAppAdminCommandName(name);

/**
 * Applies the env file to process.env (not just to the configuration map): the SDK's credential
 * chain reads AWS_ACCESS_KEY_ID and friends from the process environment.
 */
function loadEnvironment(envFile: string | undefined): string | undefined {
  let file = envFile;
  if (file === '') throw new UsageError('--env-file needs a path');
  if (file === undefined && !process.env.DYNAMODB_ENDPOINT && !process.env.TENANCY_TABLE && existsSync(localRuntimeEnvFile)) {
    file = localRuntimeEnvFile;
  }
  if (file === undefined) return undefined;
  const path = resolve(file);
  if (!existsSync(path)) throw new UsageError(`Environment file ${file} does not exist`);
  Object.assign(process.env, parseEnvFile(readFileSync(path, 'utf8')));
  return file;
}

/**
 * Applies a deployment's outputs to process.env (scripts/stack-environment.ts): the tables, queues,
 * token key and usage plan of the stacks `<prefix>-Stateful` and `<prefix>-Api`.
 */
async function loadStackEnvironment(prefix: string, regionFlag: string | undefined): Promise<string> {
  if (prefix === '') throw new UsageError('--stack needs the stack name prefix (default deployments: WhatsAppPlatform)');
  const region = regionFlag || process.env.AWS_REGION || process.env.AWS_DEFAULT_REGION;
  if (!region) throw new UsageError('--stack needs --region (or AWS_REGION)');
  const describer = cloudFormationDescriber(region);
  try {
    Object.assign(process.env, (await readStackEnvironment(describer, { prefix, region })).environment);
  } finally {
    describer.destroy();
  }
  return `the outputs of ${prefix}-Stateful and ${prefix}-Api in ${region}`;
}

/**
 * Tenancy commands, the webhook commands (shared/customer-events/webhook-admin-commands.ts), the
 * kill switch (shared/organizations/organization-admin-commands.ts) and the opt-out ones
 * (shared/inbox/opt-out-admin-commands.ts) in one help.
 */
const allCommands = (): Record<
  string,
  { summary: string; flags: ReadonlyArray<{ name: string; description: string; required?: boolean; acceptsStdin?: boolean }> }
> => ({
  ...adminCommands,
  ...webhookAdminCommands,
  ...organizationAdminCommands,
  ...optOutAdminCommands,
  ...rateCardAdminCommands,
  ...ledgerRepairAdminCommands,
  ...peopleAdminCommands,
  ...contactPolicyAdminCommands,
});

function helpText(command?: string): string {
  if (
    command &&
    (isKnownCommand(command) ||
      isWebhookAdminCommand(command) ||
      isOrganizationAdminCommand(command) ||
      isOptOutAdminCommand(command) ||
      isRateCardAdminCommand(command) ||
      isLedgerRepairAdminCommand(command) ||
      isPeopleAdminCommand(command) ||
      isContactPolicyAdminCommand(command))
  ) {
    const definition = allCommands()[command]!;
    const flags = definition.flags.map((flag) => {
      const stdin = flag.acceptsStdin ? ` (or --${flag.name}-stdin)` : '';
      return `  --${flag.name}${flag.required ? '' : ' (optional)'}  ${flag.description}${stdin}`;
    });
    return [
      `npm run admin -- ${command} [flags]`,
      '',
      definition.summary,
      '',
      ...flags,
      '  --env-file <path>  (optional) Load configuration from a KEY=VALUE file',
      '',
    ].join('\n');
  }
  const width = Math.max(...Object.keys(allCommands()).map((name) => name.length));
  return [
    'Usage: npx wa-admin <command> [--flag value ...] [--env-file <path> | --stack <prefix> [--region <region>]]',
    '       (or npm run -s admin -- …; without -s npm prints its banner on stdout first)',
    '',
    'Commands:',
    ...Object.entries(allCommands()).map(([name, definition]) => `  ${name.padEnd(width)}  ${definition.summary}`),
    '',
    'Output is JSON on stdout; errors are JSON on stderr ({"error":{"code","message"}}) with exit code 1.',
    `Configuration: a deployed stack's outputs (--stack WhatsAppPlatform --region eu-west-1), environment variables, --env-file, or ${localRuntimeEnvFile} while \`npm start\` runs.`,
    'Help for one command: npm run admin -- <command> --help',
    '',
  ].join('\n');
}

/** Where the CLI writes and reads: the process's streams, or (test/support/admin-cli.ts) strings in the calling process. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  stdin: AsyncIterable<Buffer | string> | Iterable<Buffer | string>;
}

async function readStandardInput(stdin: CliIo['stdin']): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** `--<name>-stdin` reads that flag's value from standard input. */
async function applyStdinFlags(command: string, flags: Record<string, string>, stdin: CliIo['stdin']): Promise<void> {
  if (!isKnownCommand(command)) return;
  for (const flag of adminCommands[command]!.flags) {
    const stdinFlag = `${flag.name}-stdin`;
    if (!flag.acceptsStdin || !(stdinFlag in flags)) continue;
    delete flags[stdinFlag];
    if (flags[flag.name] !== undefined) throw new UsageError(`Give either --${flag.name} or --${stdinFlag}, not both`);
    flags[flag.name] = await readStandardInput(stdin);
  }
}

/** PascalCase error class names become codes: OrganizationNotFoundError → ORGANIZATION_NOT_FOUND. */
function errorCode(error: Error): string {
  const base = error.name.replace(/Error$/, '') || 'INTERNAL';
  return base.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase();
}

function describeFailure(error: unknown, services: Services | undefined, envSource: string | undefined): { code: string; message: string } {
  if (!(error instanceof Error)) return { code: 'INTERNAL', message: String(error) };
  if (error instanceof TenancyStoreUnavailableError) {
    const endpoint = services?.config.endpoints.dynamodb;
    const where = endpoint ? `DynamoDB at ${endpoint}` : 'DynamoDB';
    const hint = endpoint ? ' Is `npm start` running?' : '';
    return { code: 'STORE_UNAVAILABLE', message: `Cannot reach ${where}.${hint}` };
  }
  if (error instanceof ConfigurationError) {
    const hint = envSource ? ` (configuration read from ${envSource})` : ' Start the local runtime with `npm start`, pass --env-file, or set the environment.';
    return { code: 'CONFIGURATION', message: `${error.message}.${hint}` };
  }
  if (error.name === 'ResourceNotFoundException') {
    return {
      code: 'TABLE_NOT_FOUND',
      message: `The tenancy table does not exist at this endpoint (${services?.config.tableNames.tenancy}). Is \`npm start\` running?`,
    };
  }
  return { code: errorCode(error), message: error.message };
}

/**
 * Runs one command and returns the exit code; the environment it reads (and an env file's lines it
 * applies) is process.env, which the SDK's credential chain reads too.
 */
async function main(argv: readonly string[], io: CliIo = process): Promise<number> {
  // stderr carries only the JSON error; the SDK's Node-version notice would break that contract.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  let services: Services | undefined;
  let envSource: string | undefined;
  try {
    const parsed = parseArguments(argv);
    if (parsed.help || parsed.command === undefined) {
      io.stdout.write(helpText(parsed.command));
      return 0;
    }
    const webhookCommand = isWebhookAdminCommand(parsed.command);
    const organizationCommand = isOrganizationAdminCommand(parsed.command);
    const optOutCommand = isOptOutAdminCommand(parsed.command);
    const rateCardCommand = isRateCardAdminCommand(parsed.command);
    const ledgerRepairCommand = isLedgerRepairAdminCommand(parsed.command);
    const peopleCommand = isPeopleAdminCommand(parsed.command);
    const contactPolicyCommand = isContactPolicyAdminCommand(parsed.command);
    if (
      !isKnownCommand(parsed.command) &&
      !webhookCommand &&
      !organizationCommand &&
      !optOutCommand &&
      !rateCardCommand &&
      !ledgerRepairCommand &&
      !peopleCommand &&
      !contactPolicyCommand
    )
      throw new UsageError(`Unknown command "${parsed.command}"; see --help`);
    await applyStdinFlags(parsed.command, parsed.flags, io.stdin);
    envSource = parsed.stack === undefined ? loadEnvironment(parsed.envFile) : await loadStackEnvironment(parsed.stack, parsed.region);
    services = buildServices(parseAppConfig(process.env));
    const flags = parsed.flags as AdminFlagValues;
    const result = webhookCommand
      ? await runWebhookAdminCommand(services.webhooks, parsed.command, parsed.flags)
      : organizationCommand
        ? await runOrganizationAdminCommand(services.suspensions, parsed.command, flags)
        : optOutCommand
          ? await runOptOutAdminCommand(services.inbox, parsed.command, parsed.flags)
          : rateCardCommand
            ? await runRateCardAdminCommand(services.rateCardAdmin, parsed.command, parsed.flags, (path) => readFileSync(resolve(path), 'utf8'))
            : ledgerRepairCommand
              ? await runLedgerRepairAdminCommand(services.ledgerRepair, parsed.command, parsed.flags)
              : peopleCommand
                ? await runPeopleAdminCommand(services.people, parsed.command, parsed.flags)
                : contactPolicyCommand
                  ? await runContactPolicyAdminCommand(services.contactPolicies, parsed.command, parsed.flags)
                  : isMetaAppAdminCommandName(parsed.command)
                    ? await runMetaAppAdminCommand(services.metaApp, parsed.command, flags)
                    : await runAdminCommand(services.tenancy, parsed.command, flags);
    io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (error) {
    io.stderr.write(`${JSON.stringify({ error: describeFailure(error, services, envSource) })}\n`);
    return 1;
  } finally {
    services?.destroy();
  }
}

if (require.main === module) {
  void main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}

export { main as runAdminCli };
