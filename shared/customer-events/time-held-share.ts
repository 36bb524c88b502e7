/**
 * Slots by time held (docs/CUSTOMER-WEBHOOKS.md "Fairness"): what an invocation of the dispatcher
 * costs everyone else is the time it is held, so an endpoint's slots are granted by how long its
 * groups hold them, not only by whether they succeed. An endpoint may have at most
 * `slotBudgetMs` of slot time committed at once: its slots × the time one of its groups holds a
 * slot in calls (recently) stays within the budget, with at least one slot. With the defaults (8 s), an
 * endpoint answering within 1 s keeps all 8 slots, one answering in 2 s gets 4, in 4 s 2, and one
 * answering 200 after 4.9 s (or slower) gets 1: ten such endpoints hold 10 invocations, not 80.
 * Pure; the dispatcher records each group's time held when it gives its slot back.
 */
import type { EndpointHealth } from './delivery-ports';
import type { EndpointFairnessSettings } from './retry-schedule';

/** A slot's last hold counts towards the endpoint's time held for this long after it ended. */
export const RECENT_HOLD_MS = 60_000;

/**
 * How long one group of this endpoint holds its slot in calls, as far as is known at `nowMs`: the
 * mean of the slots' last holds that ended within RECENT_HOLD_MS; undefined when none did. Only
 * the endpoint's own time counts (first POST to last answer), not the dispatcher's store calls,
 * so a loaded dispatcher never shrinks a fast endpoint's share. A call still in flight does not
 * count: a fast endpoint turning slow loses its burst slots at once by the slow-call rule
 * (endpoint-fairness.ts), and its slots shrink when its first slow groups end.
 *
 * @example
 * expectedHoldMs({ holds: [{ slot: 0, heldMs: 4_900, endedAtMs: now - 1_000 }] }, now) // → 4_900
 */
export function expectedHoldMs(health: Pick<EndpointHealth, 'holds'>, nowMs: number): number | undefined {
  const recent = (health.holds ?? []).filter((hold) => nowMs - hold.endedAtMs <= RECENT_HOLD_MS);
  if (recent.length === 0) return undefined;
  return recent.reduce((sum, hold) => sum + hold.heldMs, 0) / recent.length;
}

/**
 * The slots the endpoint's time held allows, at most `ceiling` (the slots its health allows) and
 * at least one: `slotBudgetMs` ÷ the expected hold. An endpoint whose time held is unknown gets
 * `ceiling`.
 *
 * @example
 * slotsByTimeHeld({ holds: [{ slot: 0, heldMs: 4_900, endedAtMs: now }] }, now, { slotBudgetMs: 8_000 }, 8) // → 1
 * slotsByTimeHeld({ holds: [{ slot: 0, heldMs: 150, endedAtMs: now }] }, now, { slotBudgetMs: 8_000 }, 8) // → 8
 */
export function slotsByTimeHeld(
  health: Pick<EndpointHealth, 'holds'>,
  nowMs: number,
  settings: Pick<EndpointFairnessSettings, 'slotBudgetMs'>,
  ceiling: number,
): number {
  const holdMs = expectedHoldMs(health, nowMs);
  if (holdMs === undefined || holdMs <= 0) return ceiling;
  return Math.max(1, Math.min(ceiling, Math.floor(settings.slotBudgetMs / holdMs)));
}
