/**
 * In-memory stand-ins for the broadcast ports, with the same observable semantics as the
 * DynamoDB/SQS/Graph adapters (conditional ledger claims, pacer schedule, idempotency records),
 * plus a virtual clock whose sleep is instant. Shared by unit and integration tests.
 */
import type { BroadcastJob, ChunkProgress } from '../../shared/broadcast/broadcast-job';
import type { OutboundMessage, TemplateChunkMessage } from '../../shared/broadcast/chunk-message';
import {
  BusinessAccountIncompleteError,
  IdempotencyKeyInProgressError,
  IdempotencyKeyReusedError,
  SenderNotOwnedError,
} from '../../shared/broadcast/errors';
import type { DeliveryFacts, TallyCode } from '../../shared/delivery/recipient-status';
import type {
  BroadcastRepository,
  ChunkRecipientRecords,
  ClaimResult,
  ClaimState,
  JobControl,
  JobPause,
  JobListPage,
  JobListPosition,
  JobListQuery,
  JobProgress,
  JobRecipient,
  Clock,
  IdempotencyGuard,
  LedgerEntry,
  LedgerEntryLocation,
  MessagingTier,
  MessagingTiers,
  OutboundQueue,
  PortfolioReach,
  ReachBucket,
  ProgressDelta,
  SenderAccount,
  SenderDirectory,
  Sender,
  ServiceWindow,
  TemplateState,
  TemplateStates,
} from '../../shared/broadcast/ports';
import type { TemplateBroadcastRequest } from '../../shared/broadcast/template-broadcast.schema';
import type { CloudApiClient, SendOutcome, SendPacer, UpstreamCall, UpstreamPhoneNumber, UpstreamTemplate } from '../../shared/sending/ports';
import { isRetryableRejection } from '../../shared/sending/graph-answer';
import { messagingTierOf } from '../../shared/broadcast/messaging-tiers';

const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/* ------------------------------------------------------------------ time */

/**
 * A clock that only moves when every piece of work is waiting on `sleep`: `run` drains the
 * microtask queue, then jumps to the earliest pending sleep and wakes it. No real waiting.
 */
export class VirtualTime implements Clock {
  private current: number;
  private sequence = 0;
  private timers: Array<{ at: number; sequence: number; resolve: () => void }> = [];
  /** Every sleep asked for, in ms. */
  readonly sleeps: number[] = [];

  constructor(start: Date | string = '2026-03-01T09:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  nowMs(): number {
    return this.current;
  }

  advanceBy(milliseconds: number): void {
    this.current += milliseconds;
  }

  readonly sleep = (milliseconds: number): Promise<void> => {
    this.sleeps.push(milliseconds);
    if (milliseconds <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.timers.push({ at: this.current + milliseconds, sequence: (this.sequence += 1), resolve });
    });
  };

  /** Drives `work` to completion, advancing virtual time whenever it is idle. */
  async run<T>(work: Promise<T> | (() => Promise<T>)): Promise<T> {
    const promise = typeof work === 'function' ? work() : work;
    let settled = false;
    promise.then(
      () => (settled = true),
      () => (settled = true),
    );
    let idleTurns = 0;
    while (!settled) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (settled) break;
      if (this.timers.length === 0) {
        idleTurns += 1;
        if (idleTurns > 1000) throw new Error('VirtualTime: work is stuck with no pending sleep');
        continue;
      }
      idleTurns = 0;
      this.timers.sort((a, b) => a.at - b.at || a.sequence - b.sequence);
      const next = this.timers.shift()!;
      this.current = Math.max(this.current, next.at);
      next.resolve();
    }
    return promise;
  }
}

/* ------------------------------------------------------------- senders */

export const ORG = 'org_1';
export const OTHER_ORG = 'org_2';
export const SENDER: SenderAccount = {
  organizationId: ORG,
  phoneNumber: '919800000001',
  phoneNumberId: 'pn_1',
  wabaId: 'waba_1',
  accessToken: 'token-1',
  messagesPerSecond: 20,
  businessId: 'biz_1',
};
export const SECOND_SENDER: SenderAccount = { ...SENDER, phoneNumber: '919800000002', phoneNumberId: 'pn_2' };

