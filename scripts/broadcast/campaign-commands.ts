/**
 * `audience list`, `campaign create --file campaign.json` and `campaign launch <id> [--dry-run]`
 * of `npx wa-broadcast` (docs/BROADCAST-CLI.md "Audiences and campaigns"): thin over the API,
 * printing what an operator needs next (the campaign id alone on stdout, so a script can take it).
 */
import { readFileSync } from 'node:fs';
import type { CampaignClient } from '../../client/campaign-client';
import type { CliOutput } from './cli-output';
import { CampaignCommandError } from './errors';

/**
 * One page of the organization's audiences (`contacts` first), one line each.
 *
 * @example
 * await audienceListCommand(client, { limit: '50' }, output);
 */
export async function audienceListCommand(
  client: Pick<CampaignClient, 'listAudiences'>,
  page: { limit?: string; cursor?: string },
  output: Pick<CliOutput, 'out'>,
): Promise<void> {
  const answer = await client.listAudiences(page);
  if (answer.audiences.length === 0) output.out('no audiences');
  for (const audience of answer.audiences) {
    output.out([audience.audienceId, `${audience.memberCount} members`.padStart(16), audience.name, `created ${audience.createdAt}`].join('  '));
  }
  if (answer.nextCursor) output.out(`more: npx wa-broadcast audience list --cursor ${answer.nextCursor}${page.limit ? ` --limit ${page.limit}` : ''}`);
}

/**
 * Creates the campaign the file describes (the `POST /campaigns` body as it is); prints its id.
 *
 * @example
 * const campaignId = await campaignCreateCommand(client, 'campaign.json', output);
 */
export async function campaignCreateCommand(
  client: Pick<CampaignClient, 'createCampaign'>,
  filePath: string,
  output: Pick<CliOutput, 'out' | 'err'>,
): Promise<string> {
  let body: unknown;
  try {
    body = JSON.parse(readFileSync(filePath, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new CampaignCommandError(`cannot read the campaign file ${filePath}: ${reason}`);
  }
  const created = await client.createCampaign(body);
  output.err(
    `created campaign ${created.campaignId} "${created.name}" (${created.state}); next: npx wa-broadcast campaign launch ${created.campaignId} --dry-run`,
  );
  output.out(created.campaignId);
  return created.campaignId;
}

/** A money value as the API answers it (`{ amount, currency }`), else as JSON; `-` for none. */
export function formatMoney(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'object' && 'amount' in value && 'currency' in value) {
    const { amount, currency } = value as { amount: unknown; currency: unknown };
    return `${String(amount)} ${String(currency)}`;
  }
  return JSON.stringify(value);
}

/** `name 3, other 0` of a record of counts (in the API's order). */
export const formatCounts = (counts: Record<string, unknown> | null | undefined): string =>
  Object.entries(counts ?? {})
    .map(([name, count]) => `${name} ${String(count)}`)
    .join(', ');

interface DryRun {
  audience?: Record<string, unknown>;
  sendable?: number;
  estimatedCost?: unknown;
  messagingLimit?: { tier?: unknown; headroom?: unknown; plan?: Array<{ from: string; recipients: number }> };
  sample?: unknown[];
}

function printDryRun(campaignId: string, dryRun: DryRun, output: Pick<CliOutput, 'out'>): void {
  output.out(`dry run of ${campaignId}: nothing was sent`);
  output.out(`audience: ${formatCounts(dryRun.audience)}`);
  output.out(`sendable: ${dryRun.sendable ?? 0}`);
  output.out(`estimated cost: ${formatMoney(dryRun.estimatedCost)}`);
  const limit = dryRun.messagingLimit ?? {};
  output.out(`messaging limit: tier ${String(limit.tier ?? '-')}, headroom ${String(limit.headroom ?? '-')}`);
  const plan = limit.plan ?? [];
  output.out(plan.length > 1 ? `plan (${plan.length} steps: the rest waits for the messaging limit's 24-hour window):` : 'plan:');
  for (const step of plan) output.out(`  from ${step.from}: ${step.recipients} recipients`);
  const samples = dryRun.sample?.length ?? 0;
  output.out(`sample (${samples} rendered message${samples === 1 ? '' : 's'}):`);
  for (const message of dryRun.sample ?? []) output.out(`  ${JSON.stringify(message)}`);
}

/**
 * Launches the campaign (its Idempotency-Key is derived from the id: launching again answers the
 * same), or with `dryRun` prints what a launch would do: the audience's counts, the sendable, the
 * estimated cost, the messaging-limit plan and the first rendered messages.
 *
 * @example
 * await campaignLaunchCommand(client, 'cmp_1', { dryRun: true }, output);
 */
export async function campaignLaunchCommand(
  client: Pick<CampaignClient, 'launchCampaign' | 'dryRunCampaign'>,
  campaignId: string,
  options: { dryRun: boolean },
  output: Pick<CliOutput, 'out' | 'err'>,
): Promise<void> {
  if (options.dryRun) {
    printDryRun(campaignId, (await client.dryRunCampaign(campaignId)) as DryRun, output);
    return;
  }
  const launched = await client.launchCampaign(campaignId, `cli-launch-${campaignId}`);
  output.out(`campaign ${launched.campaignId}: ${launched.state}`);
  output.err(`follow it: npx wa-broadcast campaign watch ${launched.campaignId}`);
}
