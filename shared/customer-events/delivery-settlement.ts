/**
 * The dispatcher's steps for single deliveries (dispatch-customer-event.ts runs them per endpoint
 * group): one signed call, what a failed call leaves (a delayed retry, or the dead-letter queue once
 * the retry window is over), and a deferral, which re-queues deliveries that were not called at all
 * (the breaker is open, the endpoint's slots are taken) without counting an attempt.
 */
import type { Clock } from '../ports/clock';
import type { CustomerEventDelivery } from './delivery-message';
import type { CustomerEventQueue, EndpointKey, WebhookTransport } from './delivery-ports';
import { WebhookDeliveryError, type DeliveryFailureReason } from './errors';
import type { WebhookEndpointRegistry } from './ports';
import { nextRetry, type CustomerEventDeliverySettings } from './retry-schedule';
import { signCustomerEvent } from './signing';

export interface SettlementDependencies {
  registry: Pick<WebhookEndpointRegistry, 'markFailing'>;
  transport: WebhookTransport;
  queue: CustomerEventQueue;
  clock: Clock;
  random: () => number;
  settings: Pick<CustomerEventDeliverySettings, 'retryWindowMs' | 'backoffBaseMs' | 'backoffCapMs' | 'timeoutMs'>;
}

/** Why deliveries were re-queued without a call. */
export type DeferralCause = 'breaker-open' | 'endpoint-busy' | 'organization-busy' | 'probe-failed' | 'health-unavailable';

/** What happened to one delivery, for the log line (facts only: ids, status, reason, delay). */
export type DispatchOutcome =
  | { kind: 'delivered'; status: number; attempt: number }
  | { kind: 'endpoint-gone' }
  | { kind: 'retry-scheduled'; attempt: number; status?: number; reason?: DeliveryFailureReason; delaySeconds: number }
  | { kind: 'deferred'; cause: DeferralCause; delaySeconds: number }
  | { kind: 'dead-lettered'; attempt: number; status?: number; reason?: DeliveryFailureReason };

/** One delivery's end: an outcome, or a fault of our own stores (SQS hands the record back). */
export type DispatchResult = { outcome: DispatchOutcome } | { error: unknown };

/** One call: `ok` for any 2xx; a failure has a status (any other answer) or a reason (no answer). */
export interface CallResult {
  delivery: CustomerEventDelivery;
  attempt: number;
  ok: boolean;
  status?: number;
  reason?: DeliveryFailureReason;
}

const isSuccess = (status: number): boolean => status >= 200 && status < 300;

/** Signs anew (a fresh `t`) and POSTs once. Endpoint failures are results; anything else throws. */
export async function callEndpoint(
  dependencies: Pick<SettlementDependencies, 'transport' | 'clock'>,
  url: string,
  secret: string,
  delivery: CustomerEventDelivery,
  timeoutMs: number,
): Promise<CallResult> {
  const attempt = delivery.attempts + 1;
  const signed = signCustomerEvent(secret, delivery.event, dependencies.clock.now());
  try {
    const { status } = await dependencies.transport.post({ url, headers: signed.headers, body: signed.body, timeoutMs });
    return { delivery, attempt, ok: isSuccess(status), status };
  } catch (error) {
    if (!(error instanceof WebhookDeliveryError)) throw error;
    return { delivery, attempt, ok: false, reason: error.reason };
  }
}

/** A failed call: tried again later by a delayed copy (`attempts` + 1), or parked once the window is over. */
export async function settleFailedCall(dependencies: SettlementDependencies, endpoint: EndpointKey, call: CallResult): Promise<DispatchResult> {
  const { status, reason, attempt } = call;
  try {
    const now = dependencies.clock.now();
    const decision = nextRetry(dependencies.settings, attempt, new Date(call.delivery.firstAttemptAt), now, dependencies.random);
    const next: CustomerEventDelivery = { ...call.delivery, attempts: attempt };
    if (decision.kind === 'retry') {
      await dependencies.queue.enqueue([next], { delaySeconds: decision.delaySeconds });
      return { outcome: { kind: 'retry-scheduled', attempt, status, reason, delaySeconds: decision.delaySeconds } };
    }
    await dependencies.queue.deadLetter(next);
    await dependencies.registry.markFailing(endpoint.organizationId, endpoint.endpointId, now);
    return { outcome: { kind: 'dead-lettered', attempt, status, reason } };
  } catch (error) {
    return { error };
  }
}

/**
 * Re-queues deliveries that were not called, `delaySeconds` later (one for all, or per delivery;
 * never past their retry window), with their attempts unchanged: waiting for an endpoint is not a
 * failed call. A wait for a busy endpoint or organization is counted (`deferrals`). A delivery whose window is over
 * gives up as a failed one would: the dead-letter queue, the endpoint marked failing.
 */
export async function deferDeliveries(
  dependencies: SettlementDependencies,
  endpoint: EndpointKey,
  deliveries: readonly CustomerEventDelivery[],
  cause: DeferralCause,
  delaySeconds: number | ((delivery: CustomerEventDelivery) => number),
): Promise<DispatchResult[]> {
  const now = dependencies.clock.now();
  const byDelay = new Map<number, number[]>();
  const expired: number[] = [];
  deliveries.forEach((delivery, index) => {
    const remainingMs = new Date(delivery.firstAttemptAt).getTime() + dependencies.settings.retryWindowMs - now.getTime();
    if (remainingMs <= 0) expired.push(index);
    else {
      const wanted = typeof delaySeconds === 'number' ? delaySeconds : delaySeconds(delivery);
      const delay = Math.min(wanted, Math.floor(remainingMs / 1000));
      byDelay.set(delay, [...(byDelay.get(delay) ?? []), index]);
    }
  });
  const results: DispatchResult[] = new Array(deliveries.length);
  const settle = async (indices: readonly number[], work: () => Promise<DispatchOutcome[]>) => {
    try {
      const outcomes = await work();
      indices.forEach((index, position) => (results[index] = { outcome: outcomes[position]! }));
    } catch (error) {
      for (const index of indices) results[index] = { error };
    }
  };
  await Promise.all([
    ...[...byDelay].map(([delay, indices]) =>
      settle(indices, async () => {
        const waiting = indices.map((index) => deliveries[index]!);
        const busy = cause === 'endpoint-busy' || cause === 'organization-busy';
        await dependencies.queue.enqueue(busy ? waiting.map((delivery) => ({ ...delivery, deferrals: (delivery.deferrals ?? 0) + 1 })) : waiting, {
          delaySeconds: delay,
        });
        return indices.map(() => ({ kind: 'deferred', cause, delaySeconds: delay }) as const);
      }),
    ),
    settle(expired, async () => {
      if (expired.length === 0) return [];
      for (const index of expired) await dependencies.queue.deadLetter(deliveries[index]!);
      await dependencies.registry.markFailing(endpoint.organizationId, endpoint.endpointId, now);
      return expired.map((index) => ({ kind: 'dead-lettered', attempt: deliveries[index]!.attempts }) as const);
    }),
  ]);
  return results;
}
