/**
 * The broadcasts list (GET /broadcasts): the caller organization's jobs, newest first, each with
 * the state and summary the status endpoint gives (`readJobState`). docs/BROADCAST.md "Listing broadcasts".
 *
 * The job index (gsi1 `ORG#<org>#JOBS` / createdAt) gives the order and the `from`/`to` range;
 * the key's scope and the status filter are applied per job after its state is read, so a page
 * reads on through the index until it is full, the index ends, or MAX_EXAMINED jobs were looked at
 * (then the page may be short and `nextCursor` continues after the last job examined).
 */
import { TERMINAL_STATUSES, type BroadcastJob, type JobKind, type JobStatus, type JobSummary } from './broadcast-job';
import { InvalidListCursorError } from './errors';
import {
  acceptFailureViewOf,
  cancelViewOf,
  followUpViewOf,
  pauseViewOf,
  readJobState,
  type AcceptFailureView,
  type JobPauseView,
  type StatusReading,
} from './get-job-status';
import { isJobInScope, requireOperationInScope, type ScopedCaller } from './key-scope';
import type { ChunkProgressStore, JobListPosition, JobStore } from './ports';

export const BROADCASTS_PAGE_DEFAULT = 20;
export const BROADCASTS_PAGE_MAX = 100;
/** Jobs one request looks at, at most: bounds the reads of a page whose filter matches rarely. */
export const MAX_EXAMINED = 500;
/** Jobs whose state is read at once (two queries each). */
const STATE_READ_CONCURRENCY = 10;
/** Jobs read from the index at once when a status filter may drop most of them. */
const FILTERED_BATCH = 50;

export interface BroadcastListItem {
  jobId: string;
  kind: JobKind;
  broadcastName: string | null;
  fromPhoneNumber: string;
  template: { name: string; language: string } | null;
  status: JobStatus;
  totalRecipients: number;
  summary: JobSummary;
  createdAt: string;
  /** The latest chunk's doneAt once every chunk is done; null before. */
  finishedAt: string | null;
  /** When a scheduled job fans out (ISO, UTC); null for jobs sent at once. */
  scheduledAt: string | null;
  /** Only while the job reads PAUSED, as in the status answer. */
  pause?: JobPauseView;
  /** Only on a job whose queueing failed part-way, as in the status answer. */
  acceptFailure?: AcceptFailureView;
  /** As in the status answer: a cancel was requested and the job does not read CANCELLED. */
  cancelRequestedAt?: string;
  /** As in the status answer: a follow-up's parent job. */
  followUpOf?: string;
}

export interface BroadcastsQuery {
  status?: JobStatus;
  /** ISO times as Date#toISOString writes them, both inclusive. */
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

export interface BroadcastsPage {
  broadcasts: BroadcastListItem[];
  nextCursor: string | null;
}

/* ------------------------------------------------------------------ cursor */

interface Cursor {
  /** Position: createdAt and job id of the last job read. */
  c: string;
  j: string;
  /** The filters it was issued for ('' for none). */
  s: string;
  f: string;
  t: string;
}

type Filters = Pick<Cursor, 's' | 'f' | 't'>;

const encodeCursor = (position: JobListPosition, filters: Filters): string =>
  Buffer.from(JSON.stringify({ c: position.createdAt, j: position.jobId, ...filters } satisfies Cursor)).toString('base64url');

function decodeCursor(text: string, filters: Filters): JobListPosition {
  let cursor: unknown;
  try {
    cursor = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidListCursorError('same status, from and to');
  }
  const { c, j, s, f, t } = (cursor ?? {}) as Partial<Cursor>;
  const isPosition = typeof c === 'string' && !Number.isNaN(Date.parse(c)) && typeof j === 'string' && j.length > 0;
  if (!isPosition || s !== filters.s || f !== filters.f || t !== filters.t) throw new InvalidListCursorError('same status, from and to');
  return { createdAt: c, jobId: j };
}

/* -------------------------------------------------------------------- rows */

async function listItemOf(broadcasts: ChunkProgressStore, job: BroadcastJob, reading: StatusReading): Promise<BroadcastListItem> {
  const { status, summary, chunks } = await readJobState(broadcasts, job, reading);
  const doneTimes = chunks.map((chunk) => chunk.doneAt).filter((time): time is string => time !== undefined);
  const finishedAt = TERMINAL_STATUSES.has(status) && doneTimes.length > 0 ? doneTimes.reduce((max, time) => (time > max ? time : max)) : null;
  return {
    jobId: job.jobId,
    kind: job.kind,
    broadcastName: job.kind === 'freeform' ? null : (job.broadcastName ?? null),
    fromPhoneNumber: job.fromPhoneNumber,
    template: job.kind === 'freeform' ? null : { name: job.template.name, language: job.template.language },
    status,
    totalRecipients: job.totalRecipients,
    summary,
    createdAt: job.createdAt,
    finishedAt,
    scheduledAt: job.scheduledAt ?? null,
    ...pauseViewOf(job, status),
    ...acceptFailureViewOf(job),
    ...cancelViewOf(job, status),
    ...followUpViewOf(job),
  };
}

async function listItemsOf(broadcasts: ChunkProgressStore, jobs: readonly BroadcastJob[], reading: StatusReading): Promise<BroadcastListItem[]> {
  const items: BroadcastListItem[] = [];
  for (let start = 0; start < jobs.length; start += STATE_READ_CONCURRENCY) {
    items.push(...(await Promise.all(jobs.slice(start, start + STATE_READ_CONCURRENCY).map((job) => listItemOf(broadcasts, job, reading)))));
  }
  return items;
}

/* ---------------------------------------------------------------- use case */

export async function listBroadcasts(
  broadcasts: JobStore & ChunkProgressStore,
  caller: ScopedCaller,
  query: BroadcastsQuery,
  reading: StatusReading,
): Promise<BroadcastsPage> {
  requireOperationInScope(caller, 'read-job-status');
  const filters: Filters = { s: query.status ?? '', f: query.from ?? '', t: query.to ?? '' };
  let after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, filters);
  const page: BroadcastListItem[] = [];
  let examined = 0;
  for (;;) {
    const wanted = query.status === undefined ? query.limit - page.length : Math.max(query.limit, FILTERED_BATCH);
    const batch = await broadcasts.listJobsOfOrganization(caller.organizationId, {
      from: query.from,
      to: query.to,
      limit: Math.min(wanted, MAX_EXAMINED - examined),
      after,
    });
    examined += batch.jobs.length;
    // A campaign's job is read as the campaign (GET /campaigns), never listed among broadcasts.
    const inScope = batch.jobs.filter((job) => job.organizationId === caller.organizationId && isJobInScope(caller, job) && !isCampaignJob(job));
    const items = await listItemsOf(broadcasts, inScope, reading);
    for (const item of items) {
      if (query.status !== undefined && item.status !== query.status) continue;
      page.push(item);
      if (page.length < query.limit) continue;
      const isLastRead = item.jobId === batch.jobs.at(-1)?.jobId;
      const more = !isLastRead || batch.next !== undefined;
      return { broadcasts: page, nextCursor: more ? encodeCursor({ createdAt: item.createdAt, jobId: item.jobId }, filters) : null };
    }
    if (batch.next === undefined) return { broadcasts: page, nextCursor: null };
    after = batch.next;
    if (examined >= MAX_EXAMINED) return { broadcasts: page, nextCursor: encodeCursor(after, filters) };
  }
}

const isCampaignJob = (job: BroadcastJob): boolean => job.kind === 'template' && job.campaignId !== undefined;
