/**
 * Producers hand events to the publisher: it records the event in the organization's log (for
 * redelivery; a republished id is not recorded twice) and queues one delivery per subscribed
 * endpoint. Queuing happens on every publish, even of a known id: a first publish may have died
 * between the log and the queue, and receivers dedupe on the id anyway (at least once).
 */
import type { Clock } from '../ports/clock';
import type { CustomerEventDelivery } from './delivery-message';
import type { CustomerEventLogWriter, CustomerEventQueue } from './delivery-ports';
import type { CustomerEvent, CustomerEventPublisher, WebhookEndpoint, WebhookEndpointRegistry } from './ports';

export interface CustomerEventPublisherDependencies {
  log: CustomerEventLogWriter;
  queue: CustomerEventQueue;
  registry: Pick<WebhookEndpointRegistry, 'subscribersOf'>;
  clock: Clock;
}

export class QueueingCustomerEventPublisher implements CustomerEventPublisher {
  constructor(private readonly dependencies: CustomerEventPublisherDependencies) {}

  async publish(organizationId: string, event: CustomerEvent): Promise<void> {
    const recorded = await this.dependencies.log.record(organizationId, event);
    // A test event goes only where /test sends it (deliverTo); nobody subscribes to it.
    if (recorded.type === 'webhook.test') return;
    const endpoints = await this.dependencies.registry.subscribersOf(organizationId, recorded.type);
    if (endpoints.length === 0) return;
    await this.dependencies.queue.enqueue(endpoints.map((endpoint) => this.deliveryOf(endpoint, recorded)));
  }

  async deliverTo(endpoint: WebhookEndpoint, event: CustomerEvent): Promise<void> {
    await this.dependencies.queue.enqueue([this.deliveryOf(endpoint, event)]);
  }

  private deliveryOf(endpoint: WebhookEndpoint, event: CustomerEvent): CustomerEventDelivery {
    return {
      version: 1,
      organizationId: endpoint.organizationId,
      endpointId: endpoint.id,
      event,
      firstAttemptAt: this.dependencies.clock.now().toISOString(),
      attempts: 0,
    };
  }
}
