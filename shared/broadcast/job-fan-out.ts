/**
 * The one way a job comes to exist: every accept path (template broadcast, free-form message,
 * earlier send-single / send-bulk) builds its job with `newJob` and hands it to `recordAndFanOut`,
 * which records it, records the recipients refused at accept time, and queues the rest as chunk
 * messages of at most 1,000 recipients.
 *
 * When the accept fails (docs/BROADCAST.md "Accepting a job"):
 * - before anything was queued, what this call recorded is discarded and its messaging-limit
 *   reservation given back: the request changed nothing;
 * - once queueing started, messages may be on the queue and a worker may already be sending them,
 *   so nothing is deleted (the ledger is what stops a duplicate): the job is marked `acceptFailedAt`
 *   and the caller gets OutboundQueueUnavailableError (503). A job accepted under an
 *   Idempotency-Key is left to its retry, which lands on the same job and queues it again; a job
 *   without one is cancelled, since its retry is another job.
 */
import { sha256 } from '../crypto/hashing';
import { StoreUnavailableError } from '../ports/errors';
import { opaqueId, type IdGenerator } from '../ports/id-generator';
import { CHUNK_SIZE, type BroadcastJob } from './broadcast-job';
import { chunkMessages, type ChunkRecipient, type OutboundMessage, type TemplateChunkMessage } from './chunk-message';
import { chunkSendRulesOf } from '../send-rules/send-rules.schema';
import { IdempotencyKeyExpiredError, IdempotencyKeyReusedError, OutboundQueueUnavailableError } from './errors';
import { releaseReach, type ReachReservation } from './messaging-limit';
import { inLane, laneOfJob } from './outbound-lanes';
import {
  IDEMPOTENCY_WINDOW_HOURS,
  type ChunkProgressStore,
  type Clock,
  type JobControlStore,
  type JobFiringScheduler,
  type JobRecipient,
  type JobStore,
  type LedgerEntry,
  type OutboundQueue,
  type PortfolioReach,
  type ProgressDelta,
  type RecipientLedger,
  type ScheduledJobStore,
  type Sender,
} from './ports';

export interface FanOutDependencies {
  /** JobControlStore: a failed accept's job without an Idempotency-Key is cancelled. */
  broadcasts: JobStore & JobControlStore & RecipientLedger & ChunkProgressStore;
  queue: OutboundQueue;
  clock: Clock;
  /** Where a failed accept gives its messaging-limit reservation back: needed by a plan with a `reservation`. */
  portfolioReach?: PortfolioReach;
}

/** What a job with `scheduledAt` needs instead of the queue: where its messages are held and its trigger. */
export interface SchedulingPorts {
  scheduledJobs: ScheduledJobStore;
  firings: JobFiringScheduler;
}

type CommonField =
  | 'jobId'
  | 'organizationId'
  | 'exposed'
  | 'wabaId'
  | 'phoneNumberId'
  | 'fromPhoneNumber'
  | 'totalRecipients'
  | 'totalChunks'
  | 'chunkSize'
  | 'createdAt';
/** What only one kind of job carries (its `kind` included). */
export type JobContent = BroadcastJob extends infer Job ? (Job extends BroadcastJob ? Omit<Job, CommonField> : never) : never;

const JOB_ID_PREFIX = { template: 'pub', freeform: 'msg', earlier: 'leg' } as const satisfies Record<BroadcastJob['kind'], string>;

/** What a job id of any kind looks like: anything else cannot name a job and is answered as unknown without a lookup. */
export const isJobIdShape = (jobId: string): boolean => /^(pub|msg|leg)_[A-Za-z0-9_-]{1,64}$/.test(jobId);

/**
 * A job id. With a seed (organization and Idempotency-Key) it is the same on every retry, so a
 * retry after a partial failure lands on the same job, whose ledger stops duplicates.
 */
export function newJobId(ids: IdGenerator, kind: BroadcastJob['kind'], seed?: string): string {
  const prefix = JOB_ID_PREFIX[kind];
  return seed === undefined ? opaqueId(ids, prefix) : `${prefix}_${sha256(seed).toString('base64url').slice(0, 22)}`;
}

