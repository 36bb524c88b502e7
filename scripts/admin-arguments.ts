/**
 * The operators' CLI's command line (scripts/admin.ts): `<command> [--flag value ...]` with
 * `--env-file`, `--stack` and `--region` taken out, and the env file's KEY=VALUE lines.
 */

export interface ParsedArguments {
  command?: string;
  flags: Record<string, string>;
  help: boolean;
  envFile?: string;
  /** `--stack <prefix>`: read the configuration from that deployment's outputs (`--region`, else AWS_REGION). */
  stack?: string;
  region?: string;
}

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function parseArguments(argv: readonly string[]): ParsedArguments {
  const parsed: ParsedArguments = { flags: {}, help: false };
  for (let index = 0; index < argv.length; index += 1) {
    const token = argv[index]!;
    if (token === '--help' || token === '-h') {
      parsed.help = true;
    } else if (token.startsWith('--')) {
      const equals = token.indexOf('=');
      const name = equals === -1 ? token.slice(2) : token.slice(2, equals);
      let value: string;
      if (equals !== -1) value = token.slice(equals + 1);
      else if (index + 1 < argv.length && !argv[index + 1]!.startsWith('--')) value = argv[(index += 1)]!;
      // A bare flag: true for booleans, rejected by the command for anything that needs a value.
      else value = '';
      if (name === 'env-file') parsed.envFile = value;
      else if (name === 'stack') parsed.stack = value;
      else if (name === 'region') parsed.region = value;
      else parsed.flags[name] = value;
    } else if (parsed.command === undefined) {
      parsed.command = token;
    } else {
      throw new UsageError(`Unexpected argument "${token}"; flags are written --name value`);
    }
  }
  return parsed;
}

/** KEY=VALUE lines; blank lines, `#` comments and an `export ` prefix are allowed, quotes are stripped. */
export function parseEnvFile(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim().replace(/^export\s+/, '');
    if (!line || line.startsWith('#')) continue;
    const equals = line.indexOf('=');
    if (equals <= 0) continue;
    let value = line.slice(equals + 1).trim();
    if (value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.endsWith(value[0])) value = value.slice(1, -1);
    values[line.slice(0, equals).trim()] = value;
  }
  return values;
}
