/**
 * The chunk worker's use case: send a chunk message's content (a template with per-recipient
 * parameters, or one prepared free-form message) to each of its recipients, exactly once, at the
 * pace the business account allows.
 *
 * Exactly once rests on the ledger: a recipient is claimed with a conditional write before
 * the upstream call, so a redelivered, replayed or duplicated message skips everyone already
 * claimed. A claim left in SENDING by a crashed attempt means the outcome is unknown: it is
 * marked UNKNOWN, never sent again.
 */
import { fullJitterDelay } from './backoff';
import type { ChunkRecipient, OutboundMessage } from './chunk-message';
import type { BroadcastRepository, Clock, LedgerEntry, OutboundQueue, ProgressDelta, SendPacer, SenderDirectory } from './ports';
import { templateMessageBody } from './template-placeholders';
import { isRateLimitRejection, type CloudApiClient, type SendOutcome } from '../upstream/cloud-api-client';

export interface ChunkWorkerSettings {
  /** Concurrent upstream calls per worker: enough to cover upstream latency at the account's rate. */
  maxInFlight: number;
  /** Attempts per recipient for retryable rejections (rate limits, transient 5xx). */
  maxAttempts: number;
  backoff: { baseMs: number; maxMs: number };
  /** How long the whole account pauses after a rate-limit answer. */
  rateLimitHoldMs: number;
  /** Stop taking recipients when less than this remains of the invocation; the rest continue in a new message. */
  safetyMarginMs: number;
  /** Outcomes are written in batches of this many (or sooner, see flushIntervalMs). */
  outcomeBatchSize: number;
  flushIntervalMs: number;
}

export interface ProcessChunkDependencies {
  senders: SenderDirectory;
  broadcasts: BroadcastRepository;
  upstream: CloudApiClient;
  pacer: SendPacer;
  queue: OutboundQueue;
  clock: Clock;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  settings: ChunkWorkerSettings;
}

export interface ChunkInvocation {
  remainingTimeMs: () => number;
}

export interface ChunkReport {
  sent: number;
  failed: number;
  unknown: number;
  skipped: number;
  continued: number;
  chunkDone: boolean;
}

/** Reason code recorded for a rejected recipient: the contract's names where they apply, else Meta's code. */
export function failureReasonOf(outcome: Extract<SendOutcome, { kind: 'rejected' }>): string {
  const code = outcome.error.code;
  // 131026: message undeliverable (not a WhatsApp number); 100 with a `to` complaint: malformed number.
  if (code === 131026 || (code === 100 && /phone|recipient|\bto\b/i.test(outcome.error.message))) return 'INVALID_PHONE_NUMBER';
  return String(code);
}

/** Hands out send times from blocks reserved on the shared pacer, one reservation at a time. */
class SlotSource {
  private next = 0;
  private left = 0;
  private reserving: Promise<void> | undefined;
  /** Slots handed back unused (their recipient needed no send), earliest first. */
  private returned: number[] = [];
  private readonly blockSize: number;
  private readonly spacingMs: number;

  constructor(
    private readonly pacer: SendPacer,
    private readonly accountKey: string,
    private readonly ratePerSecond: number,
    private readonly clock: Clock,
  ) {
    // About 100 ms of sends per reservation: few pacer writes, little unused time when a worker stops.
    this.blockSize = Math.max(1, Math.min(200, Math.ceil(ratePerSecond / 10)));
    this.spacingMs = 1000 / ratePerSecond;
  }

  async take(): Promise<number> {
    // A handed-back slot is reused while it is still ahead; a passed one is dropped (no bursts).
    const now = this.clock.now().getTime();
    while (this.returned.length > 0) {
      const slot = this.returned.shift()!;
      if (slot >= now) return slot;
    }
    while (this.left === 0) {
      this.reserving ??= this.pacer
        .reserve(this.accountKey, this.blockSize, this.ratePerSecond, this.clock.now().getTime())
        .then((start) => {
          this.next = start;
          this.left = this.blockSize;
        })
        .finally(() => {
          this.reserving = undefined;
        });
      await this.reserving;
    }
    const slot = this.next;
    this.next += this.spacingMs;
    this.left -= 1;
    return slot;
  }

  giveBack(slot: number): void {
    this.returned.push(slot);
    this.returned.sort((a, b) => a - b);
  }

