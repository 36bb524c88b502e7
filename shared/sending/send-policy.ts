/**
 * The sending policy, in one place: how long a business account pauses after a rate-limit answer,
 * how retries back off, how many attempts a recipient gets and how many slots one pacer
 * reservation takes. The chunk worker and the /upstream bulk send both follow it (through
 * dispatchSend), so a change of pacing or backoff is a change of this file, plus
 * shared/config/app-config.ts when it needs a new setting. Which answers may be retried at all is
 * the classifier's (graph-answer.ts, with the codes in failure-reasons.ts).
 */
import { isRateLimitRejection } from './graph-answer';
import type { SendOutcome, Rejection } from './ports';

/** The configurable part (environment: WORKER_MAX_ATTEMPTS, WORKER_BACKOFF_*, WORKER_RATE_LIMIT_HOLD_MS). */
export interface SendPolicySettings {
  /** Attempts per recipient for retryable rejections (rate limits, transient errors). */
  maxAttempts: number;
  backoff: BackoffSettings;
  /** The longest account-wide pause after a rate-limit answer (the pause of a storm). */
  rateLimitHoldMs: number;
}

/* --------------------------------------------------------------- budgets */

export interface AttemptBudget {
  maxAttempts: number;
  /** Rate-limit answers get this many times `maxAttempts`. */
  rateLimitFactor: number;
}

/**
 * The chunk worker: a rate-limit answer means "not sent", so a retry is safe and a storm can
 * outlast six tries; rate-limit answers get three times the attempts of other errors. The
 * invocation's time budget still bounds them.
 */
export const chunkWorkerBudget = (settings: SendPolicySettings): AttemptBudget => ({ maxAttempts: settings.maxAttempts, rateLimitFactor: 3 });

/** The /upstream bulk send answers its caller within 29 s: a storm is reported back (failed, retry later) after `maxAttempts`. */
export const bulkSendBudget = (settings: SendPolicySettings): AttemptBudget => ({ maxAttempts: settings.maxAttempts, rateLimitFactor: 1 });

export const attemptsAllowed = (budget: AttemptBudget, rateLimited: boolean): number =>
  rateLimited ? budget.maxAttempts * budget.rateLimitFactor : budget.maxAttempts;

/** What a send's outcome means for the recipient. */
export type Verdict<O extends SendOutcome = SendOutcome> =
  | { kind: 'sent'; messageId: string; held?: true }
  /** Definitely not sent, and not to be tried again (not retryable, or out of attempts). */
  | { kind: 'failed'; rejection: Rejection }
  /** May have been sent: never tried again, so nobody gets a message twice. */
  | { kind: 'unknown'; outcome: Extract<O, { kind: 'unknown' }> }
  /** Not sent and worth another attempt (after a backoff; a rate-limit answer also holds the account). */
  | { kind: 'retry'; rejection: Rejection; rateLimited: boolean };

export function classifyOutcome<O extends SendOutcome>(outcome: O, attempt: number, budget: AttemptBudget): Verdict<O> {
  if (outcome.kind === 'accepted') return { kind: 'sent', messageId: outcome.messageId, ...(outcome.held ? { held: true as const } : {}) };
  if (outcome.kind === 'unknown') return { kind: 'unknown', outcome: outcome as Extract<O, { kind: 'unknown' }> };
  const rejection = outcome as Rejection;
  const rateLimited = isRateLimitRejection(rejection.httpStatus, rejection.error.code);
  if (rejection.retryable && attempt < attemptsAllowed(budget, rateLimited)) return { kind: 'retry', rejection, rateLimited };
  return { kind: 'failed', rejection };
}

/* --------------------------------------------------------------- backoff */

/**
 * Exponential backoff with full jitter (the AWS Architecture Blog's recommendation): spreads
 * retries of many senders hit by the same rate limit. Hand-written rather than p-retry because
 * the retry decision depends on the send's classified outcome and feeds the shared pacer.
 */
export interface BackoffSettings {
  baseMs: number;
  maxMs: number;
}

export const fullJitterDelay = (attempt: number, settings: BackoffSettings, random: () => number): number =>
  Math.floor(random() * Math.min(settings.maxMs, settings.baseMs * 2 ** Math.max(0, attempt - 1)));

/* ---------------------------------------------------------------- pacing */

/**
 * Sends are scheduled 2 % under the account's throughput. Meta counts arrivals in any second: at
 * exactly 80/s, one send leaving a few milliseconds late while the 80th after it leaves on time
 * puts 81 arrivals into one second, a 130429 that costs the slot, a hold and a retry. At 98 % each
 * second-long window of 80 (or 1,000) slots spans 1,020 ms, so arrival jitter up to 20 ms is
 * absorbed at any rate. Measured: four 80/s accounts sharing one local thread (docs/PERFORMANCE.md 4e).
 */
export const PACING_HEADROOM = 0.02;

/** The rate slots are handed out at for an account of `messagesPerSecond` throughput. */
export const pacedRate = (messagesPerSecond: number): number => messagesPerSecond * (1 - PACING_HEADROOM);

/** Slots per pacer reservation: about 100 ms of sends, so few pacer writes and little unused time when a sender stops. */
export const slotBlockSize = (ratePerSecond: number): number => Math.max(1, Math.min(200, Math.ceil(ratePerSecond / 10)));

/**
 * The account-wide pause after a rate-limit answer: an isolated one (arrival jitter at the limit,
 * expected at high rates) for about ten send intervals (at least 20 ms), a run of them (a storm:
 * the account's pace is above what Meta grants) twice as long each time, up to `maxMs`. An
 * accepted send ends the run.
 */
export class RateLimitHold {
  private streak = 0;
  /** Holds put on the account so far (the chunk worker reports them; the Lambda publishes the metric). */
  private holds = 0;
  private readonly baseMs: number;

  constructor(
    ratePerSecond: number,
    private readonly maxMs: number,
  ) {
    this.baseMs = Math.max(20, 10_000 / ratePerSecond);
  }

  /** The pause for this rate-limit answer. */
  next(): number {
    this.holds += 1;
    return Math.min(this.maxMs, this.baseMs * 2 ** this.streak++);
  }

  reset(): void {
    this.streak = 0;
  }

  get count(): number {
    return this.holds;
  }
}
