/**
 * The endpoint registry's use cases (docs/CUSTOMER-WEBHOOKS.md): the broadcast-webhooks routes
 * and the admin CLI call these with their ports. Every id is looked up inside the caller's
 * organization, so another organization's endpoint answers exactly like an unknown one.
 */
import type { SecretGenerator } from '../crypto/secret-generator';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { KeyScope } from '../tenancy/tenancy-entities';
import {
  CustomerEventNotFoundError,
  RedeliveryRangeError,
  WebhookEndpointLimitError,
  WebhookEndpointNotFoundError,
  WebhookManagementOutsideKeyScopeError,
} from './errors';
import type { CustomerEvent, CustomerEventLog, CustomerEventPublisher, HostResolver, WebhookEndpoint, WebhookEndpointRegistry } from './ports';
import { reserveRedeliveries, type RedeliveryQuotaPorts } from './redelivery-quota';
import type { EndpointRegistration, RedeliveryRequest } from './webhook-endpoint.schema';
import { parseWebhookUrl, requirePublicHost, type WebhookUrlPolicy } from './webhook-url';

/** Endpoints per organization: each event fans out to every subscriber, so the count bounds a broadcast's delivery work. */
export const MAX_ENDPOINTS_PER_ORGANIZATION = 10;
/** Widest time range one redelivery request may cover. */
export const MAX_REDELIVERY_RANGE_MS = 7 * 24 * 60 * 60_000;
/** Most events one redelivery request may queue. */
export const MAX_REDELIVERY_EVENTS = 1000;
/** Prefix of generated signing secrets (then 256 random bits, base64url). */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** Who manages endpoints: an organization (routes: the broadcast key's organization; CLI: the operator's --org). */
export interface WebhookManager {
  organizationId: string;
  /** Absent for operators and unbound organization keys. */
  scope?: KeyScope;
}

export interface EndpointRegistrationPorts {
  registry: WebhookEndpointRegistry;
  resolver: HostResolver;
  secrets: SecretGenerator;
  ids: IdGenerator;
  clock: Clock;
  urlPolicy: WebhookUrlPolicy;
}

export interface EndpointDeliveryPorts extends RedeliveryQuotaPorts {
  registry: WebhookEndpointRegistry;
  publisher: CustomerEventPublisher;
  eventLog: CustomerEventLog;
  ids: IdGenerator;
  clock: Clock;
}

/** What the caller sees of an endpoint: never the secret, never the organization. */
export interface EndpointView {
  id: string;
  url: string;
  events: WebhookEndpoint['events'];
  state: WebhookEndpoint['state'];
  createdAt: string;
  failingSince?: string;
}

export const viewOf = (endpoint: WebhookEndpoint): EndpointView => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  state: endpoint.state,
  createdAt: endpoint.createdAt,
  ...(endpoint.failingSince !== undefined ? { failingSince: endpoint.failingSince } : {}),
});

/**
 * An endpoint receives every subscribed event of the organization, whichever sender it concerns,
 * so a key bound to one sender (or minted by generate-key) could read other senders' traffic
 * through it: only organization keys manage endpoints.
 */
export function requireOrganizationWideManager(manager: WebhookManager): void {
  if (manager.scope !== undefined && manager.scope.kind !== 'organization') throw new WebhookManagementOutsideKeyScopeError();
}

/** Registers an endpoint; the plaintext secret is in this answer only. */
export async function registerEndpoint(
  ports: EndpointRegistrationPorts,
  manager: WebhookManager,
  registration: EndpointRegistration,
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  requireOrganizationWideManager(manager);
  const url = parseWebhookUrl(registration.url, ports.urlPolicy);
  await requirePublicHost(ports.resolver, url, ports.urlPolicy);
  // Counted before the write: two registrations racing at 9 may both pass (single-item writes
  // only, no transactions); the limit bounds work, it is not a security boundary.
  const existing = await ports.registry.list(manager.organizationId);
  if (existing.length >= MAX_ENDPOINTS_PER_ORGANIZATION) throw new WebhookEndpointLimitError(MAX_ENDPOINTS_PER_ORGANIZATION);
  const endpoint: WebhookEndpoint = {
    id: ports.ids.newId('whk'),
    organizationId: manager.organizationId,
    url: url.href,
    events: [...registration.events],
    state: 'ACTIVE',
    createdAt: ports.clock.now().toISOString(),
  };
  const secret = ports.secrets.generateSecret(WEBHOOK_SECRET_PREFIX);
  await ports.registry.create(endpoint, secret);
  return { endpoint, secret };
}

