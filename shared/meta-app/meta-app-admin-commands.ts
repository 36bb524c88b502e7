/**
 * The operators' Meta app commands (`npm run admin -- <command>`), beside the tenancy ones in
 * shared/tenancy/admin-commands.ts and in the same shape: flag strings in, JSON-ready results out,
 * never a secret in the output.
 */
import type { AdminFlag, AdminFlagValues } from '../tenancy/admin-commands';
import { InvalidMetaAppInputError } from './errors';
import type { MetaAppServices } from './meta-app-services';

export interface MetaAppAdminCommand<Output> {
  summary: string;
  flags: readonly AdminFlag[];
  run(metaApp: MetaAppServices, flags: AdminFlagValues): Promise<Output>;
}

const defineCommand = <Output>(command: MetaAppAdminCommand<Output>): MetaAppAdminCommand<Output> => command;

/** Messages a replay moves when no --limit is given: the dead-letter queue keeps 14 days, far fewer in practice. */
export const DEFAULT_REPLAY_LIMIT = 10_000;
const MAX_REPLAY_LIMIT = 1_000_000;

function replayLimit(flags: AdminFlagValues): number {
  const value = flags.limit?.trim();
  if (value === undefined) return DEFAULT_REPLAY_LIMIT;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > MAX_REPLAY_LIMIT) {
    throw new InvalidMetaAppInputError(`--limit must be a whole number from 1 to ${MAX_REPLAY_LIMIT}`);
  }
  return Number(value);
}

export const metaAppAdminCommands = {
  'set-meta-app': defineCommand({
    summary: "Store the Meta app's secret and webhook verify token (encrypted at rest; replaces any earlier ones)",
    flags: [
      { name: 'app-secret', description: 'App secret (Meta app dashboard → Settings → Basic); signs every webhook', required: true, acceptsStdin: true },
      { name: 'verify-token', description: 'Verify token entered in the webhook subscription', required: true, acceptsStdin: true },
    ],
    run: async (metaApp, flags) => {
      const status = await metaApp.configure({ appSecret: flags['app-secret'] ?? '', verifyToken: flags['verify-token'] ?? '' });
      return { ...status, notice: 'Stored encrypted; the secret and the token are never shown again.' };
    },
  }),
  'show-meta-app': defineCommand({
    summary: 'Whether a Meta app is configured and when it was last set (never the secret or the token)',
    flags: [],
    run: (metaApp) => metaApp.describe(),
  }),
  'replay-meta-events': defineCommand({
    summary: 'Move webhook batches from the metaEvents dead-letter queue back to the queue (META_EVENTS_DEAD_LETTER_QUEUE_URL)',
    flags: [{ name: 'limit', description: `At most this many messages (default ${DEFAULT_REPLAY_LIMIT})` }],
    run: (metaApp, flags) => metaApp.replayDeadLetters(replayLimit(flags)),
  }),
} as const;

export type MetaAppAdminCommandName = keyof typeof metaAppAdminCommands;

export const isMetaAppAdminCommandName = (name: string): name is MetaAppAdminCommandName => Object.hasOwn(metaAppAdminCommands, name);

/** Runs a command by name, refusing flags it does not know. */
export async function runMetaAppAdminCommand(metaApp: MetaAppServices, name: MetaAppAdminCommandName, flags: AdminFlagValues): Promise<unknown> {
  const command: MetaAppAdminCommand<unknown> = metaAppAdminCommands[name];
  const known = new Set(command.flags.map((flag) => flag.name));
  const unknown = Object.keys(flags).filter((flag) => !known.has(flag));
  if (unknown.length > 0) throw new InvalidMetaAppInputError(`Unknown flag(s) for ${name}: ${unknown.map((flag) => `--${flag}`).join(', ')}`);
  return command.run(metaApp, flags);
}
