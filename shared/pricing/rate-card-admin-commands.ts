/**
 * The operators' rate-card commands (`npm run -s admin -- set-rate-card --file examples/rate-card.json`),
 * docs/OPERATIONS.md "Rate card". The CLI reads the file (`readText`): domain code opens none.
 */
import type { Clock } from '../ports/clock';
import { InvalidRateCardError } from './errors';
import { PLATFORM_RATE_CARD, setRateCard, type RateCardStore } from './rate-cards';

export interface RateCardAdminPorts {
  rateCards: RateCardStore;
  clock: Clock;
}

type Flags = Readonly<Record<string, string | undefined>>;

interface RateCardAdminCommand {
  summary: string;
  flags: ReadonlyArray<{ name: string; description: string; required?: boolean }>;
  run(ports: RateCardAdminPorts, flags: Flags, readText: (path: string) => string): Promise<unknown>;
}

const orgFlag = { name: 'org', description: "Organization id (org_…): its own card, replacing the platform's for it" };

export const rateCardAdminCommands: Readonly<Record<string, RateCardAdminCommand>> = {
  'set-rate-card': {
    summary: "Set the rate card (price per country calling code and Meta pricing category) the dry run's estimate and campaign costs use",
    flags: [
      { name: 'file', description: 'JSON file: { "currency": "USD", "rates": { "44": { "marketing": "0.0529" }, "*": { … } } }', required: true },
      orgFlag,
    ],
    run: async (ports, flags, readText) => {
      const path = flags.file?.trim();
      if (!path) throw new InvalidRateCardError('--file is required');
      let card: unknown;
      try {
        card = JSON.parse(readText(path));
      } catch (error) {
        throw new InvalidRateCardError(`--file ${path} is not a readable JSON file (${error instanceof Error ? error.message : String(error)})`);
      }
      return setRateCard(ports, card, flags.org?.trim() || undefined);
    },
  },
  'show-rate-card': {
    summary: "Show the rate card stored for the platform, or an organization's own",
    flags: [orgFlag],
    run: async (ports, flags) => {
      const owner = flags.org?.trim() || PLATFORM_RATE_CARD;
      return { owner, card: (await ports.rateCards.storedRateCard(owner)) ?? null };
    },
  },
};

export const isRateCardAdminCommand = (name: string): boolean => Object.hasOwn(rateCardAdminCommands, name);

/**
 * Runs a command by name, refusing flags it does not know.
 *
 * @example
 * await runRateCardAdminCommand(ports, 'set-rate-card', { file: 'examples/rate-card.json' }, (path) => readFileSync(path, 'utf8'));
 */
export async function runRateCardAdminCommand(ports: RateCardAdminPorts, name: string, flags: Flags, readText: (path: string) => string): Promise<unknown> {
  const command = rateCardAdminCommands[name];
  if (!command) throw new InvalidRateCardError(`Unknown command ${name}`);
  const unknown = Object.keys(flags).filter((flag) => !command.flags.some((known) => known.name === flag));
  if (unknown.length > 0) throw new InvalidRateCardError(`Unknown flag --${unknown[0]} for ${name}`);
  return command.run(ports, flags, readText);
}
