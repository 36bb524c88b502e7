/**
 * Ports of the delivery half (publisher and dispatcher), next to the shared ones in ports.ts.
 * Implemented by shared/adapters/sqs/sqs-customer-event-queue.ts,
 * shared/adapters/dynamodb/dynamodb-customer-event-log.ts and shared/adapters/http/safe-http-client.ts.
 */
import type { CustomerEventDelivery } from './delivery-message';
import type { CustomerEvent, CustomerEventLog } from './ports';

export interface CustomerEventQueue {
  /** Queues deliveries (SendMessageBatch), each delayed by `delaySeconds` (≤ 900) when given. */
  enqueue(deliveries: readonly CustomerEventDelivery[], options?: { delaySeconds?: number }): Promise<void>;
  /** Parks a delivery that gave up in the queue's dead-letter queue (kept 14 days). */
  deadLetter(delivery: CustomerEventDelivery): Promise<void>;
}

/** The event log as the publisher writes it. */
export interface CustomerEventLogWriter extends CustomerEventLog {
  /**
   * Records the event unless its id is already recorded; returns the event as recorded (the first
   * one: a republish of an id keeps the original `createdAt` and `data`, so every delivery of an id
   * carries the same body).
   */
  record(organizationId: string, event: CustomerEvent): Promise<CustomerEvent>;
}

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
}

/** POSTs one delivery; resolves with any HTTP status, throws WebhookDeliveryError when there is none. */
export interface WebhookTransport {
  post(request: WebhookRequest): Promise<{ status: number }>;
}

/** One endpoint, as its health is kept (per organization and endpoint). */
export interface EndpointKey {
  organizationId: string;
  endpointId: string;
}

/** A lease held on one of an endpoint's concurrency slots (opaque to the dispatcher but for its slot). */
export interface EndpointLease {
  slot: number;
  token: string;
}

/** What the dispatcher knows of an endpoint's recent calls; a fresh endpoint has no failures, no breaker and no lease. */
export interface EndpointHealth {
  /** Calls that failed in a row since the last success. */
  consecutiveFailures: number;
  /** The last failed call got no answer in time: the next ones get the short timeout. */
  lastFailureTimedOut: boolean;
  /** Epoch ms until which the circuit breaker is open (no call); absent when it never opened since the last success. */
  openUntilMs?: number;
  /** Openings since the last success: the next one lasts twice as long as the last. */
  opens: number;
  /** Epoch ms of the last success recorded (refreshed at most every few seconds); absent when none is known. */
  lastSuccessAtMs?: number;
  /** Leases held now; expired ones are not listed. */
  leases: ReadonlyArray<LeaseHeld>;
  /**
   * How long each slot's last group held it in calls to the endpoint (its first POST to its last
   * answer), and when that ended: what the endpoint's share is granted by (time-held-share.ts).
   * Absent when none is known.
   */
  holds?: ReadonlyArray<{ slot: number; heldMs: number; endedAtMs: number }>;
}

/** A live lease on a slot (an endpoint's, or its organization's share of the dispatcher). */
export interface LeaseHeld {
  slot: number;
  acquiredAtMs: number;
  expiresAtMs: number;
}

/**
 * Per-endpoint health for fair delivery (docs/CUSTOMER-WEBHOOKS.md "Fairness"): concurrency leases
 * and the circuit breaker's counters. Single-item conditional writes only; every expiry (a lease's,
 * the item's) is checked in code. Implemented by shared/adapters/dynamodb/dynamodb-webhook-endpoint-health.ts.
 */
export interface EndpointHealthStore {
  read(endpoint: EndpointKey, now: Date): Promise<EndpointHealth>;
  /** Takes `slot` unless a live lease holds it; undefined when it is taken. */
  tryLease(endpoint: EndpointKey, slot: number, now: Date, expiresAt: Date): Promise<EndpointLease | undefined>;
  /**
   * Gives the slot back, recording `held` (the group's time in calls, ending at `endedAt`) as the
   * slot's `holds` entry when given; no effect when the lease expired and another holder took it.
   */
  release(endpoint: EndpointKey, lease: EndpointLease, held?: { ms: number; endedAt: Date }): Promise<void>;
  /** Counts `count` more failed calls in a row; returns the new count. */
  recordFailures(endpoint: EndpointKey, count: number, timedOut: boolean, now: Date): Promise<number>;
  /** Opens the breaker until `until` (the `opens`-th opening since the last success). */
  openBreaker(endpoint: EndpointKey, until: Date, opens: number, now: Date): Promise<void>;
  /** A call succeeded at `now`: no failures, breaker closed, last success now. */
  recordSuccess(endpoint: EndpointKey, now: Date): Promise<void>;
}

/**
 * One organization's share of the dispatcher (docs/CUSTOMER-WEBHOOKS.md "Fairness"): leases on the
 * organization's slots, one per group being delivered to any of its endpoints, so however many
 * endpoints it has it holds at most `organizationConcurrency` of the dispatcher's invocations.
 * Single-item conditional writes; expiry checked in code. Implemented by
 * shared/adapters/dynamodb/dynamodb-webhook-endpoint-health.ts (the same table and class).
 */
export interface OrganizationShareStore {
  /** The organization's live leases; expired ones are not listed. */
  readShare(organizationId: string, now: Date): Promise<{ leases: ReadonlyArray<LeaseHeld> }>;
  /** Takes the organization's `slot` unless a live lease holds it; undefined when it is taken. */
  tryShareLease(organizationId: string, slot: number, now: Date, expiresAt: Date): Promise<EndpointLease | undefined>;
  /** Gives the slot back (no effect when the lease expired and another holder took it). */
  releaseShare(organizationId: string, lease: EndpointLease): Promise<void>;
}
