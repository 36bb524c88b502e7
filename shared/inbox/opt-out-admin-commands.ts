/**
 * The operators' opt-out commands (`npm run admin -- add-opt-out --org … --phone-number …`): the
 * same use cases as `POST` / `DELETE /v1/opt-outs`, with the entry's source `operator` (which a
 * customer's START does not undo, docs/ORGANIZATIONS-AND-V1.md "Opt-outs"). The admin CLI parses
 * the flags; an operator acts for the organization named by --org.
 */
import { RequestValidationError } from '../http/errors';
import { parseRequest } from '../http/validation';
import { createOptOutSchema } from './inbox.schema';
import type { InboxServices } from './inbox-services';

export type OptOutAdminFlags = Readonly<Record<string, string | undefined>>;

export interface OptOutAdminCommand {
  summary: string;
  flags: ReadonlyArray<{ name: string; description: string; required?: boolean }>;
  run(services: Pick<InboxServices, 'addOptOut' | 'removeOptOut'>, flags: OptOutAdminFlags): Promise<unknown>;
}

function required(flags: OptOutAdminFlags, name: string): string {
  const value = flags[name]?.trim();
  if (!value) throw new RequestValidationError(`--${name} is required`);
  return value;
}

/** The number as the v1 API takes it (8 to 15 digits, country code included), its rule named after the flag. */
const phoneNumberOf = (flags: OptOutAdminFlags): string =>
  parseRequest(createOptOutSchema, { phoneNumber: required(flags, 'phone-number') }, 'flags').phoneNumber;

const flags = [
  { name: 'org', description: 'Organization id (org_…)', required: true },
  { name: 'phone-number', description: 'The number, digits with the country code (447700900123)', required: true },
];

export const optOutAdminCommands: Readonly<Record<string, OptOutAdminCommand>> = {
  'add-opt-out': {
    summary: "Put a number on an organization's opt-out list (source operator: a customer's START does not undo it)",
    flags,
    run: async (services, values) => services.addOptOut({ organizationId: required(values, 'org'), phoneNumber: phoneNumberOf(values), source: 'operator' }),
  },
  'remove-opt-out': {
    summary: "Take a number off an organization's opt-out list, whatever its source",
    flags,
    run: async (services, values) => {
      const phoneNumber = phoneNumberOf(values);
      await services.removeOptOut(required(values, 'org'), phoneNumber);
      return { phoneNumber, removed: true };
    },
  },
};

export const isOptOutAdminCommand = (name: string): boolean => Object.hasOwn(optOutAdminCommands, name);

/**
 * Runs a command by name, refusing flags it does not know.
 *
 * @example
 * await runOptOutAdminCommand(services.inbox, 'add-opt-out', { org: 'org_1', 'phone-number': '447700900123' });
 * // { optOut: { phoneNumber: '447700900123', source: 'operator', createdAt: '…' }, created: true }
 */
export async function runOptOutAdminCommand(
  services: Pick<InboxServices, 'addOptOut' | 'removeOptOut'>,
  name: string,
  values: OptOutAdminFlags,
): Promise<unknown> {
  const command = optOutAdminCommands[name];
  if (!command) throw new RequestValidationError(`Unknown command "${name}"`);
  const known = new Set(command.flags.map((flag) => flag.name));
  const unknown = Object.keys(values).filter((flag) => !known.has(flag));
  if (unknown.length > 0) throw new RequestValidationError(`Unknown flag(s) for ${name}: ${unknown.map((flag) => `--${flag}`).join(', ')}`);
  return command.run(services, values);
}
