/**
 * Producers hand events to the publisher: when an endpoint of the organization subscribes to the
 * type, it records the event in the organization's log (for redelivery; a republished id is not
 * recorded twice) and queues one delivery per subscribed endpoint. Queuing happens on every publish, even of a known id: a first publish may have died
 * between the log and the queue, and receivers dedupe on the id anyway (at least once).
 */
import type { Clock } from '../ports/clock';
import type { CustomerEventDelivery } from './delivery-message';
import type { CustomerEventLogWriter, CustomerEventQueue } from './delivery-ports';
import type { CustomerEvent, CustomerEventPublisher, WebhookEndpoint, WebhookEndpointRegistry } from './ports';
import { MAX_SQS_DELAY_SECONDS } from './retry-schedule';

/** Redelivered events queued per second of delay (docs/CUSTOMER-WEBHOOKS.md "Fairness"). */
export const REDELIVERY_EVENTS_PER_SECOND = 10;

export interface CustomerEventPublisherDependencies {
  log: CustomerEventLogWriter;
  queue: CustomerEventQueue;
  registry: Pick<WebhookEndpointRegistry, 'subscribersOf'>;
  clock: Clock;
}

export class QueueingCustomerEventPublisher implements CustomerEventPublisher {
  constructor(private readonly dependencies: CustomerEventPublisherDependencies) {}

  /**
   * A publisher for one unit of work (one Meta webhook POST): each organization's subscribers are
   * read once for all its events, not once per event (a POST of 100 statuses read them 100 times,
   * one after another). An endpoint registered while the unit runs receives the next unit's events.
   *
   * @example
   * const batchEvents = publisher.forBatch();
   * for (const event of statusEvents) await batchEvents.publish(organizationId, event); // one registry read
   */
  forBatch(): QueueingCustomerEventPublisher {
    return new QueueingCustomerEventPublisher({ ...this.dependencies, registry: subscribersReadOnce(this.dependencies.registry) });
  }

  async publish(organizationId: string, event: CustomerEvent): Promise<void> {
    // A test event goes only where /test sends it (deliverTo); nobody subscribes to it.
    if (event.type === 'webhook.test') {
      await this.dependencies.log.record(organizationId, event);
      return;
    }
    // Most events of most organizations have no subscriber: nothing is logged or queued for them
    // (a delivery event costs one read then, not two writes; redelivery covers subscribed events).
    const endpoints = await this.dependencies.registry.subscribersOf(organizationId, event.type);
    if (endpoints.length === 0) return;
    const recorded = await this.dependencies.log.record(organizationId, event);
    await this.dependencies.queue.enqueue(endpoints.map((endpoint) => this.deliveryOf(endpoint, recorded)));
  }

  async deliverTo(endpoint: WebhookEndpoint, event: CustomerEvent): Promise<void> {
    await this.dependencies.queue.enqueue([this.deliveryOf(endpoint, event)]);
  }

  /**
   * Paced: REDELIVERY_EVENTS_PER_SECOND events become visible per second (1,000 over 100 s), so a
   * redelivery adds a trickle to the shared queue, not a backlog in front of every other organization's events.
   */
  async redeliver(endpoint: WebhookEndpoint, events: readonly CustomerEvent[]): Promise<void> {
    const seconds: Array<Promise<void>> = [];
    for (let start = 0; start < events.length; start += REDELIVERY_EVENTS_PER_SECOND) {
      const second = events.slice(start, start + REDELIVERY_EVENTS_PER_SECOND).map((event) => this.deliveryOf(endpoint, event));
      const delaySeconds = Math.min(MAX_SQS_DELAY_SECONDS, start / REDELIVERY_EVENTS_PER_SECOND);
      seconds.push(this.dependencies.queue.enqueue(second, delaySeconds > 0 ? { delaySeconds } : undefined));
    }
    await Promise.all(seconds);
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

/** The registry's subscribers per organization and type, each read once (a failed read is not kept). */
function subscribersReadOnce(registry: Pick<WebhookEndpointRegistry, 'subscribersOf'>): Pick<WebhookEndpointRegistry, 'subscribersOf'> {
  const reads = new Map<string, Promise<WebhookEndpoint[]>>();
  return {
    subscribersOf(organizationId, type) {
      const key = `${organizationId}\n${type}`;
      let read = reads.get(key);
      if (!read) {
        read = registry.subscribersOf(organizationId, type);
        reads.set(key, read);
        read.catch(() => reads.delete(key));
      }
      return read;
    },
  };
}
