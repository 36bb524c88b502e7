/**
 * Holding a business account's jobs when Meta refuses the account itself (docs/BROADCAST.md "When
 * Meta refuses the account"): 131064 (messaging limit for template-classification violations),
 * 131042 (payment), 131031 (locked), 131048 (spam rate limit on the sending number). The same pause
 * as a template's (broadcast-stores.ts `JobPause`), without a deadline: only a resume ends it
 * (resume-job.ts). The first refusal holds its job and the organization's other running jobs of the
 * same business account; each job held announces `job.paused`.
 */
import type { CustomerEvent } from '../customer-events/ports';
import { DEFAULT_UNCONFIRMED_AFTER_MS } from '../delivery/recipient-status';
import { accountHoldOf } from '../sending/failure-reasons';
import type { GraphError } from '../sending/ports';
import { TERMINAL_STATUSES, isAwaitingFiring, summarizeJob, type BroadcastJob } from './broadcast-job';
import type { ChunkProgressStore, Clock, JobControlStore, JobPause, JobStore } from './ports';
import { announcePause } from './pause-events';

export { pauseView, type JobPauseView } from './pause-events';

/** What holding an account's jobs uses. */
export interface AccountHoldPorts {
  broadcasts: Pick<JobStore, 'getJob' | 'listJobsOfOrganization'> & Pick<JobControlStore, 'pauseJob'> & Pick<ChunkProgressStore, 'getJobProgress'>;
  clock: Clock;
  /** Customer events (`job.paused`); absent: none. */
  events?: { publish(organizationId: string, event: CustomerEvent): Promise<void> };
}

/** How far back the organization's jobs are looked at for others still running on the account. */
export const ACCOUNT_HOLD_LOOKBACK_MS = 7 * 24 * 3_600_000;
const JOBS_PAGE = 100;

/**
 * Whether only a resume ends the pause (no deadline): Meta refused the account (or, later, a person
 * paused the job). A template pause ends by itself once the template is sendable again.
 *
 * @example
 * isHeldUntilResumed({ pausedAt: '2026-11-02T09:00:00.000Z', reason: 'ACCOUNT_LOCKED', pausedBy: 'meta', code: 131031 }); // true
 */
export const isHeldUntilResumed = (pause: JobPause): boolean => pause.failsAt === undefined;

/**
 * The hold a refusal of the account asks for, or undefined for any other refusal. `text` is Meta's
 * words (its details when it gives them, else its message).
 *
 * @example
 * accountHoldFrom({ code: 131064, message: 'Messaging limit reached', type: 'OAuthException' }, now);
 * // { pausedAt: now.toISOString(), reason: 'ACCOUNT_MESSAGING_LIMITED', pausedBy: 'meta', code: 131064, text: 'Messaging limit reached' }
 */
export function accountHoldFrom(error: Pick<GraphError, 'code' | 'message' | 'error_data'>, now: Date): JobPause | undefined {
  const reason = accountHoldOf(error.code);
  if (reason === undefined) return undefined;
  const details = (error.error_data as { details?: unknown } | undefined)?.details;
  const text = typeof details === 'string' && details.length > 0 ? details : error.message;
  return { pausedAt: now.toISOString(), reason, pausedBy: 'meta', code: error.code, text: text.slice(0, 500) };
}

/**
 * Holds `jobId` with `hold` and, when this call set it (the first refusal), every other running job
 * of the organization on the same business account; announces `job.paused` for each job it held.
 * A job already held until resumed keeps its pause. A finished job (a `failed` status 131042 after
 * its last send) is not held, but the account's running jobs are. Returns the pause stored on `jobId`.
 *
 * @example
 * await holdAccountJobs(ports, 'pub_1', accountHoldFrom(rejection.error, clock.now())!);
 */
export async function holdAccountJobs(ports: AccountHoldPorts, jobId: string, hold: JobPause): Promise<JobPause | undefined> {
  const job = await ports.broadcasts.getJob(jobId);
  if (!job) return undefined;
  const now = ports.clock.now();
  let stored: JobPause | undefined;
  const held: Array<[BroadcastJob, JobPause]> = [];
  if (!(await isFinished(ports, job, now))) {
    stored = await ports.broadcasts.pauseJob(jobId, hold);
    // Paused before (by another worker's refusal): that call holds the account's other jobs.
    if (!stored || !isSamePause(stored, hold)) return stored;
    held.push([job, stored]);
  }
  // Every job is held before any announcement: a failed publish never leaves a job running.
  for (const other of await otherRunningJobs(ports, job, now)) {
    const otherHold = await ports.broadcasts.pauseJob(other.jobId, hold);
    if (otherHold && isSamePause(otherHold, hold)) held.push([other, otherHold]);
  }
  for (const [heldJob, pause] of held) await announcePause(ports, heldJob, pause, now);
  return stored;
}

const isSamePause = (stored: JobPause, proposed: JobPause): boolean =>
  stored.pausedAt === proposed.pausedAt && stored.reason === proposed.reason && stored.code === proposed.code;

/** The organization's other jobs on the account, recent, not cancelled, not already held until resumed, not awaiting their firing, not finished. */
async function otherRunningJobs(ports: AccountHoldPorts, job: BroadcastJob, now: Date): Promise<BroadcastJob[]> {
  const from = new Date(now.getTime() - ACCOUNT_HOLD_LOOKBACK_MS).toISOString();
  const running: BroadcastJob[] = [];
  let after: Awaited<ReturnType<JobStore['listJobsOfOrganization']>>['next'];
  do {
    const page = await ports.broadcasts.listJobsOfOrganization(job.organizationId, { from, limit: JOBS_PAGE, ...(after ? { after } : {}) });
    for (const other of page.jobs) {
      const candidate = other.jobId !== job.jobId && other.wabaId === job.wabaId && other.cancelledAt === undefined && !isAwaitingFiring(other);
      if (candidate && !(other.pausedAt !== undefined && other.pauseFailsAt === undefined) && !(await isFinished(ports, other, now))) running.push(other);
    }
    after = page.next;
  } while (after);
  return running;
}

async function isFinished(ports: AccountHoldPorts, job: BroadcastJob, now: Date): Promise<boolean> {
  const progress = await ports.broadcasts.getJobProgress(job.jobId);
  return TERMINAL_STATUSES.has(summarizeJob(job, progress.chunks, { codes: progress.tally, now, unconfirmedAfterMs: DEFAULT_UNCONFIRMED_AFTER_MS }).status);
}
