/**
 * The chunk worker's pacing decisions: how many lanes it runs (the in-flight budget from the
 * account's rate and the observed send latency), until when it may start sends (the invocation's
 * time budget), and whether it yields to a business account other workers already keep busy.
 * The pace itself (slots, holds, backoff) is the sending engine's (shared/sending).
 */
import type { OutboundMessage } from '../chunk-message';
import type { ChunkReport } from '../chunk-outcomes';
import { inFlightBudget, SendLatencyEstimate } from '../../sending/in-flight-budget';
import type { ChunkInvocation, ChunkWorkerSettings, ProcessChunkDependencies } from './chunk-worker-dependencies';

/** After the last send returns: the outcome flush, the progress update and a continuation message. */
export const FINAL_FLUSH_ALLOWANCE_MS = 5_000;

/** The floor of the in-flight budget: a lead of lanes waiting for their slot absorbs a hold or a slow claim. */
export const DEFAULT_MIN_IN_FLIGHT = 16;

/** The longest a chunk waits for its busy account before looking again (an SQS delay: at most 900 s). */
export const BUSY_ACCOUNT_MAX_DELAY_SECONDS = 60;

/** How many lanes the worker wants, as the observed latency moves. */
export class LanePacing {
  readonly latency: SendLatencyEstimate;
  private readonly bounds: { floor: number; cap: number };

  constructor(
    dependencies: Pick<ProcessChunkDependencies, 'latency'>,
    private readonly settings: ChunkWorkerSettings,
    readonly messagesPerSecond: number,
  ) {
    this.latency = dependencies.latency ?? new SendLatencyEstimate(settings.latencyPriorMs);
    this.bounds = { floor: settings.minInFlight ?? DEFAULT_MIN_IN_FLIGHT, cap: settings.maxInFlight };
  }

  /**
   * A lane's time per send. Beyond the sends out, one rate-limit hold's worth of lanes waits with
   * slots already reserved: a 130429 hold moves the account's schedule, and only slots handed out
   * before it keep the pace through it (docs/PERFORMANCE.md section 4, Finding 1).
   */
  laneTimeMs(): number {
    return this.latency.meanMs + this.settings.rateLimitHoldMs;
  }

  lanesWanted(): number {
    return inFlightBudget(this.messagesPerSecond, this.laneTimeMs(), this.bounds);
  }
}

/**
 * The epoch ms after which the worker starts no send: the invocation's end less a margin of at
 * least one whole upstream timeout and the final flush (the last send it starts may take that long).
 */
export function budgetEndOf(settings: ChunkWorkerSettings, clock: ProcessChunkDependencies['clock'], invocation: ChunkInvocation): () => number {
  const marginMs = settings.upstreamTimeoutMs === undefined ? settings.safetyMarginMs : Math.max(settings.safetyMarginMs, settings.upstreamTimeoutMs + FINAL_FLUSH_ALLOWANCE_MS);
  return () => clock.now().getTime() + invocation.remainingTimeMs() - marginMs;
}

/**
 * Whether other workers already keep the account's schedule booked further ahead than a lane's
 * time (a send's round trip plus one rate-limit hold). Their lanes then cover the whole in-flight
 * budget (Little's law: sends waiting = booked time x rate), so this worker's lanes would only wait
 * for slots, holding a concurrency slot of the queue's event source that a chunk of another account
 * could use: with 20 concurrent invocations, four 80/s accounts' 40 chunks ran as two accounts at a
 * time (docs/PERFORMANCE.md 4e). A rate-limit hold alone (at most `rateLimitHoldMs`) never counts.
 */
export async function accountBookedByOthers(dependencies: Pick<ProcessChunkDependencies, 'pacer' | 'clock'>, accountKey: string, laneTimeMs: number): Promise<boolean> {
  const bookedUntil = await dependencies.pacer.bookedUntil(accountKey);
  return bookedUntil !== undefined && bookedUntil - dependencies.clock.now().getTime() > laneTimeMs;
}

/**
 * The account is busy with other workers: the whole message is queued again (a new message, not a
 * redelivery, so it never counts toward the dead-letter queue), delayed by about the time one
 * chunk of it takes at the account's rate (13 s at 80/s, 1 s at 1,000/s): by then a running chunk
 * may have finished. Nothing was claimed, so nothing else changes.
 */
export async function deferToBusyAccount(dependencies: Pick<ProcessChunkDependencies, 'queue'>, message: OutboundMessage, messagesPerSecond: number): Promise<ChunkReport> {
  const delaySeconds = Math.max(1, Math.min(BUSY_ACCOUNT_MAX_DELAY_SECONDS, Math.ceil(message.recipients.length / Math.max(1, messagesPerSecond))));
  await dependencies.queue.enqueue([message], { delaySeconds });
  return { sent: 0, failed: 0, unknown: 0, skipped: 0, continued: 0, deferred: message.recipients.length, chunkDone: false };
}
