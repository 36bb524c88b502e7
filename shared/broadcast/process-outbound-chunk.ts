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
 *
 * Template pauses (docs/BROADCAST.md "When Meta pauses a template"): the same read also tells
 * whether the job's template is still sendable (its state recorded from Meta's events) and a send
 * Meta refuses with 132015/132016 (template paused/disabled) says so at once. Then no lane takes
 * another recipient, the refused recipient's claim is released (never failed nor charged), the job
 * is marked PAUSED (the first pauser wins) and the rest is held: re-queued as a new message delayed
 * by PAUSE_RECHECK_SECONDS (not a redelivery, which would count toward the dead-letter queue). A
 * worker that finds the template approved again clears the pause and sends the rest; one that finds
 * the pause past its deadline claims the rest as FAILED `TEMPLATE_PAUSED`, so the job finishes.
 */
import { announceJobCompletion, type JobCompletionPorts } from './announce-job-completion';
import type { ChunkRecipient, OutboundMessage } from './chunk-message';
import { ChunkOutcomes, countFailure, emptyDelta, type ChunkReport } from './chunk-outcomes';
import type { BroadcastRepository, ClaimState, Clock, JobControl, JobPause, LedgerEntry, OutboundQueue, SenderDirectory, TemplateState, TemplateStates } from './ports';
import { callbackDataOf } from '../delivery/callback-data';
import { dispatchSend, openSendSession, type Dispatched, type SendSession, type SendingPorts } from '../sending/dispatch-send';
import { inFlightBudget, SendLatencyEstimate } from '../sending/in-flight-budget';
import { templateMessageBody } from '../sending/message-bodies';
import type { CloudApiClient, Rejection } from '../sending/ports';
import { chunkWorkerBudget, type SendPolicySettings } from '../sending/send-policy';

export type { ChunkReport } from './chunk-outcomes';

export interface ChunkWorkerSettings extends SendPolicySettings {
  /**
   * The most concurrent upstream calls per worker (the cap of the in-flight budget: memory and
   * sockets). The lanes in use follow the account's rate and the observed send latency
   * (shared/sending/in-flight-budget.ts), between `minInFlight` and this.
   */
  maxInFlight: number;
  /** The fewest lanes (default DEFAULT_MIN_IN_FLIGHT); the cap wins when it is lower. */
  minInFlight?: number;
  /** A lane's busy time per send assumed before any send reports back (default DEFAULT_LATENCY_PRIOR_MS). */
  latencyPriorMs?: number;
  /** Stop taking recipients when less than this remains of the invocation; the rest continue in a new message. */
  safetyMarginMs: number;
  /**
   * The longest one upstream call may take (its timeout). A send or retry may start right before
   * the budget ends, so the margin is at least this plus FINAL_FLUSH_ALLOWANCE_MS: otherwise one
   * timed-out send at the end overruns the invocation, Lambda kills it, and the chunk waits for the
   * queue's visibility timeout (seen under the sandbox's Meta latency, docs/PERFORMANCE.md 4e).
   */
  upstreamTimeoutMs?: number;
  /** Outcomes are written in batches of this many (or sooner, see flushIntervalMs). */
  outcomeBatchSize: number;
  flushIntervalMs: number;
  /** Held recipients of a paused job come back after this many seconds (an SQS delay: at most 900). */
  pauseRecheckSeconds: number;
  /** A pause lasting longer fails the job's remaining recipients TEMPLATE_PAUSED. */
  templatePauseTimeoutMs: number;
}

export interface ProcessChunkDependencies extends SendingPorts {
  senders: SenderDirectory;
  broadcasts: BroadcastRepository;
  upstream: CloudApiClient;
  queue: OutboundQueue;
  /** The template states recorded from Meta's events: a paused template holds the job. */
  templateStates: Pick<TemplateStates, 'stateOf'>;
  settings: ChunkWorkerSettings;
  /** Customer events (job.completed when this worker settles a job's last chunk); absent: none. */
  events?: JobCompletionPorts['events'];
  /** The process's estimate of a lane's busy time per send (shared by its invocations); absent: one per invocation from the prior. */
  latency?: SendLatencyEstimate;
}

