/**
 * The stores of broadcast jobs, one port per aggregate (adapters: shared/adapters/dynamodb/
 * dynamodb-job-store.ts, -job-control-store.ts, -recipient-ledger.ts, -chunk-progress-store.ts):
 *
 * - JobStore: the job record and its chunks' items as accepted (create, discard, read, list).
 * - JobControlStore: what a running job is told (cancelled, paused), read often by chunk workers.
 * - RecipientLedger: one entry per recipient (claims, outcomes, Meta's facts, message ids), stored in pages.
 * - ChunkProgressStore: each chunk's counters and the job's tally codes (what the summaries count).
 *
 * A use case names the ports it uses (`broadcasts: JobStore & ChunkProgressStore`); a composition
 * combines their adapters into that one dependency (shared/ports/combine-ports.ts).
 */
import type { BroadcastJob, ChunkProgress } from './broadcast-job';
import type { DeliveryFacts, TallyCode } from '../delivery/recipient-status';
import type { TemplateContent, TemplateParameters } from '../templates/template-content.schema';
import type { OutcomeCounts, OutcomeFacts } from '../outcomes/outcome-facts';
import type { HaltFigures } from '../send-rules/halt-figures';

export interface JobStore {
  /**
   * Idempotent: a job id that exists keeps its items and progress; `created` says whether this call wrote the job.
   * `recipients` (every recipient of the request, refused ones included, by index) are stored one item per chunk
   * with the chunk items, for the recipients list.
   */
  createJob(job: BroadcastJob, chunkSizes: readonly number[], recipients?: readonly JobRecipient[]): Promise<{ created: boolean }>;
  /**
   * Deletes a job nothing of which was queued (its accept failed before queueing: job-fan-out.ts):
   * its item, its chunks, its recipients and any ledger entries written at accept time.
   */
  discardJob(jobId: string): Promise<void>;
  /** Sets `acceptFailedAt` on the job (queueing failed after it had started); nothing when the job does not exist. */
  markAcceptFailed(jobId: string, at: Date): Promise<void>;
  /** Removes `acceptFailedAt` (a retry queued the job); nothing when the job does not exist. */
  clearAcceptFailed(jobId: string): Promise<void>;
  getJob(jobId: string): Promise<BroadcastJob | undefined>;
  /**
   * An organization's jobs, newest first (by `createdAt`, then job id), with `createdAt` within
   * [from, to] when given; at most `limit`, continuing after `after`. `next` is the position of the
   * last job returned when more may follow (eventually consistent on AWS: the job index).
   */
  listJobsOfOrganization(organizationId: string, query: JobListQuery): Promise<JobListPage>;
  /**
   * Adds chunks to an open-ended job (a campaign's: docs/CAMPAIGNS.md "How a campaign runs"): chunk
   * `firstChunkIndex + i` of `chunkSizes[i]` recipients, with its listed recipients (by index, as
   * createJob stores them). Idempotent: a chunk that exists keeps its items and progress, and only the
   * chunks this call created raise `totalRecipients`; `totalChunks` only grows. Nothing when the job does not exist.
   */
  appendChunks(jobId: string, firstChunkIndex: number, chunkSizes: readonly number[], listedRecipients: readonly JobRecipient[]): Promise<void>;
  /**
   * Closes an open-ended job: sets its exact totals and `expansion: 'done'` (or `stopped`: a cancel
   * closed it before every member was read), after which it reads finished once its chunks are done.
   * Idempotent; nothing when the job does not exist.
   */
  closeExpansion(jobId: string, totals: { totalRecipients: number; totalChunks: number; stopped?: boolean }): Promise<void>;
}

export interface JobControlStore {
  /**
   * Sets the job's `cancelledAt` (and `cancelReason` when given) unless already set; the stored
   * `cancelledAt` (the first cancellation's time). Undefined when the job does not exist.
   */
  cancelJob(jobId: string, now: Date, reason?: string): Promise<string | undefined>;
  /** Cancellation, creation time and pause of the job (a consistent read of those attributes only: the worker asks it often). Undefined: no such job. */
  readJobControl(jobId: string): Promise<JobControl | undefined>;
  /**
   * Sets the pause unless one is set (the first pauser wins), except that a pause without a deadline
   * (held until resumed: Meta refused the account) replaces one with a deadline (a template pause),
   * never the reverse, and is not set when its `pausedAt` (when the refusal was seen) is not after
   * the job's last `resumedAt`; the stored pause. Undefined when the job does not exist or has none.
   */
  pauseJob(jobId: string, pause: JobPause): Promise<JobPause | undefined>;
  /**
   * Removes the pause that was set at `pausedAt` (never a later one); true when this call removed it.
   * `at` (a person's resume of a hold until resumed) is kept as `resumedAt`: a refusal of the account
   * Meta gave before it (seen by a worker still finishing its sends) then no longer pauses the job.
   */
  resumeJob(jobId: string, pausedAt: string, at?: Date): Promise<boolean>;
  /**
   * Adds a calling code Meta refused for the job's account (130497: the account may not message
   * users of that country): the job's other recipients of it fail unsent. Nothing when the job does not exist.
   */
  refuseCountry(jobId: string, callingCode: string): Promise<void>;
}

