/**
 * The customer-events function's use case: a batch of deliveries (one per SQS record), grouped by
 * endpoint, the groups concurrently. Per group (docs/CUSTOMER-WEBHOOKS.md "Fairness"): the
 * endpoint's health decides first (endpoint-fairness.ts, its slots by time held: time-held-share.ts).
 * An open breaker, or every concurrency slot taken (the endpoint's, or its organization's:
 * organization-share.ts), re-queues the group with a delay and calls nothing; otherwise the group
 * takes a slot of each (leases), the endpoint (gone → dropped) and its secret, and POSTs each
 * delivery signed anew; the endpoint's slot is given back with the time it was held. An
 * endpoint that failed lately gets one delivery first (the probe) and the others only if it answers.
 * Any 2xx is delivered (a failing endpoint becomes active again); a failed call is tried again
 * later by a delayed copy of its message until the retry window is over, then the dead-letter
 * queue and the endpoint marked failing. One health write per group: a success resets the
 * endpoint's failures, a group of failed calls counts them and may open the breaker.
 *
 * Failures of the endpoint are outcomes, not errors: the SQS record succeeds either way. A fault
 * of our own stores (the registry, the queue, the health store after the calls) is an error, so
 * SQS hands that record back; a fault of the health store before any call re-queues the group a
 * few seconds later instead.
 */
import type { Clock } from '../ports/clock';
import { StoreUnavailableError } from '../ports/errors';
import type { CustomerEventDelivery } from './delivery-message';
import type {
  CustomerEventQueue,
  EndpointHealth,
  EndpointHealthStore,
  EndpointKey,
  EndpointLease,
  LeaseHeld,
  OrganizationShareStore,
  WebhookTransport,
} from './delivery-ports';
import { callEndpoint, deferDeliveries, settleFailedCall, type CallResult, type DispatchResult } from './delivery-settlement';
import {
  admissionOf,
  breakerOpening,
  busyDelaySeconds,
  openDelaySeconds,
  probeFailedDelaySeconds,
  successNeedsRecording,
  waitsForSlot,
  healthUnavailableDelaySeconds,
  BUSY_WAIT_MS,
  BUSY_WAITS,
  type Admission,
} from './endpoint-fairness';
import { takeFreeSlot, takeShareLease } from './organization-share';
import type { WebhookEndpoint, WebhookEndpointRegistry } from './ports';
import type { CustomerEventDeliverySettings, EndpointFairnessSettings } from './retry-schedule';

export type { DispatchOutcome, DispatchResult } from './delivery-settlement';

export interface DispatchDependencies {
  registry: Pick<WebhookEndpointRegistry, 'get' | 'secretOf' | 'markFailing' | 'markActive'>;
  /** Endpoints' health and leases, and each organization's share (one store: the rateLimits table). */
  health: EndpointHealthStore & OrganizationShareStore;
  transport: WebhookTransport;
  queue: CustomerEventQueue;
  clock: Clock;
  random: () => number;
  /** Waits without a store call (a group waiting a moment for a fast endpoint's slot). */
  sleep: (ms: number) => Promise<void>;
  settings: Pick<CustomerEventDeliverySettings, 'retryWindowMs' | 'backoffBaseMs' | 'backoffCapMs' | 'timeoutMs'>;
  fairness: EndpointFairnessSettings;
}

/**
 * Dispatches a batch; one result per delivery, in the batch's order.
 *
 * @example
 * const results = await dispatchCustomerEvents(dependencies, records.map((record) => decodeDelivery(record.body)));
 * const failed = records.filter((_, index) => 'error' in results[index]!); // handed back to SQS
 */
export async function dispatchCustomerEvents(dependencies: DispatchDependencies, deliveries: readonly CustomerEventDelivery[]): Promise<DispatchResult[]> {
  const groups = new Map<string, number[]>();
  deliveries.forEach((delivery, index) => {
    const key = `${delivery.organizationId}\n${delivery.endpointId}`;
    groups.set(key, [...(groups.get(key) ?? []), index]);
  });
  const results: DispatchResult[] = new Array(deliveries.length);
  await Promise.all(
    [...groups.values()].map(async (indices) => {
      const group = indices.map((index) => deliveries[index]!);
      const settled = await dispatchToEndpoint(dependencies, group).catch((error: unknown) => group.map((): DispatchResult => ({ error })));
      indices.forEach((index, position) => (results[index] = settled[position]!));
    }),
  );
  return results;
}

