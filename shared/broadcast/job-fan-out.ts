/**
 * The one way a job comes to exist: every accept path (template broadcast, free-form message,
 * earlier send-single / send-bulk) builds its job with `newJob` and hands it to `recordAndFanOut`,
 * which records it, records the recipients refused at accept time, and queues the rest as chunk
 * messages of at most 1,000 recipients.
 *
 * Atomic in effect: when queueing fails nothing of the job stays recorded (it is discarded), and the
 * caller gets OutboundQueueUnavailableError (503), so a retry (with an Idempotency-Key: the same job
 * id) starts from a clean slate. docs/BROADCAST.md "Accepting a job".
 */
import { sha256 } from '../crypto/hashing';
import { StoreUnavailableError } from '../ports/errors';
import { opaqueId, type IdGenerator } from '../ports/id-generator';
import { CHUNK_SIZE, type BroadcastJob } from './broadcast-job';
import { chunkMessages, type ChunkRecipient, type OutboundMessage } from './chunk-message';
import { OutboundQueueUnavailableError } from './errors';
import type { ChunkProgressStore, Clock, JobFiringScheduler, JobRecipient, JobStore, LedgerEntry, OutboundQueue, ProgressDelta, RecipientLedger, ScheduledJobStore, Sender } from './ports';

export interface FanOutDependencies {
  broadcasts: JobStore & RecipientLedger & ChunkProgressStore;
  queue: OutboundQueue;
  clock: Clock;
}

/** What a job with `scheduledAt` needs instead of the queue: where its messages are held and its trigger. */
export interface SchedulingPorts {
  scheduledJobs: ScheduledJobStore;
  firings: JobFiringScheduler;
}

type CommonField = 'jobId' | 'organizationId' | 'exposed' | 'wabaId' | 'phoneNumberId' | 'fromPhoneNumber' | 'totalRecipients' | 'totalChunks' | 'chunkSize' | 'createdAt';
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
    ...content,
  } as BroadcastJob & Content;
}

export type FanOutPlan =
  | {
      job: Extract<BroadcastJob, { kind: 'template' | 'earlier' }>;
      /** Recipients to queue; a recipient's chunk is its index in the request / chunk size. */
      recipients: readonly ChunkRecipient[];
      /** Recipients refused at accept time: written to the ledger as they are, never queued. */
      refused?: readonly LedgerEntry[];
      /** Every recipient of the request (refused ones included) as it named them: stored for the recipients list. */
      listed: readonly JobRecipient[];
    }
  | { job: Extract<BroadcastJob, { kind: 'freeform' }>; to: string; body: Record<string, unknown> };

/**
 * The recipients a job lists. A free-form request names one whole international number: no
 * calling-code table is kept to split it, so its countryCode is '' and toPhoneNumber the number.
 */
const listedRecipientsOf = (plan: FanOutPlan): readonly JobRecipient[] =>
  'listed' in plan ? plan.listed : [{ index: 0, countryCode: '', toPhoneNumber: plan.to }];

function messagesOf(plan: FanOutPlan): OutboundMessage[] {
  const { job } = plan;
  const envelope = { version: 1 as const, jobId: job.jobId, organizationId: job.organizationId, wabaId: job.wabaId, phoneNumberId: job.phoneNumberId };
  if (job.kind === 'freeform') {
    if (!('body' in plan)) throw new TypeError('A free-form job needs its message body');
    return [{ ...envelope, kind: 'freeform', chunkIndex: 0, recipients: [{ index: 0, to: plan.to, parameters: [] }], body: plan.body }];
  }
  if (!('recipients' in plan)) throw new TypeError('A template job needs its recipients');
  const byChunk = groupByChunk(plan.recipients, job.chunkSize, (recipient) => recipient.index);
  return [...byChunk].flatMap(([chunkIndex, recipients]) =>
    chunkMessages({ ...envelope, kind: 'template-chunk', chunkIndex, template: { name: job.template.name, language: job.template.language } }, recipients),
  );
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

async function recordRefused(broadcasts: RecipientLedger & ChunkProgressStore, job: BroadcastJob, refused: readonly LedgerEntry[]): Promise<void> {
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

/**
 * A job with `scheduledAt` is recorded the same way (its item then sits in the due index), but its
 * messages are held in the messaging table and a one-time trigger is registered instead of
 * queueing; fire-scheduled-job.ts queues them at that time. A failure of either discards the job too.
 */
export async function recordAndFanOut(dependencies: FanOutDependencies & Partial<SchedulingPorts>, plan: FanOutPlan): Promise<void> {
  const { broadcasts, queue, clock } = dependencies;
  const { job } = plan;
  const scheduling = job.scheduledAt === undefined ? undefined : requireSchedulingPorts(dependencies);
  const messages = messagesOf(plan);
  // Undefined until known: a failed createJob may still have written the job.
  let created: boolean | undefined;
  let queueing = false;
  try {
    // The job exists before any chunk can be processed, so workers always find it.
    created = (await broadcasts.createJob(job, chunkSizesOf(job), listedRecipientsOf(plan))).created;
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
      queueing = true;
      await queue.enqueue(messages);
    }
  } catch (error) {
    // A job id that already existed (an old request's) is never ours to delete.
    if (created !== false) await broadcasts.discardJob(job.jobId).catch(() => undefined);
    // A queue that may take the messages on a retry is a 503; a refusal no retry can change stays a 500.
    if (queueing && error instanceof StoreUnavailableError) throw new OutboundQueueUnavailableError({ cause: error });
    throw error;
  }
}

function requireSchedulingPorts(dependencies: Partial<SchedulingPorts>): SchedulingPorts {
  const { scheduledJobs, firings } = dependencies;
  // A wiring fault, not a request's: every accept path that offers scheduledAt composes both ports.
  if (!scheduledJobs || !firings) throw new TypeError('A scheduled job needs the scheduled-job store and the firing scheduler');
  return { scheduledJobs, firings };
}
