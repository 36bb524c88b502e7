/**
 * Event callbacks to customers (issue 12): the shared vocabulary of the endpoint registry (the
 * broadcast-webhooks function's routes and the admin CLI), the publisher (producers: the delivery
 * event processor, the chunk worker on job completion, the /test route) and the dispatcher (the
 * customer-events queue's consumer). Pure types: adapters implement them in shared/adapters/.
 */

export const CUSTOMER_EVENT_TYPES = [
  'message.status',
  'job.completed',
  'message.received',
  'template.status',
  'template.updated',
  'job.paused',
  'campaign.started',
  'campaign.completed',
  'campaign.paused',
  'message.replied',
  'button.tapped',
  'link.clicked',
] as const;
export type SubscribableEventType = (typeof CUSTOMER_EVENT_TYPES)[number];
/** `webhook.test` goes only to the endpoint it tests, whatever it subscribed to. */
export type CustomerEventType = SubscribableEventType | 'webhook.test';

/** The body POSTed to a customer's URL. `id` is stable across retries and redeliveries (the receiver dedupes on it). */
export interface CustomerEvent {
  id: string;
  type: CustomerEventType;
  /** When the event happened on the platform (ISO); Meta's own time is inside `data` where there is one. */
  createdAt: string;
  data: Record<string, unknown>;
}

export type EndpointState = 'ACTIVE' | 'FAILING';

export interface WebhookEndpoint {
  /** `whk_…` */
  id: string;
  organizationId: string;
  url: string;
  events: SubscribableEventType[];
  state: EndpointState;
  createdAt: string;
  /** Set when deliveries gave up (retry window exhausted); cleared by the next successful delivery. */
  failingSince?: string;
}

/** Where endpoints live (tenancy table). Every method is scoped to the organization: another's id is absent. */
export interface WebhookEndpointRegistry {
  /** Stores the endpoint with its secret encrypted; the plaintext secret is returned by the use case once, never stored. */
  create(endpoint: WebhookEndpoint, secret: string): Promise<void>;
  list(organizationId: string): Promise<WebhookEndpoint[]>;
  get(organizationId: string, endpointId: string): Promise<WebhookEndpoint | undefined>;
  /** False when there was nothing to delete. */
  delete(organizationId: string, endpointId: string): Promise<boolean>;
  /** Active and failing endpoints subscribed to the type (failing ones still get events: they may recover). */
  subscribersOf(organizationId: string, type: SubscribableEventType): Promise<WebhookEndpoint[]>;
  /** The endpoint's signing secret, decrypted (cached briefly in memory by the adapter). */
  secretOf(endpoint: WebhookEndpoint): Promise<string>;
  markFailing(organizationId: string, endpointId: string, since: Date): Promise<void>;
  markActive(organizationId: string, endpointId: string): Promise<void>;
}

/**
 * Producers hand events here. The publisher records the event in the organization's event log
 * (for redelivery) and queues one delivery per subscribed endpoint. Publishing the same event id
 * twice is harmless: receivers see the same `X-Webhook-Id`.
 */
export interface CustomerEventPublisher {
  publish(organizationId: string, event: CustomerEvent): Promise<void>;
  /** Queues one delivery of an event to one endpoint only (the /test route). */
  deliverTo(endpoint: WebhookEndpoint, event: CustomerEvent): Promise<void>;
  /** Queues deliveries of logged events to one endpoint only (redelivery), ten to a queue call. */
  redeliver(endpoint: WebhookEndpoint, events: readonly CustomerEvent[]): Promise<void>;
}

/** The organization's recent events, kept for redelivery (30 days). */
export interface CustomerEventLog {
  find(organizationId: string, eventId: string): Promise<CustomerEvent | undefined>;
  /** Events of the organization created in [from, to), oldest first, at most `limit`. */
  between(organizationId: string, from: Date, to: Date, limit: number): Promise<CustomerEvent[]>;
}

/**
 * DNS as a port (issue 12 item 5): registration checks every address a URL's host resolves to
 * against shared/customer-events/address-policy.ts. Adapter: node:dns lookup with `all`.
 */
export interface HostResolver {
  /** Every IPv4 and IPv6 address of the host name; [] when it has none (unknown name, no records) or DNS cannot answer. */
  resolve(hostname: string): Promise<string[]>;
}
