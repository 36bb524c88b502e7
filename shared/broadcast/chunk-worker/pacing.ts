/**
 * The chunk worker's pacing decisions: how many lanes it runs (the in-flight budget from the
 * account's rate and the observed send latency), until when it may start sends (the invocation's
 * time budget), and whether it takes the account's turn or yields to the chunk that has it.
 * The pace itself (slots, holds, backoff) is the sending engine's (shared/sending).
 */
import type { OutboundMessage } from '../chunk-message';
import type { ChunkReport } from '../chunk-outcomes';
import { nextLookAt } from '../../sending/account-turn';
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
  const marginMs =
    settings.upstreamTimeoutMs === undefined
      ? settings.safetyMarginMs
      : Math.max(settings.safetyMarginMs, settings.upstreamTimeoutMs + FINAL_FLUSH_ALLOWANCE_MS);
  return () => clock.now().getTime() + invocation.remainingTimeMs() - marginMs;
}

/**
 * Takes the account's turn for this chunk (shared/sending/account-turn.ts): undefined when it may
 * send, else the seconds to wait before it looks again. Its turn ends when its recipients would be
 * sent at the account's rate, or with its invocation; the next chunk may start a lane's time early,
 * and joins after two lane times when the holder leaves gaps in the schedule. Without a live turn,
 * a schedule booked further ahead than a lane's time (other senders) defers by one chunk's time.
 * A chunk whose sends fit in a lane's time takes no turn. A rate-limit hold alone (at most
 * `rateLimitHoldMs`) never counts.
 */
export async function takeAccountTurn(
  dependencies: Pick<ProcessChunkDependencies, 'pacer' | 'clock'>,
  message: Pick<OutboundMessage, 'jobId' | 'chunkIndex' | 'wabaId' | 'recipients'>,
  pacing: Pick<LanePacing, 'laneTimeMs' | 'messagesPerSecond'>,
  invocation: ChunkInvocation,
): Promise<number | undefined> {
  const nowMs = dependencies.clock.now().getTime();
  const laneMs = pacing.laneTimeMs();
  const sendingMs = (message.recipients.length * 1000) / Math.max(1, pacing.messagesPerSecond);
  // A chunk sent within a lane's time (a single message, a small send-bulk) holds an invocation
  // only briefly and takes a few of the account's slots: it never waits for a running campaign's turn.
  if (sendingMs < laneMs) return undefined;
  const request = {
    owner: `${message.jobId}#${message.chunkIndex}`,
    nowMs,
    untilMs: nowMs + Math.min(sendingMs, invocation.remainingTimeMs()),
    overlapMs: laneMs,
    rampMs: 2 * laneMs,
    laneMs,
  };
  const answer = await dependencies.pacer.takeTurn(message.wabaId, request);
  if (answer.granted) return undefined;
  const lookAt = nextLookAt(answer, request);
  const seconds = lookAt === undefined ? Math.ceil(sendingMs / 1000) : Math.ceil((lookAt - nowMs) / 1000);
  return Math.max(1, Math.min(BUSY_ACCOUNT_MAX_DELAY_SECONDS, seconds));
}

/**
 * Another chunk has the account's turn: the whole message is queued again (a new message, not a
 * redelivery, so it never counts toward the dead-letter queue), delayed until it should look again
 * (`takeAccountTurn`). Nothing was claimed, so nothing else changes.
 */
export async function deferToBusyAccount(
  dependencies: Pick<ProcessChunkDependencies, 'queue'>,
  message: OutboundMessage,
  delaySeconds: number,
): Promise<ChunkReport> {
  await dependencies.queue.enqueue([message], { delaySeconds });
  return { sent: 0, failed: 0, unknown: 0, skipped: 0, continued: 0, deferred: message.recipients.length, chunkDone: false };
}
