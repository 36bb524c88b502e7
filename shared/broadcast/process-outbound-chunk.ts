/**
 * The chunk worker's use case: send a chunk message's content (a template with per-recipient
 * parameters, or one prepared free-form message) to each of its recipients, exactly once, at the
 * pace the business account allows. Four steps per recipient and chunk:
 *
 * 1. claim: a conditional ledger write before the upstream call, so a redelivered, replayed or
 *    duplicated message skips everyone already claimed (the claim carries a token, so an SDK retry
 *    of our own write is not mistaken for someone else's claim). A claim left in SENDING by a
 *    crashed attempt means the outcome is unknown: it is marked UNKNOWN, never sent again.
 * 2. dispatch: the sending engine (shared/sending) sends on the account's shared schedule, with
 *    the worker's attempt budget (rate-limit answers get three times the attempts) and its time
 *    budget (the invocation's remaining time less a safety margin).
 * 3. record outcome: SENT with the message id, FAILED with the reason, UNKNOWN (never resent),
 *    written in ordered batches (chunk-outcomes.ts).
 * 4. settle chunk: recipients the time budget left over continue in a new message (the ledger
 *    keeps that safe to repeat); otherwise the chunk is reconciled from its ledger. On the last
 *    delivery of a message that keeps failing, abandonOutboundChunk accounts the rest as WORKER_ERROR.
 *
 * Cancellation (cancel-job.ts): before each send the lanes ask whether the job was cancelled (one
 * read shared by the lanes, refreshed at most every CANCELLATION_REFRESH_MS). Once it was, no lane
 * takes another recipient (sends already under way finish), and every recipient not yet claimed is
 * claimed as CANCELLED, so the chunk settles; a chunk picked up after the cancel sends nothing.
 */
import { announceJobCompletion, type JobCompletionPorts } from './announce-job-completion';
import type { ChunkRecipient, OutboundMessage } from './chunk-message';
import { ChunkOutcomes, countFailure, emptyDelta, type ChunkReport } from './chunk-outcomes';
import type { BroadcastRepository, Clock, LedgerEntry, OutboundQueue, SenderDirectory } from './ports';
import { callbackDataOf } from '../delivery/callback-data';
import { dispatchSend, openSendSession, type Dispatched, type SendSession, type SendingPorts } from '../sending/dispatch-send';
import { templateMessageBody } from '../sending/message-bodies';
import type { CloudApiClient, Rejection } from '../sending/ports';
import { chunkWorkerBudget, type SendPolicySettings } from '../sending/send-policy';

export type { ChunkReport } from './chunk-outcomes';

export interface ChunkWorkerSettings extends SendPolicySettings {
  /** Concurrent upstream calls per worker: enough to cover upstream latency at the account's rate. */
  maxInFlight: number;
  /** Stop taking recipients when less than this remains of the invocation; the rest continue in a new message. */
  safetyMarginMs: number;
  /** Outcomes are written in batches of this many (or sooner, see flushIntervalMs). */
  outcomeBatchSize: number;
  flushIntervalMs: number;
}

export interface ProcessChunkDependencies extends SendingPorts {
  senders: SenderDirectory;
  broadcasts: BroadcastRepository;
  upstream: CloudApiClient;
  queue: OutboundQueue;
  settings: ChunkWorkerSettings;
  /** Customer events (job.completed when this worker settles a job's last chunk); absent: none. */
  events?: JobCompletionPorts['events'];
}

export interface ChunkInvocation {
  remainingTimeMs: () => number;
}

/** Reason code recorded for a rejected recipient: the contract's names where they apply, else Meta's code. */
export function failureReasonOf(outcome: Rejection): string {
  const code = outcome.error.code;
  // 131026: message undeliverable (not a WhatsApp number); 100 with a `to` complaint: malformed number.
  if (code === 131026 || (code === 100 && /phone|recipient|\bto\b/i.test(outcome.error.message))) return 'INVALID_PHONE_NUMBER';
  return String(code);
}

