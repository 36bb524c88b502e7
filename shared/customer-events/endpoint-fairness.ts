/**
 * Each endpoint's fair share of the dispatcher (docs/CUSTOMER-WEBHOOKS.md "Fairness"): what an
 * endpoint's health allows the next group of its deliveries. Pure; the dispatcher reads the health,
 * asks here and acts.
 *
 * What one dead endpoint can cost everyone is an invocation of the dispatcher held for a call's
 * timeout, so the rules bound exactly that: at most `concurrency` invocations deliver to one
 * endpoint at once (one while it fails), an endpoint whose last call timed out gets the short
 * timeout, and after `breakerThreshold` failed calls in a row the endpoint is not called at all
 * until its breaker's time is over; its deliveries wait in the queue meanwhile, without using their
 * attempts, and one probe decides whether the endpoint is back. A slow endpoint that succeeds costs
 * the same held time as a dead one, so its slots follow its time held (time-held-share.ts), and
 * each organization's groups are capped together (organization-share.ts).
 */
import type { EndpointHealth } from './delivery-ports';
import { MAX_SQS_DELAY_SECONDS, type EndpointFairnessSettings } from './retry-schedule';
import { expectedHoldMs, slotsByTimeHeld } from './time-held-share';

/** A lease outlives its calls by this much: the registry read, the re-queues and the health writes. */
export const LEASE_MARGIN_MS = 5_000;
/**
 * A call in flight for longer than this (half the normal timeout) is slow: its endpoint gets no
 * burst slot, and if it never answered lately, a busy group waits for that call's lease to end.
 */
export const SLOW_LEASE_MS = 5_000;
/** An endpoint that succeeded within this time (and has not failed since) answers: it may use its burst slots (as its time held allows) and a busy group of it is re-queued only briefly. */
export const PROVEN_WITHIN_MS = 60_000;
/** A success is written again only when the last one recorded is older than this (one write per endpoint every few seconds, not per group). */
export const SUCCESS_REFRESH_MS = 10_000;

export type Admission =
  /** The breaker is open: no call before `reopensAtMs`. */
  | { kind: 'open'; reopensAtMs: number }
  /**
   * Calls allowed under one of `slots` leases, each `timeoutMs` long. `probeFirst`: the endpoint
   * failed lately, so one delivery goes first and the others only when it succeeds.
   */
  | { kind: 'admit'; slots: number; timeoutMs: number; probeFirst: boolean; leaseMs: number };

/**
 * What a group of deliveries to this endpoint may do now.
 *
 * @example
 * admissionOf({ consecutiveFailures: 0, lastFailureTimedOut: false, opens: 0, leases: [] }, Date.now(), settings, 10_000)
 * // → { kind: 'admit', slots: settings.concurrency, timeoutMs: 10_000, probeFirst: false, leaseMs: 15_000 }
 * // (an endpoint that answered lately: concurrency + burstConcurrency slots, fewer as its time held grows)
 */
export function admissionOf(health: EndpointHealth, nowMs: number, settings: EndpointFairnessSettings, timeoutMs: number): Admission {
  if (health.openUntilMs !== undefined && health.openUntilMs > nowMs) return { kind: 'open', reopensAtMs: health.openUntilMs };
  const failing = health.consecutiveFailures > 0;
  // Success with no slow call in flight earns the burst slots; the time held decides how many are granted.
  const ceiling = settings.concurrency + (answersLately(health, nowMs) && !hasSlowCall(health, nowMs) ? settings.burstConcurrency : 0);
  const slots = failing ? 1 : slotsByTimeHeld(health, nowMs, settings, ceiling);
  const callTimeoutMs = failing && health.lastFailureTimedOut ? Math.min(settings.failingTimeoutMs, timeoutMs) : timeoutMs;
  // A probe that succeeds lets the others go at the full timeout: both calls fit in the lease.
  const callsMs = failing ? callTimeoutMs + timeoutMs : callTimeoutMs;
  return { kind: 'admit', slots, timeoutMs: callTimeoutMs, probeFirst: failing, leaseMs: callsMs + LEASE_MARGIN_MS };
}

/** Succeeded within PROVEN_WITHIN_MS and no failure since. */
function answersLately(health: EndpointHealth, nowMs: number): boolean {
  return health.consecutiveFailures === 0 && health.lastSuccessAtMs !== undefined && nowMs - health.lastSuccessAtMs <= PROVEN_WITHIN_MS;
}

const hasSlowCall = (health: EndpointHealth, nowMs: number): boolean => health.leases.some((lease) => nowMs - lease.acquiredAtMs >= SLOW_LEASE_MS);

/** Whether a group's success must be written: it ends a failure run, or the last success recorded is old. */
export function successNeedsRecording(health: EndpointHealth, nowMs: number): boolean {
  if (health.consecutiveFailures > 0 || health.openUntilMs !== undefined) return true;
  return health.lastSuccessAtMs === undefined || nowMs - health.lastSuccessAtMs >= SUCCESS_REFRESH_MS;
}

/** How long (on average; jittered ±50 %) a group waits for a fast endpoint's slot before trying again, and how many times, before it is re-queued. */
export const BUSY_WAIT_MS = 200;
export const BUSY_WAITS = 1;

/** A group waits for a slot only when the endpoint's groups hold theirs for less than this: a slower one's slot frees only after seconds. */
export const QUICK_HOLD_MS = 1_000;

