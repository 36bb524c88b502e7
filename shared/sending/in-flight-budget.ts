/**
 * How many sends one worker keeps in flight (its lanes), from Little's law: to start `rate` sends
 * a second when each keeps a lane busy for W seconds, L = rate x W lanes must be busy on average.
 * The number busy at any moment scatters around L (each recent send is still out or not, roughly
 * a Poisson count), so the budget adds three standard deviations: lanes = L + 3 * sqrt(L). Then a
 * floor (a lead of waiting lanes keeps a rate-limit hold or a slow store call from costing sends)
 * and a cap (each lane holds a socket: Lambda allows 1,024 file descriptors per sandbox) bound it.
 *
 * W is observed, not configured: a per-process moving average of how long a lane is busy per
 * recipient from its slot on (the upstream call, plus any part of the claim its lead did not
 * hide, plus retries), starting from a prior until sends report back. Timed-out sends count with
 * their whole timeout, which is exactly the time they keep a lane.
 *
 * The chunk worker adds one rate-limit hold (WORKER_RATE_LIMIT_HOLD_MS, 1 s) to W: lanes waiting
 * with slots reserved before a 130429 hold keep the account's pace through it. Without that lead a
 * fast upstream shrank the lanes to the floor and four 80/s accounts fell from 95 % to 72 %
 * (docs/PERFORMANCE.md 4e).
 *
 * docs/BROADCAST.md "In-flight sends" and docs/PERFORMANCE.md section 4e explain the rule.
 */

export interface InFlightBounds {
  /** At least this many lanes, whatever the estimate. */
  floor: number;
  /** At most this many (memory, sockets). Wins over the floor. */
  cap: number;
}

/** Lanes for `messagesPerSecond` sends a second each busy `busyMs` on average: clamp(ceil(L + 3 sqrt(L)), floor, cap), L = rate x W. */
export function inFlightBudget(messagesPerSecond: number, busyMs: number, bounds: InFlightBounds): number {
  const inFlight = (Math.max(0, messagesPerSecond) * Math.max(0, busyMs)) / 1000;
  const withTail = Math.ceil(inFlight + 3 * Math.sqrt(inFlight));
  return Math.max(1, Math.min(bounds.cap, Math.max(bounds.floor, withTail)));
}

/** A prior above Meta's usual 100-500 ms: a cold worker starts with lanes to spare, and sheds them as sends report back. */
export const DEFAULT_LATENCY_PRIOR_MS = 500;
/** Weight of one observation: about the last 64 sends count (under a second at 80/s, 64 ms at 1,000/s). */
export const LATENCY_SAMPLE_WEIGHT = 1 / 64;

/**
 * The moving average of a lane's busy time per send (an exponentially weighted mean). One per
 * process: a warm worker starts its next chunk from what the last one saw.
 */
export class SendLatencyEstimate {
  private mean: number;
  private samples = 0;

  constructor(
    priorMs: number = DEFAULT_LATENCY_PRIOR_MS,
    private readonly weight: number = LATENCY_SAMPLE_WEIGHT,
  ) {
    this.mean = priorMs;
  }

  observe(busyMs: number): void {
    if (!Number.isFinite(busyMs) || busyMs < 0) return;
    this.samples += 1;
    this.mean += this.weight * (busyMs - this.mean);
  }

  get meanMs(): number {
    return this.mean;
  }

  get observed(): number {
    return this.samples;
  }
}