interface Admitted {
  health: EndpointHealth;
  admission: Extract<Admission, { kind: 'admit' }>;
  lease: EndpointLease;
}

async function dispatchToEndpoint(dependencies: DispatchDependencies, group: readonly CustomerEventDelivery[]): Promise<DispatchResult[]> {
  const key: EndpointKey = { organizationId: group[0]!.organizationId, endpointId: group[0]!.endpointId };
  try {
    return await admitAndDeliver(dependencies, key, group);
  } catch (error) {
    // The health store could not say whether the endpoint may be called (a fault a retry can
    // mend): the group waits a few seconds in the queue, no attempt used, rather than going back
    // to SQS for the visibility timeout (60 s) and towards its dead-letter queue. Nothing was called.
    if (!(error instanceof HealthUnavailable)) throw error;
    return deferDeliveries(dependencies, key, group, 'health-unavailable', healthUnavailableDelaySeconds(dependencies.random));
  }
}

/** A store fault of the health reads and leases before any call, told apart from the registry's. */
class HealthUnavailable extends Error {
  override readonly name = 'HealthUnavailable';
}

/** The health store's faults a retry can mend become HealthUnavailable; anything else stays as it is. */
async function guardHealth<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof StoreUnavailableError ? new HealthUnavailable(error.message, { cause: error }) : error;
  }
}

async function admitAndDeliver(dependencies: DispatchDependencies, key: EndpointKey, group: readonly CustomerEventDelivery[]): Promise<DispatchResult[]> {
  const now = dependencies.clock.now();
  // Health before the endpoint: a group that will not call costs one read.
  const health = await guardHealth(() => dependencies.health.read(key, now));
  const admission = admissionOf(health, now.getTime(), dependencies.fairness, dependencies.settings.timeoutMs);
  if (admission.kind === 'open') {
    return deferDeliveries(dependencies, key, group, 'breaker-open', openDelaySeconds(admission.reopensAtMs, now.getTime(), dependencies.random));
  }
  // Every slot taken and no wait for one (a slow or likely dead endpoint's): re-queued on that one
  // read, so a busy endpoint's backlog going round the queue costs no registry or share read.
  if (slotsTaken(health, admission) && !waitsForSlot(health, admission, now.getTime())) {
    return deferDeliveries(dependencies, key, group, 'endpoint-busy', (delivery) =>
      busyDelaySeconds(health, now.getTime(), dependencies.random, delivery.deferrals),
    );
  }
  // The organization's share is read alongside the endpoint: no extra round trip before the call.
  const [endpoint, share] = await Promise.all([
    dependencies.registry.get(key.organizationId, key.endpointId),
    guardHealth(() => dependencies.health.readShare(key.organizationId, now)),
  ]);
  if (!endpoint) return group.map(() => ({ outcome: { kind: 'endpoint-gone' } }));
  const admitted = await admitWithSlot(dependencies, key, { health, admission }, now);
  if ('busy' in admitted) {
    const { busy, at } = admitted;
    return deferDeliveries(dependencies, key, group, 'endpoint-busy', (delivery) => busyDelaySeconds(busy, at, dependencies.random, delivery.deferrals));
  }
  const shareLease = await withOrganizationShare(dependencies, key, admitted, share.leases, now);
  if (!shareLease) {
    return deferDeliveries(dependencies, key, group, 'organization-busy', (delivery) =>
      busyDelaySeconds(admitted.health, now.getTime(), dependencies.random, delivery.deferrals),
    );
  }
  let called: { calls: CallResult[]; waiting: readonly CustomerEventDelivery[]; held?: { ms: number; endedAt: Date } } | undefined;
  try {
    called = await callUnderLease(dependencies, endpoint, admitted.admission, group);
  } finally {
    // Given back as soon as the calls are over, the endpoint's with its time in calls. A lease not
    // given back ends at its expiry by itself: a failed release only delays the next group a little.
    await Promise.all([
      dependencies.health.release(key, admitted.lease, called?.held).catch(() => undefined),
      dependencies.health.releaseShare(key.organizationId, shareLease).catch(() => undefined),
    ]);
  }
  return settleGroup(dependencies, endpoint, admitted.health, called.calls, called.waiting);
}