export class InMemorySenderDirectory implements SenderDirectory {
  readonly accounts: SenderAccount[];
  resolveCalls = 0;

  constructor(accounts: SenderAccount[] = [SENDER, SECOND_SENDER]) {
    this.accounts = accounts.map((account) => ({ ...account }));
  }

  async listSenders(organizationId: string): Promise<Sender[]> {
    return this.accounts
      .filter((account) => account.organizationId === organizationId)
      .map(({ phoneNumber, phoneNumberId, wabaId }) => ({ phoneNumber, phoneNumberId, wabaId }));
  }

  async resolveSender(organizationId: string, phoneNumber: string): Promise<SenderAccount> {
    this.resolveCalls += 1;
    const account = this.accounts.find((candidate) => candidate.phoneNumber === phoneNumber);
    if (!account || account.organizationId !== organizationId) throw new SenderNotOwnedError(phoneNumber);
    return { ...account };
  }

  async accountOf(organizationId: string, wabaId: string): Promise<{ accessToken: string; messagesPerSecond: number }> {
    const account = this.accounts.find((candidate) => candidate.organizationId === organizationId && candidate.wabaId === wabaId);
    if (!account) throw new BusinessAccountIncompleteError(['businessAccount']);
    return { accessToken: account.accessToken, messagesPerSecond: account.messagesPerSecond };
  }
}

/* ------------------------------------------------------------ upstream */

export const accepted = (messageId: string): SendOutcome => ({ kind: 'accepted', messageId });
export const rejected = (code: number, httpStatus = 400, message = `error ${code}`): SendOutcome => ({
  kind: 'rejected',
  httpStatus,
  error: { message, type: 'OAuthException', code },
  retryable: isRetryableRejection(httpStatus, code),
});
export const unknownOutcome = (reason = 'timeout'): SendOutcome => ({ kind: 'unknown', reason });

export const template = (overrides: Partial<UpstreamTemplate> & { body?: string } = {}): UpstreamTemplate => {
  const { body = 'Hello {{1}}, your order {{2}} is ready', ...rest } = overrides;
  return {
    id: 'tpl_1',
    name: 'order_update',
    language: 'en_US',
    status: 'APPROVED',
    category: 'UTILITY',
    components: [{ type: 'HEADER', format: 'TEXT', text: 'Order' }, { type: 'BODY', text: body }],
    ...rest,
  };
};

export interface RecordedSend {
  phoneNumberId: string;
  to: string;
  body: Record<string, unknown>;
  accessToken: string;
  /** Clock time (ms) at which the send was made. */
  at: number;
}

/**
 * A Cloud API whose send outcomes are scripted per recipient number (consumed in order; then
 * `defaultOutcome`, else accepted with a fresh message id).
 */
export class ScriptedCloudApi implements CloudApiClient {
  readonly templates = new Map<string, UpstreamTemplate[]>();
  readonly outcomes = new Map<string, SendOutcome[]>();
  readonly sends: RecordedSend[] = [];
  listTemplateCalls = 0;
  listTemplatesFailure?: Error;
  defaultOutcome?: (to: string) => SendOutcome;
  /** Called on every send before its outcome is chosen (e.g. to advance the clock). */
  onSend?: (send: RecordedSend) => void | Promise<void>;
  private messageCounter = 0;

  constructor(private readonly clock: Clock = { now: () => new Date() }) {}

  script(to: string, ...outcomes: SendOutcome[]): this {
    this.outcomes.set(to, [...(this.outcomes.get(to) ?? []), ...outcomes]);
    return this;
  }

  async listTemplates(wabaId: string, _call: UpstreamCall): Promise<UpstreamTemplate[]> {
    this.listTemplateCalls += 1;
    if (this.listTemplatesFailure) throw this.listTemplatesFailure;
    return copy(this.templates.get(wabaId) ?? []);
  }

  async listPhoneNumbers(_wabaId: string, _call: UpstreamCall): Promise<UpstreamPhoneNumber[]> {
    return [];
  }

  /** `whatsapp_business_manager_messaging_limit` per phone number id (absent: TIER_UNLIMITED). */
  readonly messagingLimits = new Map<string, string>();
  messagingLimitCalls = 0;