export async function listEndpoints(ports: Pick<EndpointRegistrationPorts, 'registry'>, manager: WebhookManager): Promise<WebhookEndpoint[]> {
  requireOrganizationWideManager(manager);
  const endpoints = await ports.registry.list(manager.organizationId);
  return [...endpoints].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
}

export async function deleteEndpoint(ports: Pick<EndpointRegistrationPorts, 'registry'>, manager: WebhookManager, endpointId: string): Promise<void> {
  requireOrganizationWideManager(manager);
  if (!(await ports.registry.delete(manager.organizationId, endpointId))) throw new WebhookEndpointNotFoundError();
}

async function endpointOf(registry: WebhookEndpointRegistry, manager: WebhookManager, endpointId: string): Promise<WebhookEndpoint> {
  requireOrganizationWideManager(manager);
  const endpoint = await registry.get(manager.organizationId, endpointId);
  if (!endpoint) throw new WebhookEndpointNotFoundError();
  return endpoint;
}

/** Queues one `webhook.test` event to this endpoint only (whatever it subscribed to). */
export async function sendTestEvent(ports: EndpointDeliveryPorts, manager: WebhookManager, endpointId: string): Promise<CustomerEvent> {
  const endpoint = await endpointOf(ports.registry, manager, endpointId);
  const event: CustomerEvent = {
    id: ports.ids.newId('evt'),
    type: 'webhook.test',
    createdAt: ports.clock.now().toISOString(),
    data: { webhookId: endpoint.id, message: 'Test event: this endpoint is reachable and verifies signatures' },
  };
  // Read only now: the publisher is built on first use, after the endpoint proved to be the caller's.
  await ports.publisher.deliverTo(endpoint, event);
  return event;
}

/**
 * Queues again, to this endpoint only, one logged event or the events of a time range that the
 * endpoint subscribes to. The event ids are the original ones, so receivers dedupe as usual. The
 * events count against the organization's daily redelivery quota, all or nothing, before any is queued.
 */
export async function redeliverEvents(
  ports: EndpointDeliveryPorts,
  manager: WebhookManager,
  endpointId: string,
  request: RedeliveryRequest,
): Promise<{ queued: number }> {
  const endpoint = await endpointOf(ports.registry, manager, endpointId);
  const events =
    'eventId' in request
      ? [await oneLoggedEvent(ports.eventLog, manager.organizationId, request.eventId)]
      : await eventsInRange(ports.eventLog, manager.organizationId, request);
  const subscribed = events.filter((event) => (endpoint.events as readonly string[]).includes(event.type));
  await reserveRedeliveries(ports, manager.organizationId, subscribed.length, ports.clock.now());
  if (subscribed.length > 0) await ports.publisher.redeliver(endpoint, subscribed);
  return { queued: subscribed.length };
}

async function oneLoggedEvent(eventLog: CustomerEventLog, organizationId: string, eventId: string): Promise<CustomerEvent> {
  const event = await eventLog.find(organizationId, eventId);
  if (!event) throw new CustomerEventNotFoundError();
  return event;
}

async function eventsInRange(eventLog: CustomerEventLog, organizationId: string, range: { from: Date; to: Date }): Promise<CustomerEvent[]> {
  const span = range.to.getTime() - range.from.getTime();
  if (!(span > 0)) throw new RedeliveryRangeError('to must be later than from');
  if (span > MAX_REDELIVERY_RANGE_MS) throw new RedeliveryRangeError('from and to must be at most 7 days apart');
  // One more than allowed tells "exactly the limit" from "too many" without counting the whole range.
  const events = await eventLog.between(organizationId, range.from, range.to, MAX_REDELIVERY_EVENTS + 1);
  if (events.length > MAX_REDELIVERY_EVENTS) {
    throw new RedeliveryRangeError(`the range holds more than ${MAX_REDELIVERY_EVENTS.toLocaleString('en-US')} events; narrow from and to`);
  }
  return events;
}
