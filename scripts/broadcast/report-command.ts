/**
 * `npm run broadcast -- report <jobId> --out results.csv`: every recipient of a job with its
 * outcome, as the service's CSV export (`GET …/broadcasts/{jobId}/recipients?format=csv`, which
 * answers every row at once: no paging).
 */
import { writeFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { BroadcastClient } from '../../client/broadcast-client';
import { isTerminal } from './job-progress';
import type { CliOutput } from './send-command';

export interface ReportOutcome {
  rows: number;
  status: string;
}

export async function reportCommand(
  client: BroadcastClient,
  jobId: string,
  outPath: string | undefined,
  output: Pick<CliOutput, 'out' | 'err'>,
): Promise<ReportOutcome> {
  const status = await client.jobStatus(jobId);
  const csv = await client.recipientsCsv(jobId);
  const rows = Math.max(0, (parse(csv, { skip_empty_lines: true }) as unknown[]).length - 1);
  if (!isTerminal(status.status)) {
    output.err(`job ${jobId} is ${status.status}: recipients not yet accounted for read PENDING; run the report again when it has finished`);
  }
  if (outPath) {
    writeFileSync(outPath, csv);
    output.out(`${rows} recipients of ${jobId} (${status.status}) written to ${outPath}`);
  } else {
    output.out(csv.replace(/\r?\n$/, ''));
  }
  return { rows, status: status.status };
}
