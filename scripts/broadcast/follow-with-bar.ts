/**
 * Follows jobs to their end with a progress bar (`send` after its accept, `watch` for any job id):
 * recipients accounted for over all jobs, and how many jobs are in which state.
 */
import { SingleBar, Presets } from 'cli-progress';
import type { BroadcastClient, JobStatus } from '../../client/broadcast-client';
import { followJobs } from './job-progress';
import type { CliOutput } from './cli-output';

/** `2 COMPLETED, 1 PROCESSING` */
function summarizeStates(states: string[]): string {
  const counts = new Map<string, number>();
  for (const state of states) counts.set(state, (counts.get(state) ?? 0) + 1);
  return [...counts].map(([state, count]) => `${count} ${state}`).join(', ');
}

/**
 * Polls `jobIds` until each is terminal, drawing the bar on `output.progressStream` (a TTY;
 * elsewhere cli-progress draws nothing); the jobs' last status answers.
 *
 * @example
 * const jobs = await followWithBar(client, ['pub_1'], 1001, { pollIntervalMs: 2000 }, output);
 */
export async function followWithBar(
  client: Pick<BroadcastClient, 'jobStatus'>,
  jobIds: readonly string[],
  expectedTotal: number,
  options: { pollIntervalMs: number },
  output: CliOutput,
): Promise<JobStatus[]> {
  const bar = new SingleBar(
    { format: 'delivering |{bar}| {percentage}% | {value}/{total} recipients | {states}', stream: output.progressStream, hideCursor: true },
    Presets.shades_classic,
  );
  bar.start(expectedTotal, 0, { states: 'starting' });
  try {
    return await followJobs(client, jobIds, {
      pollIntervalMs: options.pollIntervalMs,
      ...(output.sleep ? { sleep: output.sleep } : {}),
      onProgress: (accounted, totalRecipients, states) => {
        bar.setTotal(totalRecipients);
        bar.update(accounted, { states: summarizeStates(states) });
      },
    });
  } finally {
    bar.stop();
  }
}
