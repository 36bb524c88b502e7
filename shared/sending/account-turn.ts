/**
 * An account's turn: which chunk sends for a business account now. Chunks of one account that reach
 * workers together would otherwise all start (each sees an empty schedule), share the account's rate
 * and hold one of the queue's concurrent invocations each for the whole of their slower run: four
 * 80/s accounts' 40 chunks then ran as two accounts at a time, and a fifth organization's single
 * message waited for a free invocation (docs/PERFORMANCE.md 4e, 4i). With turns, one chunk per
 * account sends while the others wait in the queue, and the next one starts as the turn ends.
 *
 * The rule lives here once; the pacer adapters apply it atomically on the account's pacer record
 * (DynamoDbSendPacer as one conditional update), and the fakes call `turnGranted` itself.
 */

/** The turn as stored on the account's pacer record. */
export interface AccountTurn {
  /** The chunk holding it (`<jobId>#<chunkIndex>`): its own continuation takes it again. */
  owner: string;
  startedAt: number;
  /** When the holder expects to have sent its recipients (epoch ms). */
  until: number;
}

export interface AccountTurnRequest {
  owner: string;
  nowMs: number;
  /** When this chunk expects to have sent everything: its recipients at the account's rate, within its invocation. */
  untilMs: number;
  /** The next chunk may start this long before the turn ends, while the holder's last sends drain (a lane's time). */
  overlapMs: number;
  /**
   * A turn this young is left alone. After it, another chunk joins when the schedule has gaps
   * (its next free slot is already past): the holder does not keep up with the account's rate alone.
   */
  rampMs: number;
  /** Without a turn, a schedule booked further ahead than this is busy with other senders (/upstream bulk sends). */
  laneMs: number;
}

export type TurnAnswer = { granted: true } | { granted: false; turn?: AccountTurn; bookedUntil?: number };

/**
 * Whether `request` gets the account's turn, given the pacer record's turn and next free slot.
 *
 * @example
 * turnGranted({}, request); // true: an idle account
 * turnGranted({ turn: { owner: 'job#1', startedAt: now - 100, until: now + 12_000 } }, { ...request, owner: 'job#2' }); // false: job#1 sends
 */
export function turnGranted(state: { turn?: AccountTurn; nextFreeAt?: number }, request: AccountTurnRequest): boolean {
  const { turn, nextFreeAt } = state;
  if (turn?.owner === request.owner) return true;
  const turnLive = turn !== undefined && turn.until > request.nowMs + request.overlapMs;
  if (!turnLive) return nextFreeAt === undefined || nextFreeAt <= request.nowMs + request.laneMs;
  return turn.startedAt <= request.nowMs - request.rampMs && (nextFreeAt === undefined || nextFreeAt <= request.nowMs);
}

/**
 * When a refused chunk should look again (epoch ms), or undefined when no turn explains the refusal
 * (other senders keep the schedule busy: the caller's own rule applies). A young turn is looked at
 * again once it has ramped up (another chunk may join it), an established one as it ends, and one
 * that has ended as the holder's last booked slots come within a lane's time.
 *
 * @example
 * nextLookAt({ granted: false, turn: { owner: 'job#1', startedAt: now, until: now + 12_500 } }, request); // now + rampMs
 */
export function nextLookAt(answer: Extract<TurnAnswer, { granted: false }>, request: AccountTurnRequest): number | undefined {
  const { turn } = answer;
  if (turn === undefined) return undefined;
  if (turn.until <= request.nowMs + request.overlapMs) return Math.max(request.nowMs, (answer.bookedUntil ?? request.nowMs) - request.laneMs);
  const ending = turn.until - request.overlapMs;
  const ramped = turn.startedAt + request.rampMs;
  return ramped > request.nowMs ? Math.min(ending, ramped) : ending;
}
