/**
 * The operators' ledger repair (`npm run admin -- repair-ledger-pages --job <jobId>`): the admin CLI
 * parses the flags, this runs `repairJobLedger` (ledger-repair.ts) and returns its JSON-ready report
 * (docs/OPERATIONS.md "Repairing a job's ledger pages").
 */
import { InvalidTenancyInputError } from '../tenancy/errors';
import { repairJobLedger, type LedgerRepairPorts } from './ledger-repair';

export type LedgerRepairAdminFlags = Readonly<Record<string, string | undefined>>;

export interface LedgerRepairAdminCommand {
  summary: string;
  flags: ReadonlyArray<{ name: string; description: string; required?: boolean }>;
  run(ports: LedgerRepairPorts, flags: LedgerRepairAdminFlags): Promise<unknown>;
}

function settleUnfinished(flags: LedgerRepairAdminFlags): boolean {
  const value = flags['settle-unfinished']?.trim();
  if (value === undefined) return false;
  if (value === '' || value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidTenancyInputError('--settle-unfinished must be true or false');
}

export const ledgerRepairAdminCommands: Readonly<Record<string, LedgerRepairAdminCommand>> = {
  'repair-ledger-pages': {
    summary:
      "Rewrite a job's unreadable ledger page entries (an earlier send-bulk's refused recipient stored with an empty number) and settle the chunks they stopped, so the job finishes and lists",
    flags: [
      { name: 'job', description: 'Job id (leg_… or pub_…)', required: true },
      { name: 'settle-unfinished', description: 'Also settle unfinished chunks without unreadable entries (a rerun; only when no worker still sends the job)' },
    ],
    run: (ports, flags) => {
      const jobId = flags.job?.trim();
      if (!jobId) throw new InvalidTenancyInputError('--job is required');
      return repairJobLedger(ports, jobId, { settleUnfinished: settleUnfinished(flags) });
    },
  },
};

export const isLedgerRepairAdminCommand = (name: string): boolean => Object.hasOwn(ledgerRepairAdminCommands, name);

/**
 * Runs a command by name, refusing flags it does not know (a typo must not be silently ignored).
 *
 * @example
 * await runLedgerRepairAdminCommand(services.ledgerRepair, 'repair-ledger-pages', { job: 'leg_01JD…' });
 */
export async function runLedgerRepairAdminCommand(ports: LedgerRepairPorts, name: string, flags: LedgerRepairAdminFlags): Promise<unknown> {
  const command = ledgerRepairAdminCommands[name];
  if (!command) throw new InvalidTenancyInputError(`Unknown command "${name}"; see --help`);
  const known = new Set(command.flags.map((flag) => flag.name));
  const unknown = Object.keys(flags).filter((flag) => !known.has(flag));
  if (unknown.length > 0) throw new InvalidTenancyInputError(`Unknown flag(s) for ${name}: ${unknown.map((flag) => `--${flag}`).join(', ')}`);
  return command.run(ports, flags);
}
