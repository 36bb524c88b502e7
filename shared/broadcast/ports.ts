/** What the broadcast use cases need from the outside world. Adapters live in shared/adapters. */
import type { BroadcastJob, ChunkProgress } from './broadcast-job';
import type { OutboundMessage } from './chunk-message';
import type { DeliveryFacts, TallyCode } from '../delivery/recipient-status';

export interface Sender {
  phoneNumber: string;
  phoneNumberId: string;
  wabaId: string;
}

export interface SenderAccount extends Sender {
  organizationId: string;
  /** Decrypted upstream token; lives in memory only. */
  accessToken: string;
  /** Pace of sends for the whole business account. */
  messagesPerSecond: number;
  /** Meta's business portfolio owning the account: the scope of its messaging limit. */
  businessId: string;
}

export interface SenderDirectory {
  /** Throws NoBusinessAccountError when the organization has none connected. */
  listSenders(organizationId: string): Promise<Sender[]>;
  /** Throws SenderNotOwnedError or BusinessAccountIncompleteError. */
  resolveSender(organizationId: string, phoneNumber: string): Promise<SenderAccount>;
  /** Credentials and pace of a business account, for workers. */
  accountOf(organizationId: string, wabaId: string): Promise<{ accessToken: string; messagesPerSecond: number }>;
}

/** CANCELLED: claimed after the job was cancelled, never sent. */
export type LedgerStatus = 'SENDING' | 'SENT' | 'FAILED' | 'UNKNOWN' | 'CANCELLED';

export interface LedgerEntry {
  index: number;
  to: string;
  status: LedgerStatus;
  messageId?: string;
  failureReasonCode?: string;
  attempts: number;
  updatedAt: string;
}

export type ClaimResult = { claimed: true } | { claimed: false; existing: LedgerEntry };

/**
 * What a claim writes: SENDING before the upstream call, or a final state written at once when the
 * worker settles recipients it will never send (a cancellation: CANCELLED; a template pause that
 * timed out: FAILED with its reason), so a retry of that settling finds finished entries.
 */
export type ClaimState = 'SENDING' | 'CANCELLED' | { status: 'FAILED'; failureReasonCode: string };

/** A job held because its template is not sendable (set by the first worker that saw it; removed on resume). */
export interface JobPause {
  /** ISO time the job was paused. */
  pausedAt: string;
  /** e.g. TEMPLATE_PAUSED, TEMPLATE_DISABLED. */
  reason: string;
  /** ISO time after which its remaining recipients fail TEMPLATE_PAUSED. */
  failsAt: string;
}

/** What a chunk worker re-reads while it sends: whether to go on. */
export interface JobControl {
  cancelled: boolean;
  createdAt: string;
  pause?: JobPause;
}

export interface BroadcastRepository {
  /**
   * Idempotent: a job id that exists keeps its items and progress; `created` says whether this call wrote the job.
   * `recipients` (every recipient of the request, refused ones included, by index) are stored one item per chunk
   * with the chunk items, for the recipients list.
   */
  createJob(job: BroadcastJob, chunkSizes: readonly number[], recipients?: readonly JobRecipient[]): Promise<{ created: boolean }>;
  /** Deletes a job that could not be queued: its item, its chunks, its recipients and any ledger entries written at accept time. */
  discardJob(jobId: string): Promise<void>;
  getJob(jobId: string): Promise<BroadcastJob | undefined>;
  /**
   * An organization's jobs, newest first (by `createdAt`, then job id), with `createdAt` within
   * [from, to] when given; at most `limit`, continuing after `after`. `next` is the position of the
   * last job returned when more may follow (eventually consistent on AWS: the job index).
   */
  listJobsOfOrganization(organizationId: string, query: JobListQuery): Promise<JobListPage>;
  /** Sets the job's `cancelledAt` unless already set; the stored value (the first cancellation's time). Undefined when the job does not exist. */
  cancelJob(jobId: string, now: Date): Promise<string | undefined>;
  /** Whether the job has been cancelled (a consistent read of `cancelledAt` only: the worker asks it often). */
  isCancelled(jobId: string): Promise<boolean>;
  /** Cancellation, creation time and pause of the job (a consistent read of those attributes only: the worker asks it often). Undefined: no such job. */
  readJobControl(jobId: string): Promise<JobControl | undefined>;
  /** Sets the pause unless one is set (the first pauser wins); the stored pause. Undefined when the job does not exist. */
  pauseJob(jobId: string, pause: JobPause): Promise<JobPause | undefined>;
  /** Removes the pause that was set at `pausedAt` (never a later one); true when this call removed it. */
  resumeJob(jobId: string, pausedAt: string): Promise<boolean>;
  getChunkProgress(jobId: string): Promise<ChunkProgress[]>;
  /** The chunks and every tally code of a job (consistent reads): what the status summary counts. */
  getJobProgress(jobId: string): Promise<JobProgress>;
  /**
   * One chunk's recipients as accepted (undefined for jobs recorded before they were kept) and its
   * ledger entries with Meta's delivery facts (a consistent read): what the recipients list shows.
   */
  readChunkRecipients(jobId: string, chunkIndex: number): Promise<ChunkRecipientRecords>;