/** After the last send returns: the outcome flush, the progress update and a continuation message. */
export const FINAL_FLUSH_ALLOWANCE_MS = 5_000;

/** The floor of the in-flight budget: a lead of lanes waiting for their slot absorbs a hold or a slow claim. */
export const DEFAULT_MIN_IN_FLIGHT = 16;

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

/** Meta's refusals of a template that is not sendable now: nothing was sent, and it may come back. */
const TEMPLATE_NOT_SENDABLE: ReadonlyMap<number, string> = new Map([
  [132015, 'TEMPLATE_PAUSED'],
  [132016, 'TEMPLATE_DISABLED'],
]);
/** Failure code of the recipients a pause that outlasted TEMPLATE_PAUSE_TIMEOUT_MINUTES leaves. */
export const TEMPLATE_PAUSED_FAILURE = 'TEMPLATE_PAUSED';
/** Meta's event times are whole seconds: an event up to a second before a time may be after it. */
const EVENT_TIME_RESOLUTION_MS = 1000;

/** Whether the worker goes on: the job cancelled, its template not sendable (with the pause reason), or go. */
export type JobGo = { kind: 'go' } | { kind: 'cancelled' } | { kind: 'paused'; reason: string };

interface JobControlView {
  go: JobGo;
  control: JobControl;
  /** The template's recorded state, when one is newer than the job. */
  templateState?: { status: string; at: number };
}

/**
 * The one job-control read: the job's cancellation and pause and its template's recorded state
 * (two consistent single-item reads in parallel). A recorded state counts when it is newer than the
 * job (the accept checked the template was APPROVED then); anything but APPROVED holds the job.
 */
async function readJobGo(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'templateStates'>,
  message: OutboundMessage,
  readTemplateState: () => Promise<TemplateState | undefined> = () => templateStateOf(dependencies, message),
): Promise<JobControlView> {
  const [stored, state] = await Promise.all([dependencies.broadcasts.readJobControl(message.jobId), readTemplateState()]);
  // A chunk whose job item is gone has nothing to be held by (the chunk item decides whether it runs).
  const control = stored ?? { cancelled: false, createdAt: new Date(0).toISOString() };
  const templateState = state && state.at.getTime() > Date.parse(control.createdAt) - EVENT_TIME_RESOLUTION_MS ? { status: state.status, at: state.at.getTime() } : undefined;
  const go: JobGo = control.cancelled
    ? { kind: 'cancelled' }
    : templateState && templateState.status !== 'APPROVED'
      ? { kind: 'paused', reason: `TEMPLATE_${templateState.status}` }
      : { kind: 'go' };
  return { go, control, ...(templateState ? { templateState } : {}) };
}

const templateStateOf = (dependencies: Pick<ProcessChunkDependencies, 'templateStates'>, message: OutboundMessage): Promise<TemplateState | undefined> =>
  message.kind === 'template-chunk' ? dependencies.templateStates.stateOf(message.wabaId, message.template.name, message.template.language) : Promise.resolve(undefined);

/**
 * How often a running worker re-reads its template's recorded state. Slower than the cancellation:
 * a pause is also seen at once from the first send Meta refuses (132015/132016), so this read only
 * spares the sends of a pause Meta announced before refusing; the job item is still read at the
 * cancellation's pace. Halves the worker's control reads (one store, many workers, locally).
 */
export const TEMPLATE_STATE_REFRESH_MS = 1_000;

/** The template state read at most every `refreshMs`, the last value reused in between. */
function cachedTemplateState(read: () => Promise<TemplateState | undefined>, clock: Clock, refreshMs = TEMPLATE_STATE_REFRESH_MS): () => Promise<TemplateState | undefined> {
  let readAtMs = Number.NEGATIVE_INFINITY;
  let last: Promise<TemplateState | undefined> | undefined;
  return () => {
    const now = clock.now().getTime();
    if (last === undefined || now - readAtMs >= refreshMs) {
      readAtMs = now;
      last = read();
    }
    return last;
  };
}

/**
 * The job's go, re-read at most every `refreshMs`; concurrent askers share one read. Cancelled is
 * final; so is a hold (a pause read, or one of this worker's sends refused with 132015/132016):
 * this invocation sends nothing more, the held rest is looked at again in a later message.
 */