/** Whether live leases hold every slot the admission allows. */
const slotsTaken = (health: EndpointHealth, admission: Extract<Admission, { kind: 'admit' }>): boolean =>
  health.leases.filter((lease) => lease.slot < admission.slots).length >= admission.slots;

/**
 * The organization's slot for a group that holds its endpoint's, until the same expiry; when every
 * one is taken (or the store faults), the endpoint's slot is given back at once, unused.
 */
async function withOrganizationShare(
  dependencies: DispatchDependencies,
  key: EndpointKey,
  admitted: Admitted,
  shareLeases: ReadonlyArray<LeaseHeld>,
  now: Date,
): Promise<EndpointLease | undefined> {
  const expiresAt = new Date(now.getTime() + admitted.admission.leaseMs);
  const unused = () => dependencies.health.release(key, admitted.lease).catch(() => undefined);
  try {
    const share = await guardHealth(() =>
      takeShareLease(dependencies.health, dependencies.random, key.organizationId, shareLeases, dependencies.fairness, now, expiresAt),
    );
    if (!share) await unused();
    return share;
  } catch (error) {
    await unused();
    throw error;
  }
}

/**
 * A slot, or the health that found none. A fast endpoint's slots free within moments, so a group
 * that finds them taken waits a moment (BUSY_WAITS times about BUSY_WAIT_MS, no store call
 * meanwhile) and tries again before it is re-queued: cheaper than a round trip through the queue,
 * and it holds an invocation only that long.
 */
async function admitWithSlot(
  dependencies: DispatchDependencies,
  key: EndpointKey,
  first: { health: EndpointHealth; admission: Admission },
  firstAt: Date,
): Promise<Admitted | { busy: EndpointHealth; at: number }> {
  let state = { ...first, now: firstAt };
  for (let waits = 0; ; waits += 1) {
    const { health, admission, now } = state;
    // Opened meanwhile (another group's calls failed): re-queued briefly, then it reads as open.
    if (admission.kind !== 'admit') return { busy: health, at: now.getTime() };
    const lease = await guardHealth(() => takeLease(dependencies, key, health, admission, now));
    if (lease) return { health, admission, lease };
    if (waits >= BUSY_WAITS || !waitsForSlot(health, admission, now.getTime())) return { busy: health, at: now.getTime() };
    // Jittered, so groups waiting on one endpoint do not all try again at the same instant.
    await dependencies.sleep(Math.round(BUSY_WAIT_MS * (0.5 + dependencies.random())));
    const later = dependencies.clock.now();
    const reread = await guardHealth(() => dependencies.health.read(key, later));
    state = { health: reread, admission: admissionOf(reread, later.getTime(), dependencies.fairness, dependencies.settings.timeoutMs), now: later };
  }
}

/** One of the endpoint's free slots (tried from a random one on, organization-share.ts), or undefined. */
async function takeLease(
  dependencies: Pick<DispatchDependencies, 'health' | 'random'>,
  key: EndpointKey,
  health: EndpointHealth,
  admission: Extract<Admission, { kind: 'admit' }>,
  now: Date,
): Promise<EndpointLease | undefined> {
  const expiresAt = new Date(now.getTime() + admission.leaseMs);
  return takeFreeSlot(health.leases, admission.slots, dependencies.random, (slot) => dependencies.health.tryLease(key, slot, now, expiresAt));
}

/** The calls, with the endpoint's time in them (first POST to last answer: the time held that counts, time-held-share.ts). */
async function callUnderLease(
  dependencies: DispatchDependencies,
  endpoint: WebhookEndpoint,
  admission: Extract<Admission, { kind: 'admit' }>,
  group: readonly CustomerEventDelivery[],
): Promise<{ calls: CallResult[]; waiting: readonly CustomerEventDelivery[]; held: { ms: number; endedAt: Date } }> {
  const secret = await dependencies.registry.secretOf(endpoint);
  const startedAtMs = dependencies.clock.now().getTime();
  const made = await makeCalls(dependencies, endpoint, secret, admission, group);
  const endedAt = dependencies.clock.now();
  return { ...made, held: { ms: endedAt.getTime() - startedAtMs, endedAt } };
}