  /** When the next send could start if taken now (for the time-budget check). */
  peek(): number {
    return this.returned[0] ?? (this.left > 0 ? this.next : this.clock.now().getTime());
  }
}

/** Rate-limit answers get this many times the attempts of other retryable errors. */
const RATE_LIMIT_ATTEMPT_FACTOR = 3;

const emptyDelta = (): ProgressDelta => ({ sent: 0, failed: 0, unknown: 0, failuresByReason: {} });

export async function processOutboundChunk(
  dependencies: ProcessChunkDependencies,
  message: OutboundMessage,
  invocation: ChunkInvocation,
): Promise<ChunkReport> {
  const { broadcasts, clock, settings } = dependencies;
  const { jobId, chunkIndex } = message;
  const report: ChunkReport = { sent: 0, failed: 0, unknown: 0, skipped: 0, continued: 0, chunkDone: false };

  await broadcasts.markChunkStarted(jobId, chunkIndex, clock.now());
  const account = await dependencies.senders.accountOf(message.organizationId, message.wabaId);
  const slots = new SlotSource(dependencies.pacer, message.wabaId, account.messagesPerSecond, clock);
  // A rate-limit answer pauses the account: an isolated one (arrival jitter at the limit, expected
  // at high rates) for about ten send intervals, a run of them (a storm: the account's pace is above
  // what Meta grants) twice as long each time, up to the configured hold.
  const baseHoldMs = Math.max(20, 10_000 / account.messagesPerSecond);
  let rateLimitStreak = 0;
  const nextRateLimitHoldMs = (): number => Math.min(settings.rateLimitHoldMs, baseHoldMs * 2 ** rateLimitStreak++);

  let buffered: LedgerEntry[] = [];
  let delta = emptyDelta();
  let lastFlush = clock.now().getTime();
  let flushing: Promise<void> = Promise.resolve();
  let failure: unknown;
  const flush = (): Promise<void> => {
    const entries = buffered;
    const progress = delta;
    buffered = [];
    delta = emptyDelta();
    lastFlush = clock.now().getTime();
    if (entries.length === 0 && progress.sent + progress.failed + progress.unknown === 0) return flushing;
    // Chained so ledger batches land in order and a failure surfaces to the invocation.
    flushing = flushing
      .then(async () => {
        if (entries.length > 0) await broadcasts.recordOutcomes(jobId, chunkIndex, entries);
        await broadcasts.addChunkProgress(jobId, chunkIndex, progress);
      })
      .catch((error: unknown) => {
        failure ??= error;
      });
    return flushing;
  };
  const record = (entry: LedgerEntry) => {
    buffered.push(entry);
    if (entry.status === 'SENT') {
      delta.sent += 1;
      report.sent += 1;
    } else if (entry.status === 'FAILED') {
      delta.failed += 1;
      report.failed += 1;
      const reason = entry.failureReasonCode ?? 'TEMPLATE_SEND_FAILED';
      delta.failuresByReason[reason] = (delta.failuresByReason[reason] ?? 0) + 1;
    } else {
      delta.unknown += 1;
      report.unknown += 1;
    }
    if (buffered.length >= settings.outcomeBatchSize || clock.now().getTime() - lastFlush >= settings.flushIntervalMs) void flush();
  };

  const budgetEnd = (): number => clock.now().getTime() + invocation.remainingTimeMs() - settings.safetyMarginMs;
  const sendOnce = async ([index, to, parameters]: ChunkRecipient, firstSlot: number): Promise<void> => {
    const claim = await broadcasts.claimRecipient(jobId, chunkIndex, index, to, clock.now());
    if (!claim.claimed) {
      slots.giveBack(firstSlot);
      report.skipped += 1;
      if (claim.existing.status === 'SENDING' && (await broadcasts.markStaleAsUnknown(jobId, chunkIndex, index, clock.now()))) {
        delta.unknown += 1;
        report.unknown += 1;
      }
      return;
    }
    const body = message.kind === 'freeform' ? { ...message.body, to } : templateMessageBody(to, message.template, parameters);
    let lastRejection: Extract<SendOutcome, { kind: 'rejected' }> | undefined;
    for (let attempt = 1; ; attempt += 1) {
      const slot = attempt === 1 ? firstSlot : await slots.take();
      if (lastRejection && slot >= budgetEnd()) {
        // No time left for another attempt: it ends as if the attempts had run out.
        slots.giveBack(slot);
        const base = { index, to, attempts: attempt - 1, updatedAt: clock.now().toISOString() };
        return record({ ...base, status: 'FAILED', failureReasonCode: failureReasonOf(lastRejection) });
      }
      const wait = slot - clock.now().getTime();
      if (wait > 0) await dependencies.sleep(wait);
      const outcome = await dependencies.upstream.sendMessage(message.phoneNumberId, body, { accessToken: account.accessToken });
      const base = { index, to, attempts: attempt, updatedAt: clock.now().toISOString() };
      if (outcome.kind === 'accepted') {
        rateLimitStreak = 0;
        return record({ ...base, status: 'SENT', messageId: outcome.messageId });
      }
      if (outcome.kind === 'unknown') return record({ ...base, status: 'UNKNOWN', failureReasonCode: `UNKNOWN_OUTCOME: ${outcome.reason}` });
      const rateLimited = isRateLimitRejection(outcome.httpStatus, outcome.error.code);
      // A rate-limit answer means "not sent": safe to retry, so it gets a larger budget than other
      // errors (a storm can outlast six tries); the invocation's time budget still bounds it.
      const attemptBudget = rateLimited ? settings.maxAttempts * RATE_LIMIT_ATTEMPT_FACTOR : settings.maxAttempts;
      if (outcome.retryable && attempt < attemptBudget) {
        lastRejection = outcome;
        if (rateLimited) {
          await dependencies.pacer.holdUntil(message.wabaId, clock.now().getTime() + nextRateLimitHoldMs());
        }
        await dependencies.sleep(fullJitterDelay(attempt, settings.backoff, dependencies.random));
        continue;
      }
      return record({ ...base, status: 'FAILED', failureReasonCode: failureReasonOf(outcome) });
    }
  };

  const pending = [...message.recipients];
  const hasTimeFor = (): boolean => slots.peek() < budgetEnd();
  // The first failure stops every lane; what was already sent is still written to the ledger.
  const lane = async (): Promise<void> => {
    while (failure === undefined && pending.length > 0 && hasTimeFor()) {
      try {
        // The slot comes before the claim: with other workers sharing the account it can be far
        // ahead, and a recipient is only claimed when its send can still start within the budget.
        const slot = await slots.take();
        const recipient = failure === undefined && slot < budgetEnd() ? pending.shift() : undefined;
        if (!recipient) {
          slots.giveBack(slot);
          break;
        }
        await sendOnce(recipient, slot);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(settings.maxInFlight, pending.length) }, lane));
  await flush();
  if (failure !== undefined) throw failure;

  if (pending.length > 0) {
    // Out of time: the rest go on in a fresh message; the ledger keeps that safe to repeat.
    report.continued = pending.length;
    await dependencies.queue.enqueue([{ ...message, recipients: pending }]);
    return report;
  }
  report.chunkDone = (await broadcasts.reconcileChunk(jobId, chunkIndex, clock.now())).done;
  return report;
}

