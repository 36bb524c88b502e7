/**
 * The repair of jobs whose ledger pages hold entries no reader can decode (issue 35: the earlier
 * send-bulk stored a refused recipient with an empty `to`, the page codec wrote it and refused to
 * read it back, so the chunk dead-lettered, the job stayed PROCESSING and its recipients list
 * answered 500). `npm run admin -- repair-ledger-pages --job <jobId>` (ledger-repair-admin-commands.ts,
 * docs/OPERATIONS.md "Repairing a job's ledger pages"):
 *
 * 1. each chunk's pages: every entry in the broken form is rewritten under the safe key of a refused
 *    recipient (`refusedRecipientKey`), its status, reason and times kept (one conditional write per
 *    entry, on the value read: nothing else is touched);
 * 2. each chunk not done that held such entries (or every chunk not done, with `settleUnfinished`:
 *    only for a job no worker still sends, since a running worker's claims would read as crashed):
 *    settled as a chunk given up is (`abandonChunk` of settle-chunk.ts): every
 *    recipient without a final entry FAILED `WORKER_ERROR` (never sent, never charged; CANCELLED when
 *    the job was cancelled), a crashed claim UNKNOWN, the chunk reconciled and `job.completed` sent
 *    when it was the job's last.
 *
 * Safe to run again: a readable ledger has nothing to rewrite, a settled recipient is skipped.
 */
import { abandonChunk, type SettleDependencies } from './chunk-worker/settle-chunk';
import type { ChunkRecipient } from './chunk-message';
import { addressOfEarlier, earlierRecipientOf, refusedRecipientKey } from './earlier-recipients';
import { JobNotFoundError } from './errors';
import { summarizeJob, type BroadcastJob } from './broadcast-job';
import type { ChunkRecipientRecords, JobRecipient } from './ports';
import { DEFAULT_UNCONFIRMED_AFTER_MS } from '../delivery/recipient-status';

/** What the page rewrite of one chunk did, by recipient index. */
export interface PageRepairResult {
  /** Entries rewritten under the safe key. */
  rewritten: number[];
  /** Entries still unreadable in a form the repair does not know (left as they are; named in the report). */
  unrepairable: number[];
}

/** The store's side of the repair: it alone knows the page encoding (shared/adapters/dynamodb/dynamodb-ledger-page-repair.ts). */
export interface LedgerPageRepair {
  repairChunkPages(jobId: string, chunkIndex: number): Promise<PageRepairResult>;
}

export interface LedgerRepairPorts extends SettleDependencies {
  pages: LedgerPageRepair;
}

export interface ChunkRepairReport extends PageRepairResult {
  chunkIndex: number;
  /** Recipients settled now (FAILED WORKER_ERROR, or CANCELLED), and crashed claims marked UNKNOWN. */
  settled: number;
  unknown: number;
  done: boolean;
}

export interface LedgerRepairReport {
  jobId: string;
  statusBefore: string;
  status: string;
  chunks: ChunkRepairReport[];
}

/** The ledger key of a listed recipient (what its entry would have been written under). */
function keyOfListed(listed: JobRecipient): string {
  const address = addressOfEarlier(earlierRecipientOf(listed));
  return 'issue' in address ? refusedRecipientKey(listed.index) : address.to;
}

/** The chunk's recipients without a final ledger entry: never written (absent) or still claimed (SENDING). */
function unsettledOf(records: ChunkRecipientRecords): ChunkRecipient[] {
  const byIndex = new Map(records.ledger.map(({ entry }) => [entry.index, entry]));
  return (records.listed ?? []).flatMap((listed) => {
    const entry = byIndex.get(listed.index);
    if (entry && entry.status !== 'SENDING') return [];
    return [{ index: listed.index, to: entry?.to ?? keyOfListed(listed), parameters: [] }];
  });
}

async function statusOf(ports: LedgerRepairPorts, job: BroadcastJob): Promise<string> {
  const jobId = job.jobId;
  const progress = await ports.broadcasts.getJobProgress(jobId);
  return summarizeJob(job, progress.chunks, { codes: progress.tally, now: ports.clock.now(), unconfirmedAfterMs: DEFAULT_UNCONFIRMED_AFTER_MS }).status;
}

/**
 * Rewrites a job's unreadable ledger entries and settles its unfinished chunks (above).
 *
 * @example
 * await repairJobLedger(ports, 'leg_01JD…', {}); // { jobId, statusBefore: 'PROCESSING', status: 'COMPLETED_WITH_FAILURES', chunks: [{ chunkIndex: 0, rewritten: [1], settled: 0, … }] }
 */
export async function repairJobLedger(ports: LedgerRepairPorts, jobId: string, options: { settleUnfinished?: boolean } = {}): Promise<LedgerRepairReport> {
  const job = await ports.broadcasts.getJob(jobId);
  if (!job) throw new JobNotFoundError(jobId);
  const statusBefore = await statusOf(ports, job);
  const { chunks: progress } = await ports.broadcasts.getJobProgress(jobId);
  const chunks: ChunkRepairReport[] = [];
  for (let chunkIndex = 0; chunkIndex < job.totalChunks; chunkIndex += 1) {
    const pages = await ports.pages.repairChunkPages(jobId, chunkIndex);
    const chunk = progress.find((candidate) => candidate.chunkIndex === chunkIndex);
    const stuck = pages.rewritten.length > 0 || options.settleUnfinished === true;
    if (!chunk || chunk.done || !stuck || pages.unrepairable.length > 0) {
      chunks.push({ chunkIndex, ...pages, settled: 0, unknown: 0, done: chunk?.done ?? false });
      continue;
    }
    const unsettled = unsettledOf(await ports.broadcasts.readChunkRecipients(jobId, chunkIndex));
    const report = await abandonChunk(ports, { jobId, chunkIndex }, unsettled);
    chunks.push({ chunkIndex, ...pages, settled: report.failed + (report.cancelled ?? 0), unknown: report.unknown, done: report.chunkDone === true });
  }
  return { jobId, statusBefore, status: await statusOf(ports, job), chunks };
}