class JobGoWatch {
  private current: JobGo;
  private readAtMs: number;
  private reading: Promise<JobGo> | undefined;

  constructor(
    private readonly read: () => Promise<JobGo>,
    private readonly clock: Clock,
    private readonly refreshMs: number,
    first: JobGo,
  ) {
    this.current = first;
    this.readAtMs = clock.now().getTime();
  }

  get latest(): JobGo {
    return this.current;
  }

  /** This worker's own evidence that the template is not sendable. */
  hold(reason: string): void {
    if (this.current.kind === 'go') this.current = { kind: 'paused', reason };
  }

  async goes(): Promise<boolean> {
    if (this.current.kind !== 'go' || this.clock.now().getTime() - this.readAtMs < this.refreshMs) return this.current.kind === 'go';
    this.reading ??= this.read()
      .then((go) => {
        // A hold or a cancellation seen meanwhile is not undone by a read.
        if (this.current.kind === 'go') this.current = go;
        this.readAtMs = this.clock.now().getTime();
        return this.current;
      })
      .finally(() => (this.reading = undefined));
    return (await this.reading).kind === 'go';
  }
}

export async function processOutboundChunk(
  dependencies: ProcessChunkDependencies,
  message: OutboundMessage,
  invocation: ChunkInvocation,
): Promise<ChunkReport> {
  const { broadcasts, clock, settings } = dependencies;
  const nothingYet = (): ChunkReport => ({ sent: 0, failed: 0, unknown: 0, skipped: 0, continued: 0, chunkDone: false });
  if (!(await broadcasts.markChunkStarted(message.jobId, message.chunkIndex, clock.now()))) {
    // The job was discarded when queueing its other chunks failed: nothing of it may be sent.
    return { sent: 0, failed: 0, unknown: 0, skipped: message.recipients.length, continued: 0, chunkDone: true };
  }
  const first = await readJobGo(dependencies, message);
  if (first.go.kind === 'cancelled') return settleCancelled(dependencies, message, nothingYet());
  if (first.go.kind === 'paused') return holdOrFail(dependencies, message, message.recipients, first.go.reason, nothingYet());
  // Paused before and sendable now: an APPROVED event after the pause ends it at once; without one
  // (the pause came from refused sends only) the first send Meta accepts ends it.
  let pauseToEnd = first.control.pause;
  const endPause = async (): Promise<void> => {
    const pause = pauseToEnd;
    pauseToEnd = undefined;
    if (pause) await broadcasts.resumeJob(message.jobId, pause.pausedAt);
  };
  if (pauseToEnd && first.templateState?.status === 'APPROVED' && first.templateState.at > Date.parse(pauseToEnd.pausedAt) - EVENT_TIME_RESOLUTION_MS) await endPause();

  const account = await dependencies.senders.accountOf(message.organizationId, message.wabaId);
  const latency = dependencies.latency ?? new SendLatencyEstimate(settings.latencyPriorMs);
  const bounds = { floor: settings.minInFlight ?? DEFAULT_MIN_IN_FLIGHT, cap: settings.maxInFlight };
  // Beyond the sends out, one rate-limit hold's worth of lanes waits with slots already reserved: a
  // 130429 hold moves the account's schedule, and only slots handed out before it keep the pace
  // through it (docs/PERFORMANCE.md section 4, Finding 1).
  const laneTimeMs = (): number => latency.meanMs + settings.rateLimitHoldMs;
  const lanesWanted = (): number => inFlightBudget(account.messagesPerSecond, laneTimeMs(), bounds);
  if (await accountBookedByOthers(dependencies, message.wabaId, laneTimeMs())) return deferToBusyAccount(dependencies, message, account.messagesPerSecond);
  const templateState = cachedTemplateState(() => templateStateOf(dependencies, message), clock);
  const watch = new JobGoWatch(
    async () => (await readJobGo(dependencies, message, templateState)).go,
    clock,
    cancellationRefreshMs(account.messagesPerSecond, lanesWanted()),
    first.go,
  );
  const session = openSendSession(dependencies, { accountKey: message.wabaId, messagesPerSecond: account.messagesPerSecond }, settings, chunkWorkerBudget(settings));
  const outcomes = new ChunkOutcomes(broadcasts, message, settings, clock);
  const marginMs = settings.upstreamTimeoutMs === undefined ? settings.safetyMarginMs : Math.max(settings.safetyMarginMs, settings.upstreamTimeoutMs + FINAL_FLUSH_ALLOWANCE_MS);
  const budgetEnd = (): number => clock.now().getTime() + invocation.remainingTimeMs() - marginMs;
  /** Claimed, then not sent because the template is not sendable: released, sent after the resume. */
  const held: ChunkRecipient[] = [];
  const release = async (recipient: ChunkRecipient): Promise<void> => {
    await broadcasts.releaseClaim(message.jobId, message.chunkIndex, recipient[0]);
    held.push(recipient);
  };

  const pending = [...message.recipients];
  /** Claimed, refused, out of time for a retry: released, and back among the recipients the continuation takes. */
  const continueLater = async (recipient: ChunkRecipient): Promise<void> => {
    await broadcasts.releaseClaim(message.jobId, message.chunkIndex, recipient[0]);
    pending.push(recipient);
  };

  const sendTo = async (recipient: ChunkRecipient, firstSlot: number): Promise<void> => {
    // The lane is busy from its slot, or from now when it is late: then the claim counts too.
    const busyFrom = Math.max(firstSlot, clock.now().getTime());
    if (!(await claim(dependencies, message, recipient, outcomes, () => session.slots.giveBack(firstSlot)))) return;
    const body = messageBodyFor(message, recipient);
    const dispatched = await dispatchSend(session, {
      firstSlot,
      startsInTime: (slot) => slot < budgetEnd(),
      send: () => dependencies.upstream.sendMessage(message.phoneNumberId, body, { accessToken: account.accessToken }),
      stillWanted: () => watch.goes(),
    });
    if (dispatched.kind !== 'withdrawn') latency.observe(clock.now().getTime() - busyFrom);
    const notSendable = dispatched.kind === 'failed' ? TEMPLATE_NOT_SENDABLE.get(dispatched.rejection.error.code) : undefined;
    if (notSendable !== undefined) {
      watch.hold(notSendable);
      return release(recipient);
    }
    // Withdrawn at its slot because the job is held (not cancelled): released like a refused one.
    if (dispatched.kind === 'withdrawn' && watch.latest.kind === 'paused') return release(recipient);
    // Refused with a retryable error (a 130429 near the end, most often) and no time left for the
    // retry: definitely not sent, so it goes on in the continuation message instead of failing.
    if (dispatched.kind === 'failed' && dispatched.outOfTime) return continueLater(recipient);
    outcomes.record(ledgerEntryOf(recipient, dispatched, clock.now()));
    if (dispatched.kind === 'sent' && pauseToEnd) await endPause();
  };

  await runLanes(session, lanesWanted, pending, budgetEnd, outcomes, sendTo, () => watch.goes());
  if (session.hold.count > 0) outcomes.report.rateLimitHolds = session.hold.count;
  await outcomes.flush();
  if (outcomes.failure !== undefined) {
    // Released recipients go back to the message's own retry (the ledger lets them be claimed again).
    throw outcomes.failure;
  }
  const go = watch.latest;
  const rest = [...held, ...pending].sort((a, b) => a[0] - b[0]);
  if (rest.length > 0 && go.kind === 'cancelled') return settleCancelled(dependencies, { ...message, recipients: rest }, outcomes.report);
  if (rest.length > 0 && go.kind === 'paused') return holdOrFail(dependencies, message, rest, go.reason, outcomes.report);
  return settleChunk(dependencies, message, pending, outcomes.report);
}