export interface RecipientLedger {
  /**
   * Conditional write: only the first claim of a recipient succeeds. Written before the upstream call
   * (`SENDING`), or, when a cancellation settles a chunk, directly as `CANCELLED`: a retry of that
   * settling then finds finished entries, never claims it would take for a crashed send's.
   */
  claimRecipient(jobId: string, chunkIndex: number, index: number, to: string, now: Date, as?: ClaimState): Promise<ClaimResult>;
  /**
   * `claimRecipient` for a group (the recipients a lane is about to send, or settles): each result
   * as that recipient's own claim would give it, in the order of `claims`. The DynamoDB ledger writes
   * a group's recipients of one ledger page in one conditional write (docs/DATA-MODEL.md "Ledger pages").
   */
  claimRecipients(jobId: string, chunkIndex: number, claims: readonly RecipientClaim[], now: Date): Promise<ClaimResult[]>;
  /**
   * Deletes a claim still in SENDING: its send was refused by Meta without being sent (a paused or
   * disabled template, 132015/132016), so the recipient can be claimed and sent after the resume.
   * True when this call deleted it.
   */
  releaseClaim(jobId: string, chunkIndex: number, index: number): Promise<boolean>;
  /** Moves a claimed entry to its outcome (and writes its tally code). Unknown → not retried. */
  recordOutcomes(jobId: string, chunkIndex: number, entries: readonly LedgerEntry[]): Promise<void>;
  /**
   * Entries claimed directly in their final state (CANCELLED, FAILED with a reason: `claimRecipient`'s
   * `as`): the claim already wrote them as they are, so only their tally codes are written (half the
   * writes of recordOutcomes, which matters when a cancellation settles thousands at once).
   */
  recordSettled(jobId: string, entries: ReadonlyArray<Pick<LedgerEntry, 'index' | 'status' | 'failureReasonCode' | 'updatedAt'>>): Promise<void>;
  /**
   * Notes recipients held unclaimed until a time (a send window's opening `0A:`, a frequency cap's
   * `0B:`; shared/delivery/recipient-status.ts `tallyCodes`), so the summary counts them waiting.
   * Kept apart from the outcome codes and overwritten by the next hold: any outcome of the recipient
   * (a claim's code, an event's) wins over it when read (docs/DATA-MODEL.md "Tally items").
   */
  recordWaiting(jobId: string, entries: ReadonlyArray<{ index: number; code: TallyCode }>): Promise<void>;
  /** Marks entries left in SENDING by a crashed attempt as UNKNOWN, only if still SENDING. */
  markStaleAsUnknown(jobId: string, chunkIndex: number, index: number, now: Date): Promise<boolean>;
  /**
   * The ledger entry that recorded an upstream message id (gsi1 `WAMID#<id>`), so a delivery event
   * can be matched to its job and recipient; undefined when no entry holds that id.
   */
  findByMessageId(messageId: string): Promise<LedgerEntryLocation | undefined>;
  /**
   * One chunk's recipients as accepted (undefined for jobs recorded before they were kept) and its
   * ledger entries with Meta's delivery facts (a consistent read): what the recipients list shows.
   */
  readChunkRecipients(jobId: string, chunkIndex: number): Promise<ChunkRecipientRecords>;
}

export interface ChunkProgressStore {
  /**
   * Notes the chunk's first start. False when the chunk does not exist: its job was discarded at
   * accept time (job-fan-out.ts discards only jobs nothing was queued for, so this is a stray
   * message), and a message of no job must send nothing.
   */
  markChunkStarted(jobId: string, chunkIndex: number, now: Date): Promise<boolean>;
  /** Live progress (approximate until reconciled). */
  addChunkProgress(jobId: string, chunkIndex: number, delta: ProgressDelta): Promise<void>;
  /** Recounts the chunk from its ledger and marks it done when every recipient is accounted for. */
  reconcileChunk(jobId: string, chunkIndex: number, now: Date): Promise<{ done: boolean }>;
  /** The chunks, every tally code and the outcomes of a job (consistent reads): what the status summary counts. */
  getJobProgress(jobId: string): Promise<JobProgress>;
}

/** CANCELLED: claimed after the job was cancelled, never sent. */
/** HELD_OUT: a campaign's held-out member (docs/OUTCOMES.md "Holdout and lift"), written at expansion, never sent. */
export type LedgerStatus = 'SENDING' | 'SENT' | 'FAILED' | 'UNKNOWN' | 'CANCELLED' | 'HELD_OUT';

export interface LedgerEntry {
  index: number;
  to: string;
  status: LedgerStatus;
  messageId?: string;
  failureReasonCode?: string;
  attempts: number;
  updatedAt: string;
  /** A message Meta accepted through the Marketing Messages API; absent: through Cloud API (`/messages`), or not sent. */
  sentVia?: 'marketing_messages';
  /** A SENT message Meta holds for quality assessment (template pacing): reads HELD until a status webhook settles it. */
  held?: true;
}