/** The job factory. Jobs of more than 1,000 recipients are the ones returned to the client (`exposed`). */
export function newJob<Content extends JobContent>(
  content: Content,
  fields: {
    jobId: string;
    organizationId: string;
    sender: Sender;
    totalRecipients: number;
    exposed: boolean;
    now: Date;
    /** The credential that accepted the job: scopes status reads of minted keys. */
    createdByCredentialId?: string;
    /** Accepted for later: its messages are held until then (docs/BROADCAST.md "Scheduling"). */
    scheduledAt?: Date;
    /** Accepted under an Idempotency-Key: the request body's hash (`requestHash`), which a retry must match. */
    requestHash?: string;
  },
): BroadcastJob & Content {
  return {
    jobId: fields.jobId,
    organizationId: fields.organizationId,
    exposed: fields.exposed,
    wabaId: fields.sender.wabaId,
    phoneNumberId: fields.sender.phoneNumberId,
    fromPhoneNumber: fields.sender.phoneNumber,
    ...(fields.createdByCredentialId ? { createdByCredentialId: fields.createdByCredentialId } : {}),
    totalRecipients: fields.totalRecipients,
    totalChunks: Math.ceil(fields.totalRecipients / CHUNK_SIZE),
    chunkSize: CHUNK_SIZE,
    createdAt: fields.now.toISOString(),
    ...(fields.scheduledAt ? { scheduledAt: fields.scheduledAt.toISOString() } : {}),
    ...(fields.requestHash ? { requestHash: fields.requestHash } : {}),
    ...content,
  } as BroadcastJob & Content;
}

export type FanOutPlan = (
  | {
      job: Extract<BroadcastJob, { kind: 'template' | 'earlier' }>;
      /** Recipients to queue; a recipient's chunk is its index in the request / chunk size. */
      recipients: readonly ChunkRecipient[];
      /** Recipients refused at accept time: written to the ledger as they are, never queued. */
      refused?: readonly LedgerEntry[];
      /** Every recipient of the request (refused ones included) as it named them: stored for the recipients list. */
      listed: readonly JobRecipient[];
    }
  | { job: Extract<BroadcastJob, { kind: 'freeform' }>; to: string; body: Record<string, unknown> }
) & {
  /** The accept's messaging-limit reservation (messaging-limit.ts): given back when it fails before anything was queued. */
  reservation?: ReachReservation;
  /**
   * The read of an earlier attempt's job (`broadcasts.getJob(job.jobId)`), started by the caller
   * while its checks ran: a job id seeded by an Idempotency-Key is known before the checks, and the
   * read does not depend on them. Its outcome is awaited where the read would have been made.
   */
  earlierJob?: Promise<BroadcastJob | undefined>;
};

/**
 * The recipients a job lists. A free-form request names one whole international number: no
 * calling-code table is kept to split it, so its countryCode is '' and toPhoneNumber the number.
 */
const listedRecipientsOf = (plan: FanOutPlan): readonly JobRecipient[] =>
  'listed' in plan ? plan.listed : [{ index: 0, countryCode: '', toPhoneNumber: plan.to }];

/** What a chunk's sends need of the job's template: the name and language, and the content every recipient shares. */
export function sendTemplateOf({ name, language, content, variableNames, api, maxPrice }: Extract<BroadcastJob, { kind: 'template' | 'earlier' }>['template']) {
  // The route decided at accept travels with every message of the job (absent: `/messages`).
  return { name, language, ...(content && { content }), ...(variableNames && { variableNames }), ...(api && { api }), ...(maxPrice && { maxPrice }) };
}

/**
 * Everything of a template chunk message but its recipients: the one place a job's chunk content is
 * made (an accept's fan-out, a campaign expander's pages). The job's send rules travel with each
 * message when it has any (docs/CAMPAIGNS.md "Send windows"); a job without keeps its old bytes.
 *
 * @example
 * chunkMessages(templateChunkOf(job, 3), recipients);
 */
export function templateChunkOf(job: Extract<BroadcastJob, { kind: 'template' | 'earlier' }>, chunkIndex: number): Omit<TemplateChunkMessage, 'recipients'> {
  const sendRules = job.kind === 'template' ? chunkSendRulesOf(job.sendRules) : undefined;
  return { ...envelopeOf(job), kind: 'template-chunk', chunkIndex, template: sendTemplateOf(job.template), ...(sendRules && { sendRules }) };
}

const envelopeOf = (job: BroadcastJob) => ({
  version: 1 as const,
  jobId: job.jobId,
  organizationId: job.organizationId,
  wabaId: job.wabaId,
  phoneNumberId: job.phoneNumberId,
});

