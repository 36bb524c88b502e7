/**
 * When a failed delivery is tried again: exponential backoff with full jitter (a random wait in
 * [0, min(cap, base × 2^attempt)]), so endpoints that failed together do not all come back at
 * once; for as long as the retry window (24 h by default) lasts from the first attempt, then the
 * dead-letter queue. The cap is SQS's longest delay (15 min): a retry is a new message with a delay.
 */
export interface CustomerEventDeliverySettings {
  /** How long after the first attempt a delivery is still retried (CUSTOMER_EVENT_RETRY_HOURS). */
  retryWindowMs: number;
  backoffBaseMs: number;
  /** At most 900,000 (SQS's maximum delay). */
  backoffCapMs: number;
  /** One attempt's whole time, connection to response (CUSTOMER_EVENT_TIMEOUT_MS, 10 s). */
  timeoutMs: number;
  /** Local mode: loopback receivers and plain http allowed (CUSTOMER_WEBHOOKS_ALLOW_LOOPBACK=1, local runtime only). */
  localMode: boolean;
  /** Each endpoint's share of the dispatcher: concurrency cap, circuit breaker, short timeout (endpoint-fairness.ts). */
  fairness: EndpointFairnessSettings;
  /** Events one organization may redeliver per UTC day (CUSTOMER_EVENT_REDELIVERIES_PER_DAY, redelivery-quota.ts). */
  redeliveriesPerDay: number;
}

/** Each endpoint's share of the dispatcher (docs/CUSTOMER-WEBHOOKS.md "Fairness"; the rules: endpoint-fairness.ts). */
export interface EndpointFairnessSettings {
  /** Dispatcher invocations delivering to one endpoint at once (CUSTOMER_EVENT_ENDPOINT_CONCURRENCY); 1 while it fails. */
  concurrency: number;
  /** More of them for an endpoint that answered lately and whose calls are quick (CUSTOMER_EVENT_ENDPOINT_BURST_CONCURRENCY). */
  burstConcurrency: number;
  /**
   * Slot time an endpoint may have committed at once: its slots × its groups' recent time held
   * never exceed it, with at least one slot (CUSTOMER_EVENT_ENDPOINT_SLOT_BUDGET_MS; time-held-share.ts).
   */
  slotBudgetMs: number;
  /** Groups delivering to one organization's endpoints at once, all its endpoints together (CUSTOMER_EVENT_ORGANIZATION_CONCURRENCY). */
  organizationConcurrency: number;
  /** Timeout of a call to an endpoint whose last call timed out (CUSTOMER_EVENT_FAILING_TIMEOUT_MS). */
  failingTimeoutMs: number;
  /** Failed calls in a row that open the endpoint's circuit breaker (CUSTOMER_EVENT_BREAKER_THRESHOLD). */
  breakerThreshold: number;
  /** How long the breaker first stays open; doubled at each reopening (CUSTOMER_EVENT_BREAKER_BASE_MS). */
  breakerBaseMs: number;
  /** The longest opening (CUSTOMER_EVENT_BREAKER_CAP_MS, at most SQS's longest delay). */
  breakerCapMs: number;
}

export const MAX_SQS_DELAY_SECONDS = 900;

export type RetryDecision = { kind: 'retry'; delaySeconds: number } | { kind: 'give-up' };

/**
 * After failed attempt number `attempt` (1 for the first), at `now`: wait how long, or give up.
 * The wait never reaches past the window's end, so the last try happens inside it.
 */
export function nextRetry(
  settings: Pick<CustomerEventDeliverySettings, 'retryWindowMs' | 'backoffBaseMs' | 'backoffCapMs'>,
  attempt: number,
  firstAttemptAt: Date,
  now: Date,
  random: () => number,
): RetryDecision {
  const remainingMs = firstAttemptAt.getTime() + settings.retryWindowMs - now.getTime();
  if (remainingMs <= 0) return { kind: 'give-up' };
  // 2^(attempt-1) grows past any cap by attempt 40; keep the exponent finite.
  const ceilingMs = Math.min(settings.backoffCapMs, MAX_SQS_DELAY_SECONDS * 1000, settings.backoffBaseMs * 2 ** Math.min(attempt - 1, 40));
  const waitMs = Math.min(random() * ceilingMs, remainingMs);
  return { kind: 'retry', delaySeconds: Math.min(MAX_SQS_DELAY_SECONDS, Math.floor(waitMs / 1000)) };
}