/**
 * Whether other workers already keep the account's schedule booked further ahead than a lane's
 * time (a send's round trip plus one rate-limit hold). Their lanes then cover the whole in-flight
 * budget (Little's law: sends waiting = booked time x rate), so this worker's lanes would only wait
 * for slots, holding a concurrency slot of the queue's event source that a chunk of another account
 * could use: with 20 concurrent invocations, four 80/s accounts' 40 chunks ran as two accounts at a
 * time (docs/PERFORMANCE.md 4e). A rate-limit hold alone (at most `rateLimitHoldMs`) never counts.
 */
async function accountBookedByOthers(dependencies: Pick<ProcessChunkDependencies, 'pacer' | 'clock'>, accountKey: string, laneTimeMs: number): Promise<boolean> {
  const bookedUntil = await dependencies.pacer.bookedUntil(accountKey);
  return bookedUntil !== undefined && bookedUntil - dependencies.clock.now().getTime() > laneTimeMs;
}

/** The longest a chunk waits for its busy account before looking again (an SQS delay: at most 900 s). */
export const BUSY_ACCOUNT_MAX_DELAY_SECONDS = 60;

/**
 * The account is busy with other workers: the whole message is queued again (a new message, not a
 * redelivery, so it never counts toward the dead-letter queue), delayed by about the time one
 * chunk of it takes at the account's rate (13 s at 80/s, 1 s at 1,000/s): by then a running chunk
 * may have finished. Nothing was claimed, so nothing else changes.
 */