  async messagingLimitOf(phoneNumberId: string, _call: UpstreamCall): Promise<string | undefined> {
    this.messagingLimitCalls += 1;
    return this.messagingLimits.get(phoneNumberId) ?? 'TIER_UNLIMITED';
  }

  async sendMessage(phoneNumberId: string, body: Record<string, unknown>, call: UpstreamCall): Promise<SendOutcome> {
    const send: RecordedSend = { phoneNumberId, to: String(body.to), body: copy(body), accessToken: call.accessToken, at: this.clock.now().getTime() };
    this.sends.push(send);
    await this.onSend?.(send);
    const scripted = this.outcomes.get(send.to)?.shift();
    if (scripted) return scripted;
    if (this.defaultOutcome) return this.defaultOutcome(send.to);
    return accepted(`wamid.${(this.messageCounter += 1)}`);
  }

  sendsTo(to: string): RecordedSend[] {
    return this.sends.filter((send) => send.to === to);
  }
}

/* ---------------------------------------------------------- repository */

interface ChunkRecord {
  recipientCount: number;
  sent: number;
  failed: number;
  unknown: number;
  failuresByReason: Record<string, number>;
  startedAt?: string;
  doneAt?: string;
}

type RepositoryMethod = keyof BroadcastRepository;

/**
 * The broadcast repository in memory, mirroring DynamoDbBroadcastRepository: put-if-absent job
 * and chunks, conditional ledger claims, unconditional outcome overwrites, SENDING → UNKNOWN only
 * from SENDING, and reconcile that sets exact counts only once every recipient is accounted for.
 */
export class InMemoryBroadcastRepository implements BroadcastRepository {
  readonly jobs = new Map<string, BroadcastJob>();
  readonly chunks = new Map<string, ChunkRecord>();
  readonly ledger = new Map<string, LedgerEntry>();
  /** Read side: recipients as accepted (`<jobId>#<chunk>`), tally codes (`<jobId>#T#<index>`) and Meta's facts (ledger ids). */
  readonly listedRecipients = new Map<string, JobRecipient[]>();
  readonly tallyCodes = new Map<string, TallyCode>();
  readonly deliveryFacts = new Map<string, DeliveryFacts>();
  readonly calls = new Map<RepositoryMethod, number>();
  /** Decides, per call, whether the call fails (return the error to throw). */
  failWhen?: (method: RepositoryMethod, callNumber: number) => Error | undefined;

  private touch(method: RepositoryMethod): void {
    const callNumber = (this.calls.get(method) ?? 0) + 1;
    this.calls.set(method, callNumber);
    const error = this.failWhen?.(method, callNumber);
    if (error) throw error;
  }

  private static chunkId = (jobId: string, chunkIndex: number) => `${jobId}#${chunkIndex}`;
  private static ledgerId = (jobId: string, chunkIndex: number, index: number) => `${jobId}#${chunkIndex}#${index}`;

  callsOf(method: RepositoryMethod): number {
    return this.calls.get(method) ?? 0;
  }

  entry(jobId: string, chunkIndex: number, index: number): LedgerEntry | undefined {
    const entry = this.ledger.get(InMemoryBroadcastRepository.ledgerId(jobId, chunkIndex, index));
    return entry && copy(entry);
  }

  entriesOf(jobId: string, chunkIndex: number): LedgerEntry[] {
    const prefix = `${InMemoryBroadcastRepository.chunkId(jobId, chunkIndex)}#`;
    return [...this.ledger.entries()]
      .filter(([id]) => id.startsWith(prefix))
      .map(([, entry]) => copy(entry))
      .sort((a, b) => a.index - b.index);
  }

  chunk(jobId: string, chunkIndex: number): ChunkRecord | undefined {
    const chunk = this.chunks.get(InMemoryBroadcastRepository.chunkId(jobId, chunkIndex));
    return chunk && copy(chunk);
  }