/** The longest a worker's view of its job's cancellation may be stale (slow accounts). */
export const CANCELLATION_REFRESH_MS = 250;
/** The shortest (fast accounts: one consistent read of one attribute per this long per worker). */
export const CANCELLATION_REFRESH_MIN_MS = 20;

/**
 * How often to re-read the cancellation: what the account's pace can start within it stays at half
 * the worker's in-flight sends, so after a cancel is acknowledged at most the sends in flight at that
 * moment and as many again go out (at 80/s with 16 in flight: every 100 ms, 8 sends).
 */
export const cancellationRefreshMs = (messagesPerSecond: number, maxInFlight: number): number =>
  Math.min(CANCELLATION_REFRESH_MS, Math.max(CANCELLATION_REFRESH_MIN_MS, Math.floor((maxInFlight * 1000) / (2 * Math.max(1, messagesPerSecond)))));

/** Whether the job is cancelled, read at most every `refreshMs`; concurrent askers share one read. */
function cancellationWatch(broadcasts: Pick<BroadcastRepository, 'isCancelled'>, jobId: string, clock: Clock, refreshMs = CANCELLATION_REFRESH_MS): () => Promise<boolean> {
  let cancelled = false;
  let readAtMs = Number.NEGATIVE_INFINITY;
  let reading: Promise<boolean> | undefined;
  return async () => {
    if (cancelled || clock.now().getTime() - readAtMs < refreshMs) return cancelled;
    reading ??= broadcasts
      .isCancelled(jobId)
      .then((value) => {
        cancelled = value;
        readAtMs = clock.now().getTime();
        return value;
      })
      .finally(() => (reading = undefined));
    return reading;
  };
}

export async function processOutboundChunk(
  dependencies: ProcessChunkDependencies,
  message: OutboundMessage,
  invocation: ChunkInvocation,
): Promise<ChunkReport> {
  const { broadcasts, clock, settings } = dependencies;
  if (!(await broadcasts.markChunkStarted(message.jobId, message.chunkIndex, clock.now()))) {
    // The job was discarded when queueing its other chunks failed: nothing of it may be sent.
    return { sent: 0, failed: 0, unknown: 0, skipped: message.recipients.length, continued: 0, chunkDone: true };
  }
  if (await broadcasts.isCancelled(message.jobId)) return settleCancelled(dependencies, message, { sent: 0, failed: 0, unknown: 0, skipped: 0, continued: 0, chunkDone: false });
  const account = await dependencies.senders.accountOf(message.organizationId, message.wabaId);
  const isCancelled = cancellationWatch(broadcasts, message.jobId, clock, cancellationRefreshMs(account.messagesPerSecond, settings.maxInFlight));
  const session = openSendSession(dependencies, { accountKey: message.wabaId, messagesPerSecond: account.messagesPerSecond }, settings, chunkWorkerBudget(settings));
  const outcomes = new ChunkOutcomes(broadcasts, message, settings, clock);
  const budgetEnd = (): number => clock.now().getTime() + invocation.remainingTimeMs() - settings.safetyMarginMs;

  const sendTo = async (recipient: ChunkRecipient, firstSlot: number): Promise<void> => {
    if (!(await claim(dependencies, message, recipient, outcomes, () => session.slots.giveBack(firstSlot)))) return;
    const body = messageBodyFor(message, recipient);
    const dispatched = await dispatchSend(session, {
      firstSlot,
      startsInTime: (slot) => slot < budgetEnd(),
      send: () => dependencies.upstream.sendMessage(message.phoneNumberId, body, { accessToken: account.accessToken }),
      stillWanted: async () => !(await isCancelled()),
    });
    outcomes.record(ledgerEntryOf(recipient, dispatched, clock.now()));
  };

  const pending = [...message.recipients];
  await runLanes(session, settings.maxInFlight, pending, budgetEnd, outcomes, sendTo, isCancelled);
  await outcomes.flush();
  if (outcomes.failure !== undefined) throw outcomes.failure;
  if (pending.length > 0 && (await isCancelled())) return settleCancelled(dependencies, { ...message, recipients: pending }, outcomes.report);
  return settleChunk(dependencies, message, pending, outcomes.report);
}

