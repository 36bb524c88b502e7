/**
 * One delivery attempt of one event to one endpoint (the customer-events function, per SQS record):
 * the endpoint (gone → dropped), a fresh signature, one POST; any 2xx is delivered (and a failing
 * endpoint becomes active again); anything else is tried again later by a delayed copy of the
 * message, until the retry window is over: then the dead-letter queue and the endpoint marked failing.
 *
 * Failures of the endpoint are outcomes, not errors: the SQS record succeeds either way. Only a
 * fault of our own stores (the registry, the queue) throws, so SQS hands the record back.
 */
import type { Clock } from '../ports/clock';
import { type CustomerEventDelivery } from './delivery-message';
import type { CustomerEventQueue, WebhookTransport } from './delivery-ports';
import { WebhookDeliveryError, type DeliveryFailureReason } from './errors';
import type { WebhookEndpointRegistry } from './ports';
import { nextRetry, type CustomerEventDeliverySettings } from './retry-schedule';
import { signCustomerEvent } from './signing';

export interface DispatchDependencies {
  registry: Pick<WebhookEndpointRegistry, 'get' | 'secretOf' | 'markFailing' | 'markActive'>;
  transport: WebhookTransport;
  queue: CustomerEventQueue;
  clock: Clock;
  random: () => number;
  settings: Pick<CustomerEventDeliverySettings, 'retryWindowMs' | 'backoffBaseMs' | 'backoffCapMs' | 'timeoutMs'>;
}

/** What happened, for the log line (facts only: ids, status, reason, delay). */
export type DispatchOutcome =
  | { kind: 'delivered'; status: number; attempt: number }
  | { kind: 'endpoint-gone' }
  | { kind: 'retry-scheduled'; attempt: number; status?: number; reason?: DeliveryFailureReason; delaySeconds: number }
  | { kind: 'dead-lettered'; attempt: number; status?: number; reason?: DeliveryFailureReason };

const isSuccess = (status: number): boolean => status >= 200 && status < 300;

export async function dispatchCustomerEvent(dependencies: DispatchDependencies, delivery: CustomerEventDelivery): Promise<DispatchOutcome> {
  const { registry, clock, settings } = dependencies;
  const endpoint = await registry.get(delivery.organizationId, delivery.endpointId);
  if (!endpoint) return { kind: 'endpoint-gone' };

  const secret = await registry.secretOf(endpoint);
  const attempt = delivery.attempts + 1;
  const signed = signCustomerEvent(secret, delivery.event, clock.now());
  let status: number | undefined;
  let reason: DeliveryFailureReason | undefined;
  try {
    ({ status } = await dependencies.transport.post({ url: endpoint.url, headers: signed.headers, body: signed.body, timeoutMs: settings.timeoutMs }));
  } catch (error) {
    if (!(error instanceof WebhookDeliveryError)) throw error;
    reason = error.reason;
  }

  if (status !== undefined && isSuccess(status)) {
    if (endpoint.state === 'FAILING') await registry.markActive(endpoint.organizationId, endpoint.id);
    return { kind: 'delivered', status, attempt };
  }

  const now = clock.now();
  const decision = nextRetry(settings, attempt, new Date(delivery.firstAttemptAt), now, dependencies.random);
  const next: CustomerEventDelivery = { ...delivery, attempts: attempt };
  if (decision.kind === 'retry') {
    await dependencies.queue.enqueue([next], { delaySeconds: decision.delaySeconds });
    return { kind: 'retry-scheduled', attempt, status, reason, delaySeconds: decision.delaySeconds };
  }
  await dependencies.queue.deadLetter(next);
  await registry.markFailing(endpoint.organizationId, endpoint.id, now);
  return { kind: 'dead-lettered', attempt, status, reason };
}