  async createJob(job: BroadcastJob, chunkSizes: readonly number[], recipients: readonly JobRecipient[] = []): Promise<{ created: boolean }> {
    this.touch('createJob');
    const created = !this.jobs.has(job.jobId);
    if (created) this.jobs.set(job.jobId, copy(job));
    for (const recipient of recipients) {
      const id = InMemoryBroadcastRepository.chunkId(job.jobId, Math.floor(recipient.index / job.chunkSize));
      if (created || !this.listedRecipients.has(id)) this.listedRecipients.set(id, [...(this.listedRecipients.get(id) ?? []), copy(recipient)]);
    }
    chunkSizes.forEach((recipientCount, chunkIndex) => {
      const id = InMemoryBroadcastRepository.chunkId(job.jobId, chunkIndex);
      if (!this.chunks.has(id)) this.chunks.set(id, { recipientCount, sent: 0, failed: 0, unknown: 0, failuresByReason: {} });
    });
    return { created };
  }

  async discardJob(jobId: string): Promise<void> {
    this.touch('discardJob');
    for (const store of [this.chunks, this.ledger, this.listedRecipients, this.tallyCodes, this.deliveryFacts]) {
      for (const id of [...store.keys()]) if (id.startsWith(`${jobId}#`)) store.delete(id);
    }
    this.jobs.delete(jobId);
  }

  async getJob(jobId: string): Promise<BroadcastJob | undefined> {
    this.touch('getJob');
    const job = this.jobs.get(jobId);
    return job && copy(job);
  }

  async listJobsOfOrganization(organizationId: string, query: JobListQuery): Promise<JobListPage> {
    this.touch('listJobsOfOrganization');
    const newestFirst = (a: JobListPosition, b: JobListPosition) =>
      a.createdAt === b.createdAt ? (a.jobId < b.jobId ? 1 : a.jobId > b.jobId ? -1 : 0) : a.createdAt < b.createdAt ? 1 : -1;
    const matching = [...this.jobs.values()]
      .filter((job) => job.organizationId === organizationId)
      .filter((job) => (query.from === undefined || job.createdAt >= query.from) && (query.to === undefined || job.createdAt <= query.to))
      .filter((job) => query.after === undefined || newestFirst(query.after, job) < 0)
      .sort(newestFirst);
    const jobs = matching.slice(0, query.limit).map((job) => copy(job));
    const last = jobs.at(-1);
    return matching.length > query.limit && last ? { jobs, next: { createdAt: last.createdAt, jobId: last.jobId } } : { jobs };
  }

  async cancelJob(jobId: string, now: Date): Promise<string | undefined> {
    this.touch('cancelJob');
    const job = this.jobs.get(jobId);
    if (!job) return undefined;
    job.cancelledAt ??= now.toISOString();
    return job.cancelledAt;
  }

  async isCancelled(jobId: string): Promise<boolean> {
    this.touch('isCancelled');
    return this.jobs.get(jobId)?.cancelledAt !== undefined;
  }

  async readJobControl(jobId: string): Promise<JobControl | undefined> {
    this.touch('readJobControl');
    const job = this.jobs.get(jobId);
    if (!job) return undefined;
    const pause = job.pausedAt !== undefined ? { pausedAt: job.pausedAt, reason: job.pauseReason ?? '', failsAt: job.pauseFailsAt ?? '' } : undefined;
    return { cancelled: job.cancelledAt !== undefined, createdAt: job.createdAt, ...(pause ? { pause } : {}) };
  }

  async pauseJob(jobId: string, pause: JobPause): Promise<JobPause | undefined> {
    this.touch('pauseJob');
    const job = this.jobs.get(jobId);
    if (!job) return undefined;
    job.pausedAt ??= pause.pausedAt;
    job.pauseReason ??= pause.reason;
    job.pauseFailsAt ??= pause.failsAt;
    return { pausedAt: job.pausedAt, reason: job.pauseReason, failsAt: job.pauseFailsAt };
  }

  async resumeJob(jobId: string, pausedAt: string): Promise<boolean> {
    this.touch('resumeJob');
    const job = this.jobs.get(jobId);
    if (job?.pausedAt !== pausedAt) return false;
    delete job.pausedAt;
    delete job.pauseReason;
    delete job.pauseFailsAt;
    return true;
  }