/** A job's chunk messages, each marked with the job's lane (outbound-lanes.ts: a single message travels its own queue). */
function messagesOf(plan: FanOutPlan): OutboundMessage[] {
  const lane = laneOfJob(plan.job);
  return contentMessagesOf(plan).map((message) => inLane(message, lane));
}

function contentMessagesOf(plan: FanOutPlan): OutboundMessage[] {
  const { job } = plan;
  if (job.kind === 'freeform') {
    if (!('body' in plan)) throw new TypeError('A free-form job needs its message body');
    return [{ ...envelopeOf(job), kind: 'freeform', chunkIndex: 0, recipients: [{ index: 0, to: plan.to, parameters: [] }], body: plan.body }];
  }
  if (!('recipients' in plan)) throw new TypeError('A template job needs its recipients');
  const byChunk = groupByChunk(plan.recipients, job.chunkSize, (recipient) => recipient.index);
  return [...byChunk].flatMap(([chunkIndex, recipients]) => chunkMessages(templateChunkOf(job, chunkIndex), recipients));
}

function groupByChunk<T>(items: readonly T[], chunkSize: number, indexOf: (item: T) => number): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const item of items) {
    const chunkIndex = Math.floor(indexOf(item) / chunkSize);
    const group = groups.get(chunkIndex);
    if (group) group.push(item);
    else groups.set(chunkIndex, [item]);
  }
  return groups;
}

const chunkSizesOf = (job: BroadcastJob): number[] =>
  Array.from({ length: job.totalChunks }, (_, chunkIndex) => Math.min(job.chunkSize, job.totalRecipients - chunkIndex * job.chunkSize));

/** Records recipients refused before any send (FAILED with their reason, never queued) and counts them on their chunks: an accept's, a campaign expander's. */
export async function recordRefused(
  broadcasts: Pick<RecipientLedger, 'recordOutcomes'> & Pick<ChunkProgressStore, 'addChunkProgress'>,
  job: BroadcastJob,
  refused: readonly LedgerEntry[],
): Promise<void> {
  for (const [chunkIndex, entries] of groupByChunk(refused, job.chunkSize, (entry) => entry.index)) {
    await broadcasts.recordOutcomes(job.jobId, chunkIndex, entries);
    const delta: ProgressDelta = { sent: 0, failed: 0, unknown: 0, failuresByReason: {} };
    for (const entry of entries) {
      delta.failed += 1;
      const reason = entry.failureReasonCode ?? 'TEMPLATE_SEND_FAILED';
      delta.failuresByReason[reason] = (delta.failuresByReason[reason] ?? 0) + 1;
    }
    await broadcasts.addChunkProgress(job.jobId, chunkIndex, delta);
  }
}

/** How far an accept got: what its failure leaves behind depends on it. */
interface AcceptAttempt {
  phase: 'checking' | 'recording' | 'queueing';
  /** Undefined until known: a failed createJob may still have written the job. */
  created?: boolean;
  /** The job an earlier attempt with the same Idempotency-Key recorded (this is its retry). */
  earlier?: BroadcastJob;
}

const HOUR_MS = 3_600_000;

/**
 * The job an earlier attempt with the same Idempotency-Key recorded, read before anything is
 * written under its id. Found while the key's record is gone, it is either a failed accept (the
 * key's record is released on failure), retried within the window: the retry goes on with it; or a
 * job accepted longer ago than the window, whose key is used again: refused, naming that job, rather
 * than answered as if this request were queued. Another body under the key is refused as the
 * key's record would have refused it.
 */
async function earlierAttemptOf(
  broadcasts: JobStore,
  job: BroadcastJob,
  now: Date,
  started?: Promise<BroadcastJob | undefined>,
): Promise<BroadcastJob | undefined> {
  if (job.requestHash === undefined) return undefined;
  const earlier = await (started ?? broadcasts.getJob(job.jobId));
  if (!earlier) return undefined;
  if (now.getTime() - Date.parse(earlier.createdAt) >= IDEMPOTENCY_WINDOW_HOURS * HOUR_MS) {
    throw new IdempotencyKeyExpiredError(earlier.jobId, earlier.createdAt, IDEMPOTENCY_WINDOW_HOURS);
  }
  if (earlier.requestHash !== job.requestHash) throw new IdempotencyKeyReusedError();
  return earlier;
}

