/**
 * The operators' kill switch (`npm run admin -- suspend-organization …`, `resume-organization`):
 * the admin CLI parses the flags, these run the use cases of organization-suspension.ts and return
 * JSON-ready results (docs/OPERATIONS.md "Suspending an organization").
 */
import { InvalidTenancyInputError } from '../tenancy/errors';
import { resumeOrganization, suspendOrganization, type OrganizationSuspensionPorts } from './organization-suspension';

export type OrganizationAdminFlags = Readonly<Record<string, string | undefined>>;

export interface OrganizationAdminCommand {
  summary: string;
  flags: ReadonlyArray<{ name: string; description: string; required?: boolean }>;
  run(ports: OrganizationSuspensionPorts, flags: OrganizationAdminFlags): Promise<unknown>;
}

/** Long enough for a request authenticated just before the suspension to record its job (broadcast-send's 29 s timeout) and for the job index to show it. */
export const defaultSettleSeconds = 30;

function required(flags: OrganizationAdminFlags, name: string): string {
  const value = flags[name]?.trim();
  if (!value) throw new InvalidTenancyInputError(`--${name} is required`);
  return value;
}

function settleSeconds(flags: OrganizationAdminFlags): number {
  const value = flags['settle-seconds']?.trim();
  if (value === undefined) return defaultSettleSeconds;
  if (!/^\d{1,3}$/.test(value) || Number(value) > 300) throw new InvalidTenancyInputError('--settle-seconds must be a whole number from 0 to 300');
  return Number(value);
}

const organizationFlag = { name: 'org', description: 'Organization id (org_…)', required: true };

export const organizationAdminCommands: Readonly<Record<string, OrganizationAdminCommand>> = {
  'suspend-organization': {
    summary:
      'Suspend an organization: its keys and tokens answer 403 ORGANIZATION_SUSPENDED, its unfinished jobs are cancelled (run again to pass over its jobs again)',
    flags: [
      organizationFlag,
      { name: 'reason', description: 'Why (kept on the organization for the record; never shown to its callers)', required: true },
      { name: 'settle-seconds', description: `Wait before the second pass over its jobs, 0-300 (default ${defaultSettleSeconds}; 0: one pass)` },
    ],
    run: (ports, flags) =>
      suspendOrganization(ports, { organizationId: required(flags, 'org'), reason: required(flags, 'reason'), settleMs: settleSeconds(flags) * 1000 }),
  },
  'resume-organization': {
    summary: 'Resume a suspended organization: its keys and tokens work again; jobs the suspension cancelled stay cancelled',
    flags: [organizationFlag],
    run: (ports, flags) => resumeOrganization(ports, { organizationId: required(flags, 'org') }),
  },
};

export const isOrganizationAdminCommand = (name: string): boolean => Object.hasOwn(organizationAdminCommands, name);

/**
 * Runs a command by name, refusing flags it does not know (a typo must not be silently ignored).
 *
 * @example
 * await runOrganizationAdminCommand(services.suspensions, 'resume-organization', { org: 'org_1' });
 */
export async function runOrganizationAdminCommand(ports: OrganizationSuspensionPorts, name: string, flags: OrganizationAdminFlags): Promise<unknown> {
  const command = organizationAdminCommands[name];
  if (!command) throw new InvalidTenancyInputError(`Unknown command "${name}"; see --help`);
  const known = new Set(command.flags.map((flag) => flag.name));
  const unknown = Object.keys(flags).filter((flag) => !known.has(flag));
  if (unknown.length > 0) throw new InvalidTenancyInputError(`Unknown flag(s) for ${name}: ${unknown.map((flag) => `--${flag}`).join(', ')}`);
  return command.run(ports, flags);
}