  async getChunkProgress(jobId: string): Promise<ChunkProgress[]> {
    this.touch('getChunkProgress');
    return [...this.chunks.entries()]
      .filter(([id]) => id.startsWith(`${jobId}#`))
      .map(([id, chunk]) => ({
        chunkIndex: Number(id.slice(jobId.length + 1)),
        recipientCount: chunk.recipientCount,
        sent: chunk.sent,
        failed: chunk.failed,
        unknown: chunk.unknown,
        failuresByReason: Object.fromEntries(Object.entries(chunk.failuresByReason).filter(([, count]) => count > 0)),
        started: chunk.startedAt !== undefined,
        done: chunk.doneAt !== undefined,
        ...(chunk.doneAt !== undefined ? { doneAt: chunk.doneAt } : {}),
      }))
      .sort((a, b) => a.chunkIndex - b.chunkIndex);
  }

  async getJobProgress(jobId: string): Promise<JobProgress> {
    this.touch('getJobProgress');
    const prefix = `${jobId}#T#`;
    const tally = [...this.tallyCodes.entries()]
      .filter(([id]) => id.startsWith(prefix))
      .map(([id, code]): [number, TallyCode] => [Number(id.slice(prefix.length)), code]);
    return { chunks: await this.getChunkProgress(jobId), tally };
  }

  async readChunkRecipients(jobId: string, chunkIndex: number): Promise<ChunkRecipientRecords> {
    this.touch('readChunkRecipients');
    const listed = this.listedRecipients.get(InMemoryBroadcastRepository.chunkId(jobId, chunkIndex));
    return {
      ...(listed ? { listed: copy(listed) } : {}),
      ledger: this.entriesOf(jobId, chunkIndex).map((entry) => ({
        entry,
        facts: copy(this.deliveryFacts.get(InMemoryBroadcastRepository.ledgerId(jobId, chunkIndex, entry.index)) ?? {}),
      })),
    };
  }

  /** Test helper: what the delivery event processor would write for one recipient (facts and tally code). */
  recordDelivery(jobId: string, chunkIndex: number, index: number, facts: DeliveryFacts, tallyCode?: TallyCode): void {
    const id = InMemoryBroadcastRepository.ledgerId(jobId, chunkIndex, index);
    this.deliveryFacts.set(id, { ...(this.deliveryFacts.get(id) ?? {}), ...facts });
    if (tallyCode !== undefined) this.tallyCodes.set(`${jobId}#T#${index}`, tallyCode);
  }

  private chunkRecord(jobId: string, chunkIndex: number): ChunkRecord {
    const id = InMemoryBroadcastRepository.chunkId(jobId, chunkIndex);
    let chunk = this.chunks.get(id);
    if (!chunk) {
      // DynamoDB's UpdateItem creates the item; so do we (without a recipient count).
      chunk = { recipientCount: 0, sent: 0, failed: 0, unknown: 0, failuresByReason: {} };
      this.chunks.set(id, chunk);
    }
    return chunk;
  }

  async markChunkStarted(jobId: string, chunkIndex: number, now: Date): Promise<boolean> {
    this.touch('markChunkStarted');
    const chunk = this.chunks.get(InMemoryBroadcastRepository.chunkId(jobId, chunkIndex));
    if (!chunk) return false;
    chunk.startedAt ??= now.toISOString();
    return true;
  }

  async claimRecipient(jobId: string, chunkIndex: number, index: number, to: string, now: Date, as: ClaimState = 'SENDING'): Promise<ClaimResult> {
    this.touch('claimRecipient');
    const id = InMemoryBroadcastRepository.ledgerId(jobId, chunkIndex, index);
    const existing = this.ledger.get(id);
    if (existing) return { claimed: false, existing: copy(existing) };
    const state = typeof as === 'string' ? { status: as } : { status: as.status, failureReasonCode: as.failureReasonCode };
    this.ledger.set(id, { index, to, ...state, attempts: 0, updatedAt: now.toISOString() });
    return { claimed: true };
  }

  async releaseClaim(jobId: string, chunkIndex: number, index: number): Promise<boolean> {
    this.touch('releaseClaim');
    const id = InMemoryBroadcastRepository.ledgerId(jobId, chunkIndex, index);
    if (this.ledger.get(id)?.status !== 'SENDING') return false;
    this.ledger.delete(id);
    return true;
  }