/**
 * A job with `scheduledAt` is recorded the same way (its item then sits in the due index), but its
 * messages are held in the messaging table and a one-time trigger is registered instead of
 * queueing; fire-scheduled-job.ts queues them at that time. A failure of either discards the job
 * too: nothing of it was queued.
 */
export async function recordAndFanOut(dependencies: FanOutDependencies & Partial<SchedulingPorts>, plan: FanOutPlan): Promise<void> {
  const { broadcasts, queue, clock } = dependencies;
  const { job } = plan;
  const scheduling = job.scheduledAt === undefined ? undefined : requireSchedulingPorts(dependencies);
  if (plan.reservation && !dependencies.portfolioReach) throw new TypeError('A plan with a messaging-limit reservation needs the portfolio reach port');
  const messages = messagesOf(plan);
  const attempt: AcceptAttempt = { phase: 'checking' };
  try {
    attempt.earlier = await earlierAttemptOf(broadcasts, job, clock.now(), plan.earlierJob);
    attempt.phase = 'recording';
    // The job exists before any chunk can be processed, so workers always find it.
    attempt.created = (await broadcasts.createJob(job, chunkSizesOf(job), listedRecipientsOf(plan))).created;
    const refused = 'refused' in plan ? (plan.refused ?? []) : [];
    if (refused.length > 0) await recordRefused(broadcasts, job, refused);
    // A chunk whose every recipient was refused at accept time (opted out, invalid) has no message
    // and no worker: it is complete now. Done before queueing, so a failure here discards a job
    // nothing was queued for.
    const queuedChunks = new Set(messages.map((message) => message.chunkIndex));
    for (let chunkIndex = 0; chunkIndex < job.totalChunks; chunkIndex += 1) {
      if (!queuedChunks.has(chunkIndex)) await broadcasts.reconcileChunk(job.jobId, chunkIndex, clock.now());
    }
    if (scheduling) {
      await scheduling.scheduledJobs.holdMessages(job.jobId, messages);
      await scheduling.firings.scheduleFiring(job.jobId, new Date(job.scheduledAt!));
    } else if (messages.length > 0) {
      attempt.phase = 'queueing';
      await queue.enqueue(messages);
    }
    // A retry that queued the job again: its accept no longer failed.
    if (attempt.earlier?.acceptFailedAt !== undefined) await broadcasts.clearAcceptFailed(job.jobId);
  } catch (error) {
    await settleFailedAccept(dependencies, plan, attempt);
    // A queue that may take the messages on a retry is a 503; a refusal no retry can change stays a 500.
    if (attempt.phase === 'queueing' && error instanceof StoreUnavailableError) throw new OutboundQueueUnavailableError({ cause: error });
    throw error;
  }
}

/** What a failed accept leaves behind (best effort: the accept's own failure is what the caller hears). */
async function settleFailedAccept(dependencies: FanOutDependencies, plan: FanOutPlan, attempt: AcceptAttempt): Promise<void> {
  const { broadcasts, clock } = dependencies;
  const { job } = plan;
  if (attempt.phase === 'queueing') {
    // Messages may be on the queue, a worker may be sending them: the job and its ledger stay.
    await broadcasts.markAcceptFailed(job.jobId, clock.now()).catch(() => undefined);
    // Without an Idempotency-Key a retry is another job: this one stops, and what it queued sends nothing more.
    if (job.requestHash === undefined) await broadcasts.cancelJob(job.jobId, clock.now()).catch(() => undefined);
    // The reservation stays: some recipients may be reached (a retry of the same recipients is not counted twice).
    return;
  }
  // Nothing of the job can be on the queue. A job that existed before the call (an earlier
  // attempt's) is never deleted; one whose createJob failed is ours unless an earlier attempt's.
  const ours = attempt.created === true || (attempt.phase === 'recording' && attempt.created === undefined && attempt.earlier === undefined);
  if (ours) await broadcasts.discardJob(job.jobId).catch(() => undefined);
  if (dependencies.portfolioReach) await releaseReach({ portfolioReach: dependencies.portfolioReach }, plan.reservation).catch(() => undefined);
}

function requireSchedulingPorts(dependencies: Partial<SchedulingPorts>): SchedulingPorts {
  const { scheduledJobs, firings } = dependencies;
  // A wiring fault, not a request's: every accept path that offers scheduledAt composes both ports.
  if (!scheduledJobs || !firings) throw new TypeError('A scheduled job needs the scheduled-job store and the firing scheduler');
  return { scheduledJobs, firings };
}
