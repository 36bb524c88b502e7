/**
 * Slots by time held (docs/CUSTOMER-WEBHOOKS.md "Fairness"): what an invocation of the dispatcher
 * costs everyone else is the time it is held, so an endpoint's slots are granted by how long its
 * groups hold them, not only by whether they succeed. An endpoint may have at most
 * `slotBudgetMs` of slot time committed at once: its slots × the time one of its groups holds a
 * slot (recently) stays within the budget, with at least one slot. With the defaults (8 s), an
 * endpoint answering within 1 s keeps all 8 slots, one answering in 2 s gets 4, in 4 s 2, and one
 * answering 200 after 4.9 s (or slower) gets 1: ten such endpoints hold 10 invocations, not 80.
 * Pure; the dispatcher records each group's time held when it gives its slot back.
 */
import type { EndpointHealth } from './delivery-ports';
import type { EndpointFairnessSettings } from './retry-schedule';

/** A slot's last hold counts towards the endpoint's time held for this long after it ended. */
export const RECENT_HOLD_MS = 60_000;

/**
 * How long one group of this endpoint holds its slot, as far as is known at `nowMs`: the mean of
 * the slots' last holds that ended within RECENT_HOLD_MS, or the age of its oldest lease in flight
 * when that is longer (a call slower than the ones before counts at once, before it ends).
 * Undefined when nothing is known (no recent hold, no lease in flight).
 *
 * @example
 * expectedHoldMs({ ...health, holds: [{ slot: 0, heldMs: 4_900, endedAtMs: now - 1_000 }], leases: [] }, now) // → 4_900
 */
export function expectedHoldMs(health: Pick<EndpointHealth, 'holds' | 'leases'>, nowMs: number): number | undefined {
  const recent = (health.holds ?? []).filter((hold) => nowMs - hold.endedAtMs <= RECENT_HOLD_MS);
  const inFlight = health.leases.map((lease) => Math.max(0, nowMs - lease.acquiredAtMs));
  if (recent.length === 0 && inFlight.length === 0) return undefined;
  const mean = recent.length === 0 ? 0 : recent.reduce((sum, hold) => sum + hold.heldMs, 0) / recent.length;
  return Math.max(mean, ...inFlight);
}

/**
 * The slots the endpoint's time held allows, at most `ceiling` (the slots its health allows) and
 * at least one: `slotBudgetMs` ÷ the expected hold. An endpoint whose time held is unknown gets
 * `ceiling`.
 *
 * @example
 * slotsByTimeHeld({ holds: [{ slot: 0, heldMs: 4_900, endedAtMs: now }], leases: [] }, now, { slotBudgetMs: 8_000 }, 8) // → 1
 * slotsByTimeHeld({ holds: [{ slot: 0, heldMs: 150, endedAtMs: now }], leases: [] }, now, { slotBudgetMs: 8_000 }, 8) // → 8
 */
export function slotsByTimeHeld(
  health: Pick<EndpointHealth, 'holds' | 'leases'>,
  nowMs: number,
  settings: Pick<EndpointFairnessSettings, 'slotBudgetMs'>,
  ceiling: number,
): number {
  const holdMs = expectedHoldMs(health, nowMs);
  if (holdMs === undefined || holdMs <= 0) return ceiling;
  return Math.max(1, Math.min(ceiling, Math.floor(settings.slotBudgetMs / holdMs)));
}