async function deferToBusyAccount(dependencies: Pick<ProcessChunkDependencies, 'queue'>, message: OutboundMessage, messagesPerSecond: number): Promise<ChunkReport> {
  const delaySeconds = Math.max(1, Math.min(BUSY_ACCOUNT_MAX_DELAY_SECONDS, Math.ceil(message.recipients.length / Math.max(1, messagesPerSecond))));
  await dependencies.queue.enqueue([message], { delaySeconds });
  return { sent: 0, failed: 0, unknown: 0, skipped: 0, continued: 0, deferred: message.recipients.length, chunkDone: false };
}

/**
 * The job's template is not sendable: the job is marked paused (the first pauser's time, reason and
 * deadline stay) and `rest` is re-queued, delayed until the next look (or the deadline, if sooner).
 * Past the deadline the rest is claimed as FAILED `TEMPLATE_PAUSED` instead and the chunk settles.
 */
async function holdOrFail(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'queue' | 'events' | 'settings'>,
  message: OutboundMessage,
  rest: readonly ChunkRecipient[],
  reason: string,
  report: ChunkReport,
): Promise<ChunkReport> {
  const { broadcasts, clock, settings } = dependencies;
  const now = clock.now();
  const proposed: JobPause = { pausedAt: now.toISOString(), reason, failsAt: new Date(now.getTime() + settings.templatePauseTimeoutMs).toISOString() };
  const pause = (await broadcasts.pauseJob(message.jobId, proposed)) ?? proposed;
  const untilDeadlineMs = Date.parse(pause.failsAt) - now.getTime();
  if (untilDeadlineMs <= 0) return settleWithClaims(dependencies, { ...message, recipients: [...rest] }, report, { status: 'FAILED', failureReasonCode: TEMPLATE_PAUSED_FAILURE });
  const delaySeconds = Math.max(1, Math.min(settings.pauseRecheckSeconds, Math.ceil(untilDeadlineMs / 1000)));
  await dependencies.queue.enqueue([{ ...message, recipients: [...rest] }], { delaySeconds });
  report.held = rest.length;
  return report;
}

/** Lanes started at once; then each finished send starts at most LANES_ADDED_PER_SEND more (a slow start). */
const FIRST_LANES = 16;
const LANES_ADDED_PER_SEND = 2;

/**
 * Lanes take recipients while their send can still start within the budget. How many run follows
 * `lanesWanted` (the in-flight budget, which moves with the observed latency): FIRST_LANES start,
 * then after each send a lane starts up to LANES_ADDED_PER_SEND more up to the budget (so the
 * lanes double per round trip instead of claiming hundreds of recipients in one burst against
 * the store), and a lane beyond the budget stops before taking another recipient.
 * The slot comes before the claim: with other workers sharing the account it can be far ahead,
 * and a recipient is only claimed when its send can still start in time. The first failure stops
 * every lane.
 */
