/**
 * The operators' contact-policy commands (docs/OPERATIONS.md "Contact policy (frequency caps)"):
 * `npx wa-admin set-contact-policy --org <id> --marketing-per-person 2 --per-days 7 [--categories MARKETING,UTILITY]`,
 * `--off` to remove it, and `show-contact-policy --org <id>`.
 */
import { getContactPolicy, removeContactPolicy, setContactPolicy, type ContactPolicyPorts, type ContactPolicyView } from './contact-policy';
import { InvalidContactPolicyError } from './errors';

type Flags = Readonly<Record<string, string | undefined>>;

interface ContactPolicyAdminCommand {
  summary: string;
  flags: ReadonlyArray<{ name: string; description: string; required?: boolean }>;
  run(ports: ContactPolicyPorts, flags: Flags): Promise<ContactPolicyView & { organizationId: string }>;
}

const orgFlag = { name: 'org', description: 'Organization id (org_…)', required: true };

function organizationOf(flags: Flags): string {
  const organizationId = flags.org?.trim();
  if (!organizationId) throw new InvalidContactPolicyError('--org is required');
  return organizationId;
}

/** A whole-number flag as the policy's field (the policy's rule names the field when it is out of bounds). */
function numberFlag(flags: Flags, name: string, field: string): number {
  const text = flags[name]?.trim();
  if (!text) throw new InvalidContactPolicyError(`--${name} is required (or --off to remove the policy)`);
  if (!/^\d+$/.test(text)) throw new InvalidContactPolicyError(`--${name} (${field}) must be a whole number`);
  return Number(text);
}

/** The policy the flags describe: the categories as a comma-separated list, upper-cased. */
function policyInputOf(flags: Flags): Record<string, unknown> {
  const categories = flags.categories?.trim();
  return {
    marketingPerPerson: numberFlag(flags, 'marketing-per-person', 'marketingPerPerson'),
    perDays: numberFlag(flags, 'per-days', 'perDays'),
    ...(categories === undefined ? {} : { categories: categories.split(',').map((category) => category.trim().toUpperCase()) }),
  };
}

export const contactPolicyAdminCommands: Readonly<Record<string, ContactPolicyAdminCommand>> = {
  'set-contact-policy': {
    summary: "Set an organization's frequency cap (at most N messages of the counted categories per person in any D days), or remove it with --off",
    flags: [
      orgFlag,
      { name: 'marketing-per-person', description: 'Messages per person in the window (1 to 1000)' },
      { name: 'per-days', description: 'The window in days (1 to 365)' },
      { name: 'categories', description: 'Template categories counted, comma-separated (default MARKETING): MARKETING, UTILITY, AUTHENTICATION' },
      { name: 'off', description: 'Remove the policy: no cap from now on' },
    ],
    run: async (ports, flags) => {
      const organizationId = organizationOf(flags);
      const editor = { organizationId, by: 'admin' };
      if (flags.off !== undefined) {
        const extra = ['marketing-per-person', 'per-days', 'categories'].find((name) => flags[name] !== undefined);
        if (extra) throw new InvalidContactPolicyError(`--off removes the policy; give it without --${extra}`);
        return { organizationId, ...(await removeContactPolicy(ports, editor)) };
      }
      return { organizationId, ...(await setContactPolicy(ports, editor, policyInputOf(flags))) };
    },
  },
  'show-contact-policy': {
    summary: "Show an organization's frequency cap (policy null: none)",
    flags: [orgFlag],
    run: async (ports, flags) => {
      const organizationId = organizationOf(flags);
      return { organizationId, ...(await getContactPolicy(ports, organizationId)) };
    },
  },
};

export const isContactPolicyAdminCommand = (name: string): boolean => Object.hasOwn(contactPolicyAdminCommands, name);

/**
 * Runs a command by name, refusing flags it does not know.
 *
 * @example
 * await runContactPolicyAdminCommand(ports, 'set-contact-policy', { org: 'org_1', 'marketing-per-person': '2', 'per-days': '7' });
 */
export async function runContactPolicyAdminCommand(ports: ContactPolicyPorts, name: string, flags: Flags): Promise<unknown> {
  const command = contactPolicyAdminCommands[name];
  if (!command) throw new InvalidContactPolicyError(`Unknown command ${name}`);
  const unknown = Object.keys(flags).filter((flag) => !command.flags.some((known) => known.name === flag));
  if (unknown.length > 0) throw new InvalidContactPolicyError(`Unknown flag --${unknown[0]} for ${name}`);
  return command.run(ports, flags);
}