  async recordOutcomes(jobId: string, chunkIndex: number, entries: readonly LedgerEntry[]): Promise<void> {
    this.touch('recordOutcomes');
    for (const entry of entries) this.ledger.set(InMemoryBroadcastRepository.ledgerId(jobId, chunkIndex, entry.index), copy(entry));
  }

  async recordSettled(): Promise<void> {
    // The claim already holds the entry as it is; tally codes are not kept by this fake.
    this.touch('recordSettled');
  }

  async markStaleAsUnknown(jobId: string, chunkIndex: number, index: number, now: Date): Promise<boolean> {
    this.touch('markStaleAsUnknown');
    const entry = this.ledger.get(InMemoryBroadcastRepository.ledgerId(jobId, chunkIndex, index));
    if (entry?.status !== 'SENDING') return false;
    entry.status = 'UNKNOWN';
    entry.failureReasonCode = 'UNKNOWN_OUTCOME: interrupted attempt';
    entry.updatedAt = now.toISOString();
    return true;
  }

  async addChunkProgress(jobId: string, chunkIndex: number, delta: ProgressDelta): Promise<void> {
    this.touch('addChunkProgress');
    const chunk = this.chunkRecord(jobId, chunkIndex);
    chunk.sent += delta.sent;
    chunk.failed += delta.failed;
    chunk.unknown += delta.unknown;
    for (const [reason, count] of Object.entries(delta.failuresByReason)) {
      chunk.failuresByReason[reason] = (chunk.failuresByReason[reason] ?? 0) + count;
    }
  }

  async reconcileChunk(jobId: string, chunkIndex: number, now: Date): Promise<{ done: boolean }> {
    this.touch('reconcileChunk');
    const chunk = this.chunkRecord(jobId, chunkIndex);
    const entries = this.entriesOf(jobId, chunkIndex);
    const count = (status: LedgerEntry['status']) => entries.filter((entry) => entry.status === status).length;
    const sent = count('SENT');
    const failed = count('FAILED');
    const unknown = count('UNKNOWN');
    if (sent + failed + unknown + count('CANCELLED') < chunk.recipientCount) return { done: false };
    const failuresByReason: Record<string, number> = {};
    for (const reason of Object.keys(chunk.failuresByReason)) failuresByReason[reason] = 0;
    for (const entry of entries) {
      if (entry.status !== 'FAILED') continue;
      const reason = entry.failureReasonCode ?? 'TEMPLATE_SEND_FAILED';
      failuresByReason[reason] = (failuresByReason[reason] ?? 0) + 1;
    }
    Object.assign(chunk, { sent, failed, unknown, failuresByReason });
    chunk.doneAt ??= now.toISOString();
    return { done: true };
  }

  async findByMessageId(messageId: string): Promise<LedgerEntryLocation | undefined> {
    this.touch('findByMessageId');
    for (const [id, entry] of this.ledger) {
      if (entry.messageId !== messageId) continue;
      const [jobId, chunkIndex] = id.split('#');
      return { jobId: jobId!, chunkIndex: Number(chunkIndex), entry: copy(entry) };
    }
    return undefined;
  }
}

/* --------------------------------------------------------------- pacer */

/** The pacer's schedule in memory: the same arithmetic as DynamoDbSendPacer. */
export class InMemorySendPacer implements SendPacer {
  readonly nextFreeAt = new Map<string, number>();
  readonly reservations: Array<{ accountKey: string; count: number; ratePerSecond: number; nowMs: number; start: number }> = [];
  readonly holds: Array<{ accountKey: string; untilMs: number }> = [];

  async reserve(accountKey: string, count: number, ratePerSecond: number, nowMs: number): Promise<number> {
    const durationMs = (count * 1000) / ratePerSecond;
    const next = this.nextFreeAt.get(accountKey);
    const start = next === undefined || next <= nowMs ? nowMs : next;
    this.nextFreeAt.set(accountKey, start + durationMs);
    this.reservations.push({ accountKey, count, ratePerSecond, nowMs, start });
    return start;
  }

  async holdUntil(accountKey: string, untilMs: number): Promise<void> {
    this.holds.push({ accountKey, untilMs });
    const next = this.nextFreeAt.get(accountKey);
    if (next === undefined || next < untilMs) this.nextFreeAt.set(accountKey, untilMs);
  }