async function runLanes(
  session: SendSession,
  lanesWanted: () => number,
  pending: ChunkRecipient[],
  budgetEnd: () => number,
  outcomes: ChunkOutcomes,
  sendTo: (recipient: ChunkRecipient, firstSlot: number) => Promise<void>,
  goes: () => Promise<boolean>,
): Promise<void> {
  const { slots } = session;
  const hasTimeFor = (): boolean => slots.peek() < budgetEnd();
  const running = new Set<Promise<void>>();
  // Counted synchronously (a lane's loop test and its exit run in one step), so lanes over the budget stop one by one.
  let active = 0;
  const grow = (most: number): void => {
    if (outcomes.failure !== undefined) return;
    // Counted once: a lane that finds nothing to do ends at once and must not be replaced in a loop.
    for (let missing = Math.min(lanesWanted(), pending.length, active + most) - active; missing > 0; missing -= 1) {
      const started = lane().finally(() => running.delete(started));
      running.add(started);
    }
  };
  const lane = async (): Promise<void> => {
    active += 1;
    try {
      while (outcomes.failure === undefined && pending.length > 0 && hasTimeFor() && active <= lanesWanted()) {
        try {
          const slot = await slots.take();
          // Asked after the wait for a slot, right before the claim and the send.
          const recipient = outcomes.failure === undefined && slot < budgetEnd() && (await goes()) ? pending.shift() : undefined;
          if (!recipient) {
            slots.giveBack(slot);
            break;
          }
          await sendTo(recipient, slot);
          grow(LANES_ADDED_PER_SEND);
        } catch (error) {
          outcomes.fail(error);
        }
      }
    } finally {
      active -= 1;
    }
  };
  grow(FIRST_LANES);
  while (running.size > 0) await Promise.all([...running]);
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

/** Claims written at once when a cancellation or a timed-out pause settles a chunk (up to 1,000 recipients). */
const SETTLE_CLAIM_CONCURRENCY = 16;

/**
 * The job was cancelled: every recipient of `message` nobody claimed yet is claimed as CANCELLED
 * (never sent; a claim someone holds stays theirs, a crashed one becomes UNKNOWN as always), and the
 * chunk is reconciled, so the job finishes.
 */
function settleCancelled(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'events'>,
  message: OutboundMessage,
  report: ChunkReport,
): Promise<ChunkReport> {
  return settleWithClaims(dependencies, message, report, 'CANCELLED');
}

/**
 * Every recipient of `message` nobody claimed yet is claimed directly in its final state (CANCELLED,
 * or FAILED with a reason: never sent, never charged; written final at once, so a settling retried
 * after a store fault finds finished entries, never claims it would take for a crashed send's), a
 * crashed claim becomes UNKNOWN, and the chunk is reconciled.
 */
async function settleWithClaims(
  dependencies: Pick<ProcessChunkDependencies, 'broadcasts' | 'clock' | 'events'>,
  message: OutboundMessage,
  report: ChunkReport,
  as: Exclude<ClaimState, 'SENDING'>,
): Promise<ChunkReport> {
  const { broadcasts, clock } = dependencies;
  const { jobId, chunkIndex } = message;
  const settled: LedgerEntry[] = [];
  const remaining = [...message.recipients];
  const entryOf = (index: number, to: string): LedgerEntry => {
    const base = { index, to, attempts: 0, updatedAt: clock.now().toISOString() };
    return as === 'CANCELLED' ? { ...base, status: 'CANCELLED' } : { ...base, status: 'FAILED', failureReasonCode: as.failureReasonCode };
  };
  const claimNext = async (): Promise<void> => {
    for (let recipient = remaining.shift(); recipient; recipient = remaining.shift()) {
      const [index, to] = recipient;
      const claim = await broadcasts.claimRecipient(jobId, chunkIndex, index, to, clock.now(), as);
      if (claim.claimed) settled.push(entryOf(index, to));
      else if (await resolveStaleClaim(dependencies, message, index, claim.existing)) report.unknown += 1;
      else report.skipped += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(SETTLE_CLAIM_CONCURRENCY, remaining.length) }, claimNext));
  if (settled.length > 0) await broadcasts.recordSettled(jobId, settled.sort((a, b) => a.index - b.index));
  if (as === 'CANCELLED') {
    report.cancelled = (report.cancelled ?? 0) + settled.length;
  } else if (settled.length > 0) {
    // Failures count in the chunk's live counters too (cancellations are counted by the tally only).
    const delta = emptyDelta();
    for (const entry of settled) countFailure(delta, entry.failureReasonCode);
    await broadcasts.addChunkProgress(jobId, chunkIndex, delta);
    report.failed += settled.length;
  }
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
