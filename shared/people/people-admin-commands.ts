/**
 * The operators' people commands (`npx wa-admin invite-person --org … --email … --role …`; docs/PEOPLE.md
 * "People"), over the same use cases as the /people routes: the same rules (one admin kept, no second
 * invitation), the same account, usage-plan key and removal record. An operator acts for --org.
 */
import * as v from 'valibot';
import { InvalidPeopleInputError } from './errors';
import { invitePerson, removePerson, setPersonRole, type PeoplePorts } from './manage-people';
import { listPeople, type PeopleManager } from './people-directory';
import { invitationSchema, roleChangeSchema } from './people.schema';

export type PeopleAdminFlags = Readonly<Record<string, string | undefined>>;

export interface PeopleAdminCommand {
  summary: string;
  flags: ReadonlyArray<{ name: string; description: string; required?: boolean }>;
  run(ports: PeoplePorts, flags: PeopleAdminFlags): Promise<unknown>;
}

function required(flags: PeopleAdminFlags, name: string): string {
  const value = flags[name]?.trim();
  if (!value) throw new InvalidPeopleInputError(`--${name} is required`);
  return value;
}

/** The flags judged by the routes' body schema; the message names the flag and the rule. */
function parseFlags<Schema extends v.GenericSchema>(schema: Schema, input: Record<string, string>): v.InferOutput<Schema> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const flag = issue.path?.map((item) => String(item.key)).join('.') ?? '';
  throw new InvalidPeopleInputError(`${flag ? `--${flag}: ` : ''}${issue.message}`);
}

/** The operator, as the removal record names them. */
const operatorOf = (flags: PeopleAdminFlags): PeopleManager => ({ organizationId: required(flags, 'org'), credentialId: 'operator:wa-admin' });

const organizationFlag = { name: 'org', description: 'Organization id (org_…)', required: true };
const personFlag = { name: 'person', description: 'Person id (psn_…, from list-people)', required: true };
const roleFlag = { name: 'role', description: 'viewer, campaign-manager or admin', required: true };

export const peopleAdminCommands: Readonly<Record<string, PeopleAdminCommand>> = {
  'invite-person': {
    summary: 'Invite a person to an organization with a role (their sign-in account, usage-plan key and membership)',
    flags: [organizationFlag, { name: 'email', description: 'Their e-mail address (their sign-in name)', required: true }, roleFlag],
    run: async (ports, flags) => {
      const input = parseFlags(invitationSchema, { email: required(flags, 'email'), role: required(flags, 'role') });
      const { person, invitation } = await invitePerson(ports, operatorOf(flags), input);
      const notice = invitation.temporaryPassword ? 'Give the person this temporary password now: it is not shown again.' : undefined;
      return { person, invitation, ...(notice ? { notice } : {}) };
    },
  },
  'set-person-role': {
    summary: 'Change the role of a person of an organization (the last admin keeps theirs)',
    flags: [organizationFlag, personFlag, roleFlag],
    run: async (ports, flags) => {
      const { role } = parseFlags(roleChangeSchema, { role: required(flags, 'role') });
      return setPersonRole(ports, operatorOf(flags), { personId: required(flags, 'person'), role });
    },
  },
  'remove-person': {
    summary: 'Remove a person from an organization: ends their sessions, deletes their usage-plan key, records the removal',
    flags: [organizationFlag, personFlag],
    run: async (ports, flags) => removePerson(ports, operatorOf(flags), { personId: required(flags, 'person') }),
  },
  'list-people': {
    summary: 'List the people of an organization with their roles',
    flags: [organizationFlag],
    run: async (ports, flags) => ({ people: await listPeople(ports.tenancy, required(flags, 'org')) }),
  },
};

export const isPeopleAdminCommand = (name: string): boolean => Object.hasOwn(peopleAdminCommands, name);

/**
 * Runs a command by name, refusing flags it does not know.
 *
 * @example
 * await runPeopleAdminCommand(services.people, 'list-people', { org: 'org_demo' }); // { people: [...] }
 */
export async function runPeopleAdminCommand(ports: PeoplePorts, name: string, flags: PeopleAdminFlags): Promise<unknown> {
  const command = peopleAdminCommands[name];
  if (!command) throw new InvalidPeopleInputError(`Unknown command "${name}"`);
  const known = new Set(command.flags.map((flag) => flag.name));
  const unknown = Object.keys(flags).filter((flag) => !known.has(flag));
  if (unknown.length > 0) throw new InvalidPeopleInputError(`Unknown flag(s) for ${name}: ${unknown.map((flag) => `--${flag}`).join(', ')}`);
  return command.run(ports, flags);
}
