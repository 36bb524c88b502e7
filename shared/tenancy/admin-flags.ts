/**
 * How the operators' commands are declared and how they read their flags (`--org org_…` →
 * `{ org: 'org_…' }`): the pieces every command table of shared/tenancy builds with
 * (admin-commands.ts). Errors name the flag.
 */
import { InvalidTenancyInputError } from './errors';
import type { TenancyServices } from './tenancy-services';

export type AdminFlagValues = Readonly<Record<string, string | undefined>>;

export interface AdminFlag {
  name: string;
  description: string;
  required?: boolean;
  /** May be given without a value (`--api-add-on` means true). */
  boolean?: boolean;
  /** The CLI also accepts `--<name>-stdin` to read the value from standard input (keeps secrets out of shell history). */
  acceptsStdin?: boolean;
}

export interface AdminCommand<Output> {
  summary: string;
  flags: readonly AdminFlag[];
  run(tenancy: TenancyServices, flags: AdminFlagValues): Promise<Output>;
}

/** A command as written (typed output), for the command tables. */
export const defineCommand = <Output>(command: AdminCommand<Output>): AdminCommand<Output> => command;

/**
 * A flag's trimmed value; InvalidTenancyInputError naming the flag when absent or empty.
 *
 * @example
 * required({ org: ' org_1 ' }, 'org'); // 'org_1'
 */
export function required(flags: AdminFlagValues, name: string): string {
  const value = flags[name]?.trim();
  if (!value) throw new InvalidTenancyInputError(`--${name} is required`);
  return value;
}

/**
 * A yes/no flag: true | yes | 1 | bare flag, false | no | 0; undefined when not given.
 *
 * @example
 * optionalBoolean({ 'api-add-on': '' }, 'api-add-on'); // true
 */
export function optionalBoolean(flags: AdminFlagValues, name: string): boolean | undefined {
  const value = flags[name]?.trim().toLowerCase();
  if (value === undefined) return undefined;
  if (['true', 'yes', '1', ''].includes(value)) return true;
  if (['false', 'no', '0'].includes(value)) return false;
  throw new InvalidTenancyInputError(`--${name} must be true or false`);
}

/**
 * A yes/no flag that must be given.
 *
 * @example
 * requiredBoolean({ enabled: 'false' }, 'enabled'); // false
 */
export function requiredBoolean(flags: AdminFlagValues, name: string): boolean {
  const value = optionalBoolean(flags, name);
  if (value === undefined) throw new InvalidTenancyInputError(`--${name} is required (true or false)`);
  return value;
}

/**
 * A whole-number flag; undefined when not given.
 *
 * @example
 * optionalWholeNumber({ 'expires-in-days': '30' }, 'expires-in-days'); // 30
 */
export function optionalWholeNumber(flags: AdminFlagValues, name: string): number | undefined {
  const value = flags[name]?.trim();
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new InvalidTenancyInputError(`--${name} must be a whole number`);
  return Number(value);
}