/**
 * Whether a group that found every slot taken waits BUSY_WAIT_MS for one: not for a failing
 * endpoint, nor for one that never answered lately and has a slow call in flight (likely dead),
 * nor for one whose groups hold their slots for QUICK_HOLD_MS or more (the wait would hold the
 * invocation for nothing).
 */
export function waitsForSlot(health: EndpointHealth, admission: Extract<Admission, { kind: 'admit' }>, nowMs: number): boolean {
  if (admission.probeFirst || (expectedHoldMs(health, nowMs) ?? 0) >= QUICK_HOLD_MS) return false;
  return answersLately(health, nowMs) || !hasSlowCall(health, nowMs);
}

/**
 * The longest wait of a delivery that keeps finding a fast endpoint's slots taken: long enough to
 * halve the re-queues of a busy endpoint's backlog, short enough that no slot idles behind it.
 */
export const MAX_BUSY_DELAY_SECONDS = 4;
/**
 * A slow endpoint's backlog waits longer: up to this many of its times held (about a minute at
 * 4.9 s), doubling with each deferral. Its slot frees only every few seconds, and each return of
 * a delivery that finds it busy again costs the dispatcher a read and a re-queue.
 */
export const BUSY_DELAY_HOLDS = 12;

/**
 * How long a delivery waits that found every slot of its endpoint (or of its organization) taken. An
 * endpoint that answers lately, or whose calls are young, is busy: a random wait of 1–2 s the first
 * time, doubling with each deferral up to MAX_BUSY_DELAY_SECONDS, or up to BUSY_DELAY_HOLDS of its
 * times held when that is longer (a slow endpoint's slot frees only after seconds), so a busy
 * endpoint's backlog spreads out instead of going round the queue every second. An endpoint that never answered lately with a call in flight past
 * SLOW_LEASE_MS is likely dead and not yet known failing: the delivery waits until the first lease
 * ends (when that call's timeout has fired), not a second.
 */
export function busyDelaySeconds(health: EndpointHealth, nowMs: number, random: () => number, deferrals = 0): number {
  if (answersLately(health, nowMs) || !hasSlowCall(health, nowMs)) {
    const spreadSeconds = Math.max(MAX_BUSY_DELAY_SECONDS, Math.ceil((BUSY_DELAY_HOLDS * (expectedHoldMs(health, nowMs) ?? 0)) / 1000));
    return Math.min(MAX_SQS_DELAY_SECONDS, 1 + Math.floor(random() * Math.min(spreadSeconds, 2 ** Math.min(deferrals + 1, 10))));
  }
  const firstEndMs = Math.min(...health.leases.map((lease) => lease.expiresAtMs));
  return Math.min(MAX_SQS_DELAY_SECONDS, Math.max(1, Math.ceil((firstEndMs - nowMs) / 1000)) + Math.floor(random() * 3));
}

/** How long a group waits when the health store could not answer (a fault a retry can mend): 2–5 s. */
export function healthUnavailableDelaySeconds(random: () => number): number {
  return 2 + Math.floor(random() * 4);
}

/**
 * How long a delivery waits while the breaker is open: until it reopens, plus a random share of
 * half that time, so the deliveries waiting on one endpoint come back spread out, not all at once.
 * Chained when longer than SQS's longest delay: the breaker is still open when it comes back.
 */
export function openDelaySeconds(reopensAtMs: number, nowMs: number, random: () => number): number {
  const remaining = Math.max(1, Math.ceil((reopensAtMs - nowMs) / 1000));
  return Math.min(MAX_SQS_DELAY_SECONDS, remaining + Math.floor(random() * Math.max(1, remaining / 2)));
}

/**
 * After failed calls brought the count to `failures`: the breaker's next opening, or none below the
 * threshold. Each opening since the last success lasts twice the one before, up to the cap.
 *
 * @example
 * breakerOpening(5, 0, now, { ...settings, breakerThreshold: 5, breakerBaseMs: 30_000 }) // → { untilMs: now + 30_000, opens: 1 }
 */
export function breakerOpening(
  failures: number,
  opensBefore: number,
  nowMs: number,
  settings: Pick<EndpointFairnessSettings, 'breakerThreshold' | 'breakerBaseMs' | 'breakerCapMs'>,
): { untilMs: number; opens: number } | undefined {
  if (failures < settings.breakerThreshold) return undefined;
  const durationMs = Math.min(settings.breakerCapMs, MAX_SQS_DELAY_SECONDS * 1000, settings.breakerBaseMs * 2 ** Math.min(opensBefore, 30));
  return { untilMs: nowMs + durationMs, opens: opensBefore + 1 };
}

/**
 * How long the deliveries that waited behind a failed probe wait again when the breaker stays shut
 * (below the threshold): the endpoint's own backoff, from its failures in a row, at least a second.
 */
export function probeFailedDelaySeconds(failures: number, settings: { backoffBaseMs: number; backoffCapMs: number }, random: () => number): number {
  const ceilingMs = Math.min(settings.backoffCapMs, MAX_SQS_DELAY_SECONDS * 1000, settings.backoffBaseMs * 2 ** Math.min(Math.max(failures - 1, 0), 40));
  return Math.max(1, Math.floor((random() * ceilingMs) / 1000));
}