  /**
   * Notes the chunk's first start. False when the chunk does not exist: its job was discarded at
   * accept time because queueing failed (job-fan-out.ts), so a message that did reach the queue
   * must send nothing.
   */
  markChunkStarted(jobId: string, chunkIndex: number, now: Date): Promise<boolean>;
  /**
   * Conditional write: only the first claim of a recipient succeeds. Written before the upstream call
   * (`SENDING`), or, when a cancellation settles a chunk, directly as `CANCELLED`: a retry of that
   * settling then finds finished entries, never claims it would take for a crashed send's.
   */
  claimRecipient(jobId: string, chunkIndex: number, index: number, to: string, now: Date, as?: ClaimState): Promise<ClaimResult>;
  /**
   * Deletes a claim still in SENDING: its send was refused by Meta without being sent (a paused or
   * disabled template, 132015/132016), so the recipient can be claimed and sent after the resume.
   * True when this call deleted it.
   */
  releaseClaim(jobId: string, chunkIndex: number, index: number): Promise<boolean>;
  /** Moves a claimed entry to its outcome. Unknown → not retried. */
  recordOutcomes(jobId: string, chunkIndex: number, entries: readonly LedgerEntry[]): Promise<void>;
  /**
   * Entries claimed directly in their final state (CANCELLED, FAILED with a reason: `claimRecipient`'s
   * `as`): the claim already wrote them as they are, so only their tally codes are written (half the
   * writes of recordOutcomes, which matters when a cancellation settles thousands at once).
   */
  recordSettled(jobId: string, entries: ReadonlyArray<Pick<LedgerEntry, 'index' | 'status' | 'failureReasonCode' | 'updatedAt'>>): Promise<void>;
  /** Marks entries left in SENDING by a crashed attempt as UNKNOWN, only if still SENDING. */
  markStaleAsUnknown(jobId: string, chunkIndex: number, index: number, now: Date): Promise<boolean>;
  /** Live progress (approximate until reconciled). */
  addChunkProgress(jobId: string, chunkIndex: number, delta: ProgressDelta): Promise<void>;
  /** Recounts the chunk from its ledger and marks it done when every recipient is accounted for. */
  reconcileChunk(jobId: string, chunkIndex: number, now: Date): Promise<{ done: boolean }>;
  /**
   * The ledger entry that recorded an upstream message id (gsi1 `WAMID#<id>`), so a delivery event
   * can be matched to its job and recipient; undefined when no entry holds that id.
   */
  findByMessageId(messageId: string): Promise<LedgerEntryLocation | undefined>;
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

/** A recipient as the accepting request named it (free-form: the whole number, countryCode ''). */
export interface JobRecipient {
  index: number;
  countryCode: string;
  toPhoneNumber: string;
}

export interface JobProgress {
  chunks: ChunkProgress[];
  /** Every tally code written for the job, by recipient index (shared/delivery/recipient-status.ts). */
  tally: Array<[index: number, code: TallyCode]>;
}

export interface ChunkRecipientRecords {
  listed?: JobRecipient[];
  /** Ledger entries in index order. */
  ledger: Array<{ entry: LedgerEntry; facts: DeliveryFacts }>;
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

export interface OutboundQueue {
  enqueue(messages: readonly OutboundMessage[], options?: { delaySeconds?: number }): Promise<void>;
  /** Brings a failed delivery back after `delaySeconds` instead of the queue's full visibility timeout. */
  deferRedelivery(receiptHandle: string, delaySeconds: number): Promise<void>;
}

export interface IdempotencyGuard {
  /**
   * Runs `work` once per key. A retry with the same key and payload hash gets the stored
   * result; while the first runs → IdempotencyKeyInProgressError; another payload →
   * IdempotencyKeyReusedError.
   */
  run<T extends object>(key: string, payloadHash: string, work: () => Promise<T>, options: { inProgressTimeoutMs: number }): Promise<T>;
}

export type { Clock } from '../ports/clock';

/** Wallet, prices and subscription of an organization, for the earlier (charged) operations. */
export interface BillingPort {
  hasActiveSubscription(organizationId: string, now: Date): Promise<boolean>;
  /** Price of one message to a country calling code, in micro-units; undefined when not priced. */
  priceOf(countryCallingCode: string, category: string): Promise<number | undefined>;
  /** Debits without overdraft (throws InsufficientCreditsError); returns balances in micro-units. */
  debit(organizationId: string, amountMicros: number): Promise<{ oldBalanceMicros: number; newBalanceMicros: number }>;
  credit(organizationId: string, amountMicros: number): Promise<void>;
  balanceOf(organizationId: string): Promise<number>;
}

/** Campaign names of the earlier send-bulk are unique per organization. */
export interface BroadcastNameRegistry {
  /** True when the name was free (now taken by `jobId`), false when another broadcast has it. */
  claim(organizationId: string, broadcastName: string, jobId: string): Promise<boolean>;
  release(organizationId: string, broadcastName: string, jobId: string): Promise<void>;
}

/**
 * WhatsApp's customer-service window as recorded from inbound webhooks (the inbox, through a module
 * bridge). Undefined: nothing recorded for the pair, i.e. unknown (not "closed").
 */
export interface ServiceWindow {
  /** When `customerPhoneNumber` last wrote to the organization's `senderPhoneNumber`. */
  lastInboundAt(organizationId: string, senderPhoneNumber: string, customerPhoneNumber: string): Promise<Date | undefined>;
}

/** A template's state as Meta last reported it by event (`message_template_status_update`). */
export interface TemplateState {
  name: string;
  language: string;
  /** APPROVED, PAUSED, DISABLED, REJECTED, … (upper case, as Meta names them). */
  status: string;
  reason?: string;
  templateId: string;
  /** Meta's time of the event. */
  at: Date;
}

/** Template states recorded from Meta's events, per business account (the messaging table). */
export interface TemplateStates {
  /** Records the state unless one with a later or equal time is recorded. True when written. */
  record(wabaId: string, state: TemplateState): Promise<boolean>;
  /** Every recorded state of the account's templates (strongly consistent). */
  statesOf(wabaId: string): Promise<TemplateState[]>;
  /** The recorded state of one template (strongly consistent); undefined when none is recorded. */
  stateOf(wabaId: string, name: string, language: string): Promise<TemplateState | undefined>;
}

/**
 * The organization's suppression list (opt-outs), answered by the inbox: recipients on it are
 * refused at accept time by broadcasts and bulk sends (FAILED `OPTED_OUT`, never queued or charged).
 */
export interface SuppressionList {
  /** Which of `phoneNumbers` (international digits) are on the organization's list. */
  suppressedAmong(organizationId: string, phoneNumbers: readonly string[]): Promise<ReadonlySet<string>>;
}

/** A number's messaging limit as Meta reports it (`whatsapp_business_manager_messaging_limit`). */
export interface MessagingTier {
  /** Meta's value, e.g. `TIER_250`. */
  tier: string;
  /** Unique recipients per moving 24 h for the whole business portfolio; undefined: unlimited. */
  limit?: number;
}

/** The messaging limit of a sender's number (the Graph API, cached briefly: messaging-tiers.ts). */
export interface MessagingTiers {
  tierOf(sender: Pick<SenderAccount, 'phoneNumberId' | 'accessToken'>): Promise<MessagingTier>;
}

/** One hour of a business portfolio's recipients: a serialized reach sketch (reach-sketch.ts). */
export interface ReachBucket {
  /** The hour, `YYYY-MM-DDTHH` (UTC). */
  hour: string;
  sketch: Uint8Array;
  /** Incremented by every write; the next write is conditional on it. */
  version: number;
}

/** Unique recipients per business portfolio in hourly buckets (the messaging table). */
export interface PortfolioReach {
  /** The portfolio's buckets with an hour in [fromHour, toHour] (a consistent read). */
  bucketsOf(businessId: string, fromHour: string, toHour: string): Promise<ReachBucket[]>;
  /**
   * Writes the bucket as version `expectedVersion + 1` when its stored version is still
   * `expectedVersion` (0: no bucket yet); false when another write came first.
   */
  writeBucket(businessId: string, bucket: ReachBucket, expectedVersion: number): Promise<boolean>;
}

/**
 * The one-time trigger of a scheduled job (EventBridge Scheduler on AWS, in-process timers
 * locally): at `at` it fires the job (fire-scheduled-job.ts). Registering the same job again
 * replaces nothing and fails nothing (a retried accept with the same Idempotency-Key).
 */
export interface JobFiringScheduler {
  scheduleFiring(jobId: string, at: Date): Promise<void>;
  /** Removes the trigger if it is still there (best effort: the firing re-checks cancellation anyway). */
  cancelFiring(jobId: string): Promise<void>;
}

/**
 * A scheduled job's held chunk messages and the due index (messaging table: items `HELD#<chunk>#<part>`
 * under the job; sparse gsi2 `SCHEDULED` / `<scheduledAt>#<jobId>` on the job item until it fired).
 */
export interface ScheduledJobStore {
  /** Stores the job's chunk messages (already split to fit SQS) instead of queueing them. */
  holdMessages(jobId: string, messages: readonly OutboundMessage[]): Promise<void>;
  heldMessages(jobId: string): Promise<OutboundMessage[]>;
  /**
   * Sets `firedAt` once (a repeat keeps the first time) unless the job was cancelled before any
   * firing. `stillDue`: the job is still in the due index (no firing finished yet). NOT_FOUND: no
   * such job, or a job that was never scheduled.
   */
  markFired(jobId: string, now: Date): Promise<{ fired: true; stillDue: boolean } | { fired: false; reason: 'NOT_FOUND' | 'CANCELLED' }>;
  /** Takes the job out of the due index (a no-op when it is not there or does not exist). */
  removeFromDueIndex(jobId: string): Promise<void>;
  /** Ids of jobs still in the due index with `scheduledAt` at or before `until`, oldest first, at most `limit`. */
  dueJobs(until: Date, limit: number): Promise<string[]>;
}
