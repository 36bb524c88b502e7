/** In-memory stand-ins of the customer-event ports, for unit tests only. */
import { WebhookEndpointNotFoundError } from '../../shared/customer-events/errors';
import type {
  CustomerEvent,
  CustomerEventLog,
  CustomerEventPublisher,
  HostResolver,
  SubscribableEventType,
  WebhookEndpoint,
  WebhookEndpointRegistry,
} from '../../shared/customer-events/ports';

export class InMemoryWebhookRegistry implements WebhookEndpointRegistry {
  /** Secrets as the fake keeps them (the DynamoDB adapter keeps only ciphertext). */
  readonly secrets = new Map<string, string>();
  private readonly endpoints = new Map<string, WebhookEndpoint>();
  private key = (organizationId: string, endpointId: string) => `${organizationId}/${endpointId}`;

  async create(endpoint: WebhookEndpoint, secret: string): Promise<void> {
    if (this.endpoints.has(this.key(endpoint.organizationId, endpoint.id))) throw new Error(`endpoint ${endpoint.id} exists`);
    this.endpoints.set(this.key(endpoint.organizationId, endpoint.id), structuredClone(endpoint));
    this.secrets.set(endpoint.id, secret);
  }
  async list(organizationId: string): Promise<WebhookEndpoint[]> {
    return [...this.endpoints.values()].filter((endpoint) => endpoint.organizationId === organizationId).map((endpoint) => structuredClone(endpoint));
  }
  async get(organizationId: string, endpointId: string): Promise<WebhookEndpoint | undefined> {
    const endpoint = this.endpoints.get(this.key(organizationId, endpointId));
    return endpoint && structuredClone(endpoint);
  }
  async delete(organizationId: string, endpointId: string): Promise<boolean> {
    return this.endpoints.delete(this.key(organizationId, endpointId));
  }
  async subscribersOf(organizationId: string, type: SubscribableEventType): Promise<WebhookEndpoint[]> {
    return (await this.list(organizationId)).filter((endpoint) => endpoint.events.includes(type));
  }
  async secretOf(endpoint: WebhookEndpoint): Promise<string> {
    if (!this.endpoints.has(this.key(endpoint.organizationId, endpoint.id))) throw new WebhookEndpointNotFoundError();
    return this.secrets.get(endpoint.id)!;
  }
  async markFailing(organizationId: string, endpointId: string, since: Date): Promise<void> {
    const endpoint = this.endpoints.get(this.key(organizationId, endpointId));
    if (endpoint) Object.assign(endpoint, { state: 'FAILING', failingSince: endpoint.failingSince ?? since.toISOString() });
  }
  async markActive(organizationId: string, endpointId: string): Promise<void> {
    const endpoint = this.endpoints.get(this.key(organizationId, endpointId));
    if (endpoint) {
      endpoint.state = 'ACTIVE';
      delete endpoint.failingSince;
    }
  }
}

export class RecordingPublisher implements CustomerEventPublisher {
  readonly published: Array<{ organizationId: string; event: CustomerEvent }> = [];
  readonly delivered: Array<{ endpointId: string; event: CustomerEvent }> = [];
  async publish(organizationId: string, event: CustomerEvent): Promise<void> {
    this.published.push({ organizationId, event });
  }
  async deliverTo(endpoint: WebhookEndpoint, event: CustomerEvent): Promise<void> {
    this.delivered.push({ endpointId: endpoint.id, event });
  }
  async redeliver(endpoint: WebhookEndpoint, events: readonly CustomerEvent[]): Promise<void> {
    for (const event of events) this.delivered.push({ endpointId: endpoint.id, event });
  }
}

export class InMemoryEventLog implements CustomerEventLog {
  readonly events: Array<{ organizationId: string; event: CustomerEvent }> = [];
  readonly limits: number[] = [];
  add(organizationId: string, event: CustomerEvent): void {
    this.events.push({ organizationId, event });
  }
  async find(organizationId: string, eventId: string): Promise<CustomerEvent | undefined> {
    return this.events.find((entry) => entry.organizationId === organizationId && entry.event.id === eventId)?.event;
  }
  async between(organizationId: string, from: Date, to: Date, limit: number): Promise<CustomerEvent[]> {
    this.limits.push(limit);
    return this.events
      .filter((entry) => entry.organizationId === organizationId)
      .map((entry) => entry.event)
      .filter((event) => event.createdAt >= from.toISOString() && event.createdAt < to.toISOString())
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
      .slice(0, limit);
  }
}

/** A fixed DNS table; unknown names have no address. */
export const tableResolver = (table: Record<string, string[]>): HostResolver & { asked: string[] } => {
  const asked: string[] = [];
  return {
    asked,
    resolve: async (hostname) => {
      asked.push(hostname);
      return table[hostname] ?? [];
    },
  };
};