  async bookedUntil(accountKey: string): Promise<number | undefined> {
    return this.nextFreeAt.get(accountKey);
  }
}

/* --------------------------------------------------------------- queue */

export class RecordingOutboundQueue implements OutboundQueue {
  readonly batches: Array<{ messages: OutboundMessage[]; delaySeconds?: number }> = [];
  failure?: Error;

  async enqueue(messages: readonly OutboundMessage[], options: { delaySeconds?: number } = {}): Promise<void> {
    if (this.failure) throw this.failure;
    this.batches.push({ messages: copy([...messages]), delaySeconds: options.delaySeconds });
  }

  readonly deferrals: Array<{ receiptHandle: string; delaySeconds: number }> = [];

  async deferRedelivery(receiptHandle: string, delaySeconds: number): Promise<void> {
    this.deferrals.push({ receiptHandle, delaySeconds });
  }

  get messages(): OutboundMessage[] {
    return this.batches.flatMap((batch) => batch.messages);
  }
}

/* --------------------------------------------------------- idempotency */

/** The IdempotencyGuard contract in memory (no expiry; in-progress until `work` settles). */
export class InMemoryIdempotencyGuard implements IdempotencyGuard {
  readonly records = new Map<string, { payloadHash: string; status: 'INPROGRESS' | 'COMPLETED'; result?: string }>();
  runs = 0;

  async run<T extends object>(key: string, payloadHash: string, work: () => Promise<T>, _options: { inProgressTimeoutMs: number }): Promise<T> {
    const record = this.records.get(key);
    if (record) {
      if (record.payloadHash !== payloadHash) throw new IdempotencyKeyReusedError();
      if (record.status === 'INPROGRESS') throw new IdempotencyKeyInProgressError();
      return JSON.parse(record.result!) as T;
    }
    this.records.set(key, { payloadHash, status: 'INPROGRESS' });
    this.runs += 1;
    try {
      const result = await work();
      this.records.set(key, { payloadHash, status: 'COMPLETED', result: JSON.stringify(result) });
      return result;
    } catch (error) {
      this.records.delete(key);
      throw error;
    }
  }
}

/* ------------------------------------------------------------ requests */

/** Recipient i gets number 98<8 digits of i> under country code 91. */
export const recipientNumber = (index: number): string => `98${String(index).padStart(8, '0')}`;

export function broadcastRequest(
  count: number,
  overrides: Partial<TemplateBroadcastRequest> = {},
  parametersOf: (index: number) => string[] | undefined = (index) => [`Name${index}`, `Order${index}`],
): TemplateBroadcastRequest {
  return {
    broadcastName: 'spring sale',
    fromPhoneNumber: SENDER.phoneNumber,
    templateName: 'order_update',
    templateLanguage: 'en_US',
    templateType: 'UTILITY',
    data: Array.from({ length: count }, (_, index) => {
      const parameters = parametersOf(index);
      return { countryCode: '91', toPhoneNumber: recipientNumber(index), ...(parameters ? { templateParams: parameters } : {}) };
    }),
    ...overrides,
  };
}

/** The job a template chunk message belongs to, as the accept path records it. */
export function jobOf(message: TemplateChunkMessage, chunkSizes: readonly number[] = [message.recipients.length], createdAt = '2026-03-01T09:00:00.000Z'): BroadcastJob {
  return {
    kind: 'template',
    jobId: message.jobId,
    organizationId: message.organizationId,
    broadcastName: 'test',
    exposed: true,
    wabaId: message.wabaId,
    phoneNumberId: message.phoneNumberId,
    fromPhoneNumber: SENDER.phoneNumber,
    template: { name: message.template.name, language: message.template.language, category: 'UTILITY', id: 'tpl_1' },
    totalRecipients: chunkSizes.reduce((sum, size) => sum + size, 0),
    totalChunks: chunkSizes.length,
    chunkSize: 1000,
    createdAt,
  };
}

export function chunkMessage(recipientCount: number, overrides: Partial<TemplateChunkMessage> = {}): TemplateChunkMessage {
  return {
    kind: 'template-chunk',
    version: 1,
    jobId: 'pub_job1',
    organizationId: ORG,
    chunkIndex: 0,
    wabaId: SENDER.wabaId,
    phoneNumberId: SENDER.phoneNumberId,
    template: { name: 'order_update', language: 'en_US' },
    recipients: Array.from({ length: recipientCount }, (_, index) => ({ index, to: `91${recipientNumber(index)}`, parameters: [`Name${index}`] })),
    ...overrides,
  };
}

