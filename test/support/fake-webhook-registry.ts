/**
 * An in-memory WebhookEndpointRegistry for the delivery tests (unit, and integration through the
 * local runtime's overrides) while the DynamoDB registry lives on its own branch. Secrets in plain
 * text: nothing here is stored.
 */
import type { SubscribableEventType, WebhookEndpoint, WebhookEndpointRegistry } from '../../shared/customer-events/ports';

export class FakeWebhookRegistry implements WebhookEndpointRegistry {
  private readonly endpoints = new Map<string, { endpoint: WebhookEndpoint; secret: string }>();
  readonly failingMarks: Array<{ organizationId: string; endpointId: string; since: Date }> = [];
  readonly activeMarks: Array<{ organizationId: string; endpointId: string }> = [];

  /** Registers an endpoint (subscribed to every type unless told) and returns it. */
  add(organizationId: string, id: string, url: string, secret: string, events?: SubscribableEventType[]): WebhookEndpoint {
    const endpoint: WebhookEndpoint = {
      id,
      organizationId,
      url,
      events: events ?? ['message.status', 'job.completed', 'message.received', 'template.status'],
      state: 'ACTIVE',
      createdAt: new Date(0).toISOString(),
    };
    this.endpoints.set(this.key(organizationId, id), { endpoint, secret });
    return endpoint;
  }

  async create(endpoint: WebhookEndpoint, secret: string): Promise<void> {
    this.endpoints.set(this.key(endpoint.organizationId, endpoint.id), { endpoint: { ...endpoint }, secret });
  }

  async list(organizationId: string): Promise<WebhookEndpoint[]> {
    return [...this.endpoints.values()].filter((entry) => entry.endpoint.organizationId === organizationId).map((entry) => ({ ...entry.endpoint }));
  }

  async get(organizationId: string, endpointId: string): Promise<WebhookEndpoint | undefined> {
    const entry = this.endpoints.get(this.key(organizationId, endpointId));
    return entry ? { ...entry.endpoint } : undefined;
  }

  async delete(organizationId: string, endpointId: string): Promise<boolean> {
    return this.endpoints.delete(this.key(organizationId, endpointId));
  }

  async subscribersOf(organizationId: string, type: SubscribableEventType): Promise<WebhookEndpoint[]> {
    return (await this.list(organizationId)).filter((endpoint) => endpoint.events.includes(type));
  }

  async secretOf(endpoint: WebhookEndpoint): Promise<string> {
    const entry = this.endpoints.get(this.key(endpoint.organizationId, endpoint.id));
    if (!entry) throw new Error(`no endpoint ${endpoint.id}`);
    return entry.secret;
  }

  async markFailing(organizationId: string, endpointId: string, since: Date): Promise<void> {
    this.failingMarks.push({ organizationId, endpointId, since });
    const entry = this.endpoints.get(this.key(organizationId, endpointId));
    if (entry && entry.endpoint.state !== 'FAILING') entry.endpoint = { ...entry.endpoint, state: 'FAILING', failingSince: since.toISOString() };
  }

  async markActive(organizationId: string, endpointId: string): Promise<void> {
    this.activeMarks.push({ organizationId, endpointId });
    const entry = this.endpoints.get(this.key(organizationId, endpointId));
    if (entry) entry.endpoint = { ...entry.endpoint, state: 'ACTIVE', failingSince: undefined };
  }

  private key(organizationId: string, endpointId: string): string {
    return `${organizationId}\n${endpointId}`;
  }
}
