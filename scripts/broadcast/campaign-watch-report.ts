/**
 * `campaign watch <id>`: polls `GET /campaigns/{id}` with a progress bar until the campaign ends,
 * saying on each change of state where it is (WAITING_FOR_LIMIT with the time the messaging limit's
 * window frees). `campaign report <id> [--csv <file>]`: totals, failures by code and cost, and
 * with `--csv` every recipient, written page by page as the service answers them.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { Presets, SingleBar } from 'cli-progress';
import { parse } from 'csv-parse/sync';
import type { CampaignClient, CampaignView } from '../../client/campaign-client';
import type { CliOutput } from './cli-output';
import { formatCounts, formatMoney } from './campaign-commands';
import { CampaignCommandError } from './errors';

/** States a campaign leaves no more (shared/campaigns/campaign.ts CAMPAIGN_STATES). */
export const TERMINAL_CAMPAIGN_STATES: ReadonlySet<string> = new Set(['COMPLETED', 'COMPLETED_WITH_FAILURES', 'CANCELLED', 'FAILED']);

/** Recipients whose outcome is known (sent, failed, unknown or cancelled) of the recipients to account for. */
export function campaignProgress(view: CampaignView): { done: number; total: number } {
  const totals = view.totals ?? {};
  const done = (totals.sent ?? 0) + (totals.failed ?? 0) + (totals.unknown ?? 0) + (totals.cancelled ?? 0);
  return { done, total: Math.max(totals.sendable ?? 0, done) };
}

/** `SENDING`, or `WAITING_FOR_LIMIT until <time>`, `SCHEDULED for <time>`. */
export function describeState(view: CampaignView): string {
  if (view.state === 'WAITING_FOR_LIMIT' && view.waitingUntil)
    return `WAITING_FOR_LIMIT until ${view.waitingUntil} (the messaging limit's 24-hour window frees then)`;
  if (view.state === 'SCHEDULED' && view.scheduledAt) return `SCHEDULED for ${view.scheduledAt}`;
  return view.state;
}

/** The campaign's report lines: state, totals, skipped by reason, failures by code, cost. */
export function formatCampaignReport(view: CampaignView): string[] {
  const lines = [`${view.campaignId} "${view.name}"  ${describeState(view)}`, `totals: ${formatCounts(view.totals)}`];
  const skipped = Object.entries(view.skippedByReason ?? {}).filter(([, count]) => Number(count) > 0);
  if (skipped.length > 0) lines.push(`skipped by reason: ${formatCounts(Object.fromEntries(skipped))}`);
  lines.push(`failures by code: ${formatCounts(view.failuresByCode) || 'none'}`);
  lines.push(`cost: ${formatMoney(view.cost)}`);
  return lines;
}

/**
 * Follows the campaign to a terminal state; prints its report. A DRAFT is refused (nothing would
 * ever change): launch it first.
 *
 * @example
 * await campaignWatchCommand(client, 'cmp_1', { pollIntervalMs: 2000 }, output);
 */
export async function campaignWatchCommand(
  client: Pick<CampaignClient, 'campaign'>,
  campaignId: string,
  options: { pollIntervalMs: number },
  output: CliOutput,
): Promise<CampaignView> {
  const sleep = output.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let view = await client.campaign(campaignId);
  if (view.state === 'DRAFT')
    throw new CampaignCommandError(`campaign ${campaignId} is a DRAFT: launch it first (npx wa-broadcast campaign launch ${campaignId})`);
  const bar = new SingleBar(
    { format: 'campaign |{bar}| {percentage}% | {value}/{total} recipients | {state}', stream: output.progressStream, hideCursor: true },
    Presets.shades_classic,
  );
  const first = campaignProgress(view);
  bar.start(first.total, first.done, { state: describeState(view) });
  let shown = '';
  for (;;) {
    const state = describeState(view);
    if (state !== shown) output.err(`${new Date().toISOString().slice(11, 19)} ${campaignId} ${state}`);
    shown = state;
    const progress = campaignProgress(view);
    bar.setTotal(progress.total);
    bar.update(progress.done, { state });
    if (TERMINAL_CAMPAIGN_STATES.has(view.state)) break;
    await sleep(options.pollIntervalMs);
    view = await client.campaign(campaignId);
  }
  bar.stop();
  for (const line of formatCampaignReport(view)) output.out(line);
  return view;
}

/** Writes the recipients CSV page by page (the header once); answers the rows written. */
async function writeRecipientsCsv(client: Pick<CampaignClient, 'recipientsCsvPage'>, campaignId: string, outPath: string): Promise<number> {
  const descriptor = openSync(outPath, 'w');
  let rows = 0;
  try {
    let cursor: string | undefined;
    let first = true;
    do {
      const page = await client.recipientsCsvPage(campaignId, cursor);
      const records = (parse(page.csv, { skip_empty_lines: true, relax_column_count: true }) as unknown[]).length;
      rows += Math.max(0, records - 1);
      // Every page starts with the header row; the file keeps the first page's.
      const body = first ? page.csv : page.csv.slice(page.csv.indexOf('\n') + 1);
      if (body.length > 0) writeSync(descriptor, body.endsWith('\n') ? body : `${body}\r\n`);
      first = false;
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
  } finally {
    closeSync(descriptor);
  }
  return rows;
}

/**
 * Prints the campaign's report; with `csvPath`, writes every recipient there too.
 *
 * @example
 * await campaignReportCommand(client, 'cmp_1', 'cmp_1.csv', output);
 */
export async function campaignReportCommand(
  client: Pick<CampaignClient, 'campaign' | 'recipientsCsvPage'>,
  campaignId: string,
  csvPath: string | undefined,
  output: Pick<CliOutput, 'out' | 'err'>,
): Promise<void> {
  const view = await client.campaign(campaignId);
  for (const line of formatCampaignReport(view)) output.out(line);
  if (!TERMINAL_CAMPAIGN_STATES.has(view.state))
    output.err(`campaign ${campaignId} is ${view.state}: recipients not yet accounted for read PENDING; run the report again when it has ended`);
  if (!csvPath) return;
  const rows = await writeRecipientsCsv(client, campaignId, csvPath);
  output.out(`${rows} recipients of ${campaignId} written to ${csvPath}`);
}