/**
 * Up to `maxInFlight` lanes take recipients while their send can still start within the budget.
 * The slot comes before the claim: with other workers sharing the account it can be far ahead,
 * and a recipient is only claimed when its send can still start in time. The first failure stops
 * every lane.
 */
async function runLanes(
  session: SendSession,
  maxInFlight: number,
  pending: ChunkRecipient[],
  budgetEnd: () => number,
  outcomes: ChunkOutcomes,
  sendTo: (recipient: ChunkRecipient, firstSlot: number) => Promise<void>,
  isCancelled: () => Promise<boolean>,
): Promise<void> {
  const { slots } = session;
  const hasTimeFor = (): boolean => slots.peek() < budgetEnd();
  const lane = async (): Promise<void> => {
    while (outcomes.failure === undefined && pending.length > 0 && hasTimeFor()) {
      try {
        const slot = await slots.take();
        // Asked after the wait for a slot, right before the claim and the send.
        const recipient = outcomes.failure === undefined && slot < budgetEnd() && !(await isCancelled()) ? pending.shift() : undefined;
        if (!recipient) {
          slots.giveBack(slot);
          break;
        }
        await sendTo(recipient, slot);
      } catch (error) {
        outcomes.fail(error);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(maxInFlight, pending.length) }, lane));
}

/**
 * Step 1: the conditional ledger claim, written before any upstream call. False when the recipient
 * is already someone's: nothing to send, and its slot goes back (`release`) before any further
 * store call, so another lane can use it.
 */
async function claim(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock'>,
  message: OutboundMessage,
  [index, to]: ChunkRecipient,
  outcomes: ChunkOutcomes,
  release: () => void,
): Promise<boolean> {
  const result = await dependencies.broadcasts.claimRecipient(message.jobId, message.chunkIndex, index, to, dependencies.clock.now());
  if (result.claimed) return true;
  release();
  outcomes.skipped();
  if (await resolveStaleClaim(dependencies, message, index, result.existing)) outcomes.staleClaimResolved();
  return false;
}

/** A claim someone else holds: still SENDING means a crashed attempt, whose outcome is unknown → UNKNOWN (never resent). */
async function resolveStaleClaim(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock'>,
  message: OutboundMessage,
  index: number,
  existing: LedgerEntry,
): Promise<boolean> {
  return existing.status === 'SENDING' && dependencies.broadcasts.markStaleAsUnknown(message.jobId, message.chunkIndex, index, dependencies.clock.now());
}

/** Every send carries its ledger entry as callback data, so Meta's events find it even when the outcome was unknown. */
function messageBodyFor(message: OutboundMessage, [index, to, parameters]: ChunkRecipient): Record<string, unknown> {
  const body = message.kind === 'freeform' ? { ...message.body, to } : templateMessageBody(to, message.template, parameters);
  return { ...body, biz_opaque_callback_data: callbackDataOf({ kind: 'ledger', jobId: message.jobId, chunkIndex: message.chunkIndex, index }) };
}

/** Step 3's entry: the ledger's view of a dispatched send (step 2). */
function ledgerEntryOf([index, to]: ChunkRecipient, dispatched: Dispatched, now: Date): LedgerEntry {
  const base = { index, to, attempts: dispatched.attempts, updatedAt: now.toISOString() };
  switch (dispatched.kind) {
    case 'sent':
      return { ...base, status: 'SENT', messageId: dispatched.messageId };
    case 'unknown':
      return { ...base, status: 'UNKNOWN', failureReasonCode: `UNKNOWN_OUTCOME: ${dispatched.outcome.reason}` };
    case 'failed':
      return { ...base, status: 'FAILED', failureReasonCode: failureReasonOf(dispatched.rejection) };
    case 'withdrawn':
      return { ...base, status: 'CANCELLED' };
  }
}