/**
 * Last delivery of a message that keeps failing: account for everyone not yet claimed as a
 * WORKER_ERROR failure (never sent), and crashed claims as UNKNOWN, so the job can finish.
 */
export async function abandonOutboundChunk(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock'>,
  message: OutboundMessage,
): Promise<void> {
  const { broadcasts, clock } = dependencies;
  const { jobId, chunkIndex } = message;
  const failed: LedgerEntry[] = [];
  const delta = emptyDelta();
  for (const [index, to] of message.recipients) {
    const claim = await broadcasts.claimRecipient(jobId, chunkIndex, index, to, clock.now());
    if (claim.claimed) {
      failed.push({ index, to, status: 'FAILED', failureReasonCode: 'WORKER_ERROR', attempts: 0, updatedAt: clock.now().toISOString() });
      delta.failed += 1;
      delta.failuresByReason.WORKER_ERROR = (delta.failuresByReason.WORKER_ERROR ?? 0) + 1;
    } else if (claim.existing.status === 'SENDING' && (await broadcasts.markStaleAsUnknown(jobId, chunkIndex, index, clock.now()))) {
      delta.unknown += 1;
    }
  }
  if (failed.length > 0) await broadcasts.recordOutcomes(jobId, chunkIndex, failed);
  await broadcasts.addChunkProgress(jobId, chunkIndex, delta);
  await broadcasts.reconcileChunk(jobId, chunkIndex, clock.now());
}