/** All at once, or (an endpoint that failed lately) the probe first and the others only if it succeeds. */
async function makeCalls(
  dependencies: DispatchDependencies,
  endpoint: WebhookEndpoint,
  secret: string,
  admission: Extract<Admission, { kind: 'admit' }>,
  group: readonly CustomerEventDelivery[],
): Promise<{ calls: CallResult[]; waiting: readonly CustomerEventDelivery[] }> {
  const call = (delivery: CustomerEventDelivery, timeoutMs: number) => callEndpoint(dependencies, endpoint.url, secret, delivery, timeoutMs);
  if (!admission.probeFirst) return { calls: await Promise.all(group.map((delivery) => call(delivery, admission.timeoutMs))), waiting: [] };
  const probe = await call(group[0]!, admission.timeoutMs);
  if (!probe.ok) return { calls: [probe], waiting: group.slice(1) };
  return { calls: [probe, ...(await Promise.all(group.slice(1).map((delivery) => call(delivery, dependencies.settings.timeoutMs))))], waiting: [] };
}

/** What the calls leave: the endpoint's health, then each delivery's end (delivered, retried, parked, or deferred behind a failed probe). */
async function settleGroup(
  dependencies: DispatchDependencies,
  endpoint: WebhookEndpoint,
  health: EndpointHealth,
  calls: readonly CallResult[],
  waiting: readonly CustomerEventDelivery[],
): Promise<DispatchResult[]> {
  const key: EndpointKey = { organizationId: endpoint.organizationId, endpointId: endpoint.id };
  // A health store fault leaves the failed calls and the waiting deliveries to SQS (records handed
  // back); the delivered ones are done.
  const recorded = await recordHealth(dependencies, endpoint, health, calls).then(
    (after) => ({ after }),
    (error: unknown) => ({ error }),
  );
  const settled = await Promise.all(
    calls.map(async (result): Promise<DispatchResult> => {
      if (result.ok) return { outcome: { kind: 'delivered', status: result.status!, attempt: result.attempt } };
      return 'error' in recorded ? recorded : settleFailedCall(dependencies, key, result);
    }),
  );
  if (waiting.length === 0) return settled;
  if ('error' in recorded) return [...settled, ...waiting.map(() => recorded)];
  const { failures, reopensAtMs } = recorded.after;
  const now = dependencies.clock.now().getTime();
  const [cause, delay] =
    reopensAtMs !== undefined
      ? (['breaker-open', openDelaySeconds(reopensAtMs, now, dependencies.random)] as const)
      : (['probe-failed', probeFailedDelaySeconds(failures, dependencies.settings, dependencies.random)] as const);
  return [...settled, ...(await deferDeliveries(dependencies, key, waiting, cause, delay))];
}

/**
 * One health write per group. Any answer ends the endpoint's failure run (and a failing endpoint
 * is active again); a group whose calls all failed counts them, and may open the breaker.
 */
async function recordHealth(
  dependencies: DispatchDependencies,
  endpoint: WebhookEndpoint,
  health: EndpointHealth,
  calls: readonly CallResult[],
): Promise<{ failures: number; reopensAtMs?: number }> {
  const key: EndpointKey = { organizationId: endpoint.organizationId, endpointId: endpoint.id };
  const now = dependencies.clock.now();
  if (calls.some((result) => result.ok)) {
    if (successNeedsRecording(health, now.getTime())) await dependencies.health.recordSuccess(key, now);
    if (endpoint.state === 'FAILING') await dependencies.registry.markActive(endpoint.organizationId, endpoint.id);
    return { failures: 0 };
  }
  const timedOut = calls.some((result) => result.reason === 'TIMEOUT');
  const failures = await dependencies.health.recordFailures(key, calls.length, timedOut, now);
  const opening = breakerOpening(failures, health.opens, now.getTime(), dependencies.fairness);
  if (!opening) return { failures };
  await dependencies.health.openBreaker(key, new Date(opening.untilMs), opening.opens, now);
  return { failures, reopensAtMs: opening.untilMs };
}