/** Step 4: the rest (out of time) go on in a fresh message; a chunk with nobody left is reconciled from its ledger. */
async function settleChunk(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'queue' | 'events'>,
  message: OutboundMessage,
  pending: ChunkRecipient[],
  report: ChunkReport,
): Promise<ChunkReport> {
  if (pending.length > 0) {
    report.continued = pending.length;
    await dependencies.queue.enqueue([{ ...message, recipients: pending }]);
    return report;
  }
  report.chunkDone = (await dependencies.broadcasts.reconcileChunk(message.jobId, message.chunkIndex, dependencies.clock.now())).done;
  if (report.chunkDone) await announceIfLast(dependencies, message.jobId);
  return report;
}

/** Claims written at once when a cancellation settles a chunk (up to 1,000 recipients). */
const CANCEL_CLAIM_CONCURRENCY = 25;

/**
 * The job was cancelled: every recipient of `message` nobody claimed yet is claimed as CANCELLED
 * (never sent; a claim someone holds stays theirs, a crashed one becomes UNKNOWN as always), and the
 * chunk is reconciled, so the job finishes.
 */
async function settleCancelled(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'events'>,
  message: OutboundMessage,
  report: ChunkReport,
): Promise<ChunkReport> {
  const { broadcasts, clock } = dependencies;
  const { jobId, chunkIndex } = message;
  const cancelled: LedgerEntry[] = [];
  const remaining = [...message.recipients];
  const claimNext = async (): Promise<void> => {
    for (let recipient = remaining.shift(); recipient; recipient = remaining.shift()) {
      const [index, to] = recipient;
      // Claimed as CANCELLED at once: a retry of this settling (after a store fault) finds finished entries.
      const claim = await broadcasts.claimRecipient(jobId, chunkIndex, index, to, clock.now(), 'CANCELLED');
      if (claim.claimed) cancelled.push({ index, to, status: 'CANCELLED', attempts: 0, updatedAt: clock.now().toISOString() });
      else if (await resolveStaleClaim(dependencies, message, index, claim.existing)) report.unknown += 1;
      else report.skipped += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CANCEL_CLAIM_CONCURRENCY, remaining.length) }, claimNext));
  if (cancelled.length > 0) await broadcasts.recordOutcomes(jobId, chunkIndex, cancelled.sort((a, b) => a.index - b.index));
  report.cancelled = (report.cancelled ?? 0) + cancelled.length;
  report.chunkDone = (await broadcasts.reconcileChunk(jobId, chunkIndex, clock.now())).done;
  if (report.chunkDone) await announceIfLast(dependencies, jobId);
  return report;
}

/**
 * Last delivery of a message that keeps failing: account for everyone not yet claimed as a
 * WORKER_ERROR failure (never sent), and crashed claims as UNKNOWN, so the job can finish.
 */
export async function abandonOutboundChunk(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'events'>,
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
      countFailure(delta, 'WORKER_ERROR');
    } else if (await resolveStaleClaim(dependencies, message, index, claim.existing)) {
      delta.unknown += 1;
    }
  }
  if (failed.length > 0) await broadcasts.recordOutcomes(jobId, chunkIndex, failed);
  await broadcasts.addChunkProgress(jobId, chunkIndex, delta);
  if ((await broadcasts.reconcileChunk(jobId, chunkIndex, clock.now())).done) await announceIfLast(dependencies, jobId);
}

async function announceIfLast(dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'events'>, jobId: string): Promise<void> {
  const { events } = dependencies;
  if (events) await announceJobCompletion({ broadcasts: dependencies.broadcasts, clock: dependencies.clock, events }, jobId);
}