/** Inbound times by `<org>#<sender>#<customer>`; none recorded by default (the window is unknown). */
export class RecordedServiceWindow implements ServiceWindow {
  readonly lastInbound = new Map<string, Date>();
  readonly reads: string[] = [];

  record(organizationId: string, senderPhoneNumber: string, customerPhoneNumber: string, at: Date): void {
    this.lastInbound.set(`${organizationId}#${senderPhoneNumber}#${customerPhoneNumber}`, at);
  }

  async lastInboundAt(organizationId: string, senderPhoneNumber: string, customerPhoneNumber: string): Promise<Date | undefined> {
    const key = `${organizationId}#${senderPhoneNumber}#${customerPhoneNumber}`;
    this.reads.push(key);
    return this.lastInbound.get(key);
  }
}

/** The template-states adapter's semantics in memory: the newest event per template and language wins. */
export class InMemoryTemplateStates implements TemplateStates {
  readonly states = new Map<string, TemplateState>();
  reads = 0;

  async record(wabaId: string, state: TemplateState): Promise<boolean> {
    const key = `${wabaId}#${state.name}#${state.language}`;
    const current = this.states.get(key);
    if (current && current.at.getTime() >= state.at.getTime()) return false;
    this.states.set(key, { ...state });
    return true;
  }

  async statesOf(wabaId: string): Promise<TemplateState[]> {
    this.reads += 1;
    return [...this.states.entries()].filter(([key]) => key.startsWith(`${wabaId}#`)).map(([, state]) => ({ ...state }));
  }

  async stateOf(wabaId: string, name: string, language: string): Promise<TemplateState | undefined> {
    this.reads += 1;
    const state = this.states.get(`${wabaId}#${name}#${language}`);
    return state && { ...state };
  }
}

/* ------------------------------------------------------ messaging limit */

/** Tiers per phone number id (absent: TIER_UNLIMITED), mapped as the Graph reader maps them. */
export class FixedMessagingTiers implements MessagingTiers {
  readonly tiers = new Map<string, string>();
  async tierOf(sender: Pick<SenderAccount, 'phoneNumberId'>): Promise<MessagingTier> {
    return messagingTierOf(this.tiers.get(sender.phoneNumberId) ?? 'TIER_UNLIMITED');
  }
}

/** The portfolio reach buckets in memory, with DynamoDbPortfolioReach's conditional version check. */
export class InMemoryPortfolioReach implements PortfolioReach {
  readonly buckets = new Map<string, ReachBucket>();
  writes = 0;
  conflicts = 0;
  /** Runs before each write is checked (e.g. to let a concurrent accept write first). */
  beforeWrite?: (businessId: string, bucket: ReachBucket) => void | Promise<void>;

  async bucketsOf(businessId: string, fromHour: string, toHour: string): Promise<ReachBucket[]> {
    return [...this.buckets]
      .filter(([key]) => key.startsWith(`${businessId}#`))
      .map(([, bucket]) => ({ ...bucket, sketch: bucket.sketch.slice() }))
      .filter((bucket) => bucket.hour >= fromHour && bucket.hour <= toHour)
      .sort((a, b) => a.hour.localeCompare(b.hour));
  }

  async writeBucket(businessId: string, bucket: ReachBucket, expectedVersion: number): Promise<boolean> {
    await this.beforeWrite?.(businessId, bucket);
    const key = `${businessId}#${bucket.hour}`;
    if ((this.buckets.get(key)?.version ?? 0) !== expectedVersion) {
      this.conflicts += 1;
      return false;
    }
    this.writes += 1;
    this.buckets.set(key, { ...bucket, sketch: bucket.sketch.slice() });
    return true;
  }
}

/** Messaging-limit ports under which every number is unlimited (nothing is counted): for tests of other concerns. */
export const unlimitedMessaging = () => ({ messagingTiers: new FixedMessagingTiers(), portfolioReach: new InMemoryPortfolioReach() });
