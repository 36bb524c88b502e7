/**
 * `npm run broadcast -- watch <jobId>…`: any job followed to its end with the progress bar and the
 * summary `send` prints (a job sent with curl or another tool, too). `npm run broadcast -- list`:
 * the organization's latest broadcasts, one line each, newest first.
 */
import type { BroadcastClient, BroadcastsPage } from '../../client/broadcast-client';
import type { CliOutput } from './cli-output';
import { formatSummary } from './job-progress';
import { followWithBar } from './follow-with-bar';

/**
 * Follows the jobs and prints their summary (and the command for each one's per-recipient CSV).
 *
 * @example
 * await watchCommand(client, ['pub_1'], { pollIntervalMs: 2000 }, output);
 */
export async function watchCommand(
  client: Pick<BroadcastClient, 'jobStatus'>,
  jobIds: readonly string[],
  options: { pollIntervalMs: number },
  output: CliOutput,
): Promise<void> {
  const first = await Promise.all(jobIds.map((jobId) => client.jobStatus(jobId)));
  const jobs = await followWithBar(
    client,
    jobIds,
    first.reduce((sum, job) => sum + job.totalRecipients, 0),
    options,
    output,
  );
  for (const line of formatSummary(jobs)) output.out(line);
  for (const jobId of jobIds) output.out(`  npm run -s broadcast -- report ${jobId} --out ${jobId}.csv`);
}

/** One line of a listed broadcast: id, state, progress, name, template, when. */
function lineOf(entry: BroadcastsPage['broadcasts'][number]): string {
  const pending = Number(entry.summary.pending ?? 0);
  const done = entry.totalRecipients - pending;
  const template = entry.template ? `${entry.template.name} (${entry.template.language})` : '-';
  const when = entry.scheduledAt ? `scheduled ${entry.scheduledAt}` : `created ${entry.createdAt}`;
  return [entry.jobId, entry.status.padEnd(23), `${done}/${entry.totalRecipients}`.padStart(11), entry.broadcastName ?? '-', template, when].join('  ');
}

/**
 * Prints one page of the organization's broadcasts (`limit`, `status`) and, when there are more,
 * the option that shows the next.
 *
 * @example
 * await listCommand(client, { limit: '20' }, output);
 */
export async function listCommand(
  client: Pick<BroadcastClient, 'listBroadcasts'>,
  query: { status?: string; limit?: string; cursor?: string },
  output: CliOutput,
): Promise<void> {
  const page = await client.listBroadcasts(query as Parameters<BroadcastClient['listBroadcasts']>[0]);
  if (page.broadcasts.length === 0) output.out('no broadcasts');
  for (const entry of page.broadcasts) output.out(lineOf(entry));
  if (page.nextCursor) output.out(`more: npm run -s broadcast -- list --cursor ${page.nextCursor}${query.limit ? ` --limit ${query.limit}` : ''}`);
}