export type ClaimResult = { claimed: true } | { claimed: false; existing: LedgerEntry };

/** One recipient of a group claim (`claimRecipients`): `as` SENDING unless given. */
export interface RecipientClaim {
  index: number;
  to: string;
  as?: ClaimState;
}

/**
 * What a claim writes: SENDING before the upstream call, or a final state written at once when the
 * worker settles recipients it will never send (a cancellation: CANCELLED; a template pause that
 * timed out: FAILED with its reason), so a retry of that settling finds finished entries.
 */
export type ClaimState = 'SENDING' | 'CANCELLED' | { status: 'FAILED'; failureReasonCode: string };

/**
 * A job held (set by the first worker that saw why; removed on resume): its template is not
 * sendable (with a deadline, ends by itself when the template is sendable again), or Meta refused
 * the business account (no deadline: held until the business resumes it).
 */
export interface JobPause {
  /** ISO time the job was paused. */
  pausedAt: string;
  /** e.g. TEMPLATE_PAUSED, TEMPLATE_DISABLED, ACCOUNT_MESSAGING_LIMITED. */
  reason: string;
  /** ISO time after which its remaining recipients fail TEMPLATE_PAUSED; absent: held until resumed. */
  failsAt?: string;
  /** Who paused it: `meta` (Meta refused the account, or its template), `user` (a person: pause-job.ts). Absent on template pauses recorded before it was kept. */
  pausedBy?: PausedBy;
  /** Meta's error code that paused it (an account refusal). */
  code?: number;
  /** Meta's words with that code. */
  text?: string;
  /** A person's pause (`pausedBy: 'user'`): the credential (API key) that paused it. */
  by?: string;
  /** A halt by the campaign's canary or halt thresholds (`pausedBy: 'canary'`): the measured rates beside their thresholds. */
  halt?: HaltFigures;
}

/** Who paused a job: Meta (a refusal or a template's state), a person of the business, or the campaign's own canary or halt thresholds (docs/CAMPAIGNS.md "Canary and halt thresholds"). */
export type PausedBy = 'meta' | 'user' | 'canary';

/** What a chunk worker re-reads while it sends: whether to go on. */
export interface JobControl {
  cancelled: boolean;
  createdAt: string;
  pause?: JobPause;
  /** Calling codes Meta refused for the account (130497), when any: their recipients fail unsent. */
  refusedCountries?: string[];
}

/** Where a listing of jobs stands: the last job read. */
export interface JobListPosition {
  createdAt: string;
  jobId: string;
}

export interface JobListQuery {
  /** ISO times (as `Date#toISOString` writes them), both inclusive. */
  from?: string;
  to?: string;
  limit: number;
  /** Continue after this job (exclusive). */
  after?: JobListPosition;
}

export interface JobListPage {
  jobs: BroadcastJob[];
  next?: JobListPosition;
}

/** A recipient as the accepting request named it (free-form: the whole number, countryCode ''; a business-scoped user id: `userId`, both number fields ''). */
export interface JobRecipient {
  index: number;
  countryCode: string;
  toPhoneNumber: string;
  userId?: string;
  /**
   * What a template broadcast sent this recipient (its body values, own content), kept for
   * follow-ups (docs/BROADCAST.md "Follow-ups"); absent on other jobs, on jobs recorded before it
   * was kept, and on chunks whose values were too large to keep.
   */
  send?: RecipientSend;
  /**
   * How many times follow-ups re-sent to this recipient after 131049 failures, this job's send
   * included (per-user-limit-resends.ts); absent: none (every job recorded before the count).
   */
  perUserLimitResends?: number;
}

/** A recipient's body values (its own or the broadcast's) and its own header, buttons, carousel or offer. */
export interface RecipientSend {
  parameters: TemplateParameters;
  content?: TemplateContent;
}

export interface JobProgress {
  chunks: ChunkProgress[];
  /** Every tally code written for the job, by recipient index (shared/delivery/recipient-status.ts). */
  tally: Array<[index: number, code: TallyCode]>;
  /** The job's outcomes (replies, taps, clicks, attributed opt-outs, the holdout), counted from the same tally items (shared/outcomes/count-outcomes.ts). */
  outcomes: OutcomeCounts;
}

export interface ChunkRecipientRecords {
  listed?: JobRecipient[];
  /** Ledger entries in index order. */
  ledger: Array<{ entry: LedgerEntry; facts: DeliveryFacts }>;
  /** Outcome facts (docs/OUTCOMES.md) of the chunk's recipients that have any, by recipient index (held-out recipients included). */
  outcomes?: ReadonlyMap<number, OutcomeFacts>;
  /** Waiting codes (`0A:`/`0B:`, recordWaiting) of the chunk's recipients with no ledger entry, by index; absent: none. */
  waiting?: ReadonlyMap<number, TallyCode>;
}

export interface LedgerEntryLocation {
  jobId: string;
  chunkIndex: number;
  entry: LedgerEntry;
}

export interface ProgressDelta {
  sent: number;
  failed: number;
  unknown: number;
  failuresByReason: Record<string, number>;
}
