/**
 * The customer-events dispatcher in the scale simulation: the REAL dispatcher
 * (shared/customer-events/dispatch-customer-event.ts with its per-endpoint and per-organization
 * fairness, breaker, retries and re-queues) on the in-memory fairness fakes, its health store's
 * calls taking the DynamoDB model's round trip, fed by the statuses the delivery-events consumer
 * applies for organizations that subscribe. Modelled: the publisher (one `message.status` delivery
 * per subscribed endpoint per status, queued at once; the event log's write is not charged), the
 * endpoints (healthy ones answer 200 after a log-normal time; the failing organization's accept the
 * connection and never answer, so each call lasts its whole timeout), the registry (in memory, no
 * round trip: the real one is cached).
 */
import type { CustomerEventDelivery } from '../../../shared/customer-events/delivery-message';
import type { CustomerEventQueue, WebhookRequest, WebhookTransport } from '../../../shared/customer-events/delivery-ports';
import { dispatchCustomerEvents, type DispatchDependencies } from '../../../shared/customer-events/dispatch-customer-event';
import { WebhookDeliveryError } from '../../../shared/customer-events/errors';
import type { BatchEventPublisher } from '../../../shared/delivery/apply-webhook-batch';
import { EVENT_ID_HEADER } from '../../../shared/customer-events/signing';
import { InMemoryEndpointHealthStore, testFairness } from '../customer-event-fairness-fakes';
import { FakeWebhookRegistry } from '../fake-webhook-registry';
import { meteredStore, type DynamoModel } from './dynamo-model';
import type { BatchHandler } from './lambda-event-source-model';
import { logNormal, type Random } from './seeded-random';
import type { SqsModel } from './sqs-model';
import type { VirtualScheduler } from './virtual-scheduler';

export interface CustomerEventsLoad {
  /** Organization `i` subscribes (one endpoint, `message.status`) when `i % subscriberEvery === 0`. */
  subscriberEvery: number;
  /** The organization whose endpoints all fail (never answer), and how many it has. */
  failingOrganization: number;
  failingEndpoints: number;
  /** A healthy endpoint's answer time (log-normal median). */
  endpointMedianMs: number;
}

/** What the dispatcher did, per side: the other organizations' delays, the failing organization's calls. */
export interface CustomerEventFigures {
  published: number;
  /** Other organizations: deliveries that reached their endpoint, and publish-to-endpoint times (first arrival). */
  othersDelivered: number;
  othersPending: number;
  /** Of the quiet organizations (single messages only: a few events a second), and of the busy ones (draining: 240 a second to one endpoint). */
  quietDelaysMs: number[];
  busyDelaysMs: number[];
  failingCalls: number;
  failingDeadLettered: number;
  deferred: number;
}

/** The app's default delivery settings (app-config: 24 h retry window, 10 s timeout). */
const DELIVERY_SETTINGS = { retryWindowMs: 24 * 3_600_000, backoffBaseMs: 10_000, backoffCapMs: 900_000, timeoutMs: 10_000 };

export class CustomerEventsModel {
  private readonly registry = new FakeWebhookRegistry();
  /** Each subscribing organization's endpoint ids. */
  private readonly endpoints = new Map<string, string[]>();
  /** Other organizations' events not delivered yet: when published, and whether their organization is busy. */
  private readonly publishedAt = new Map<string, { at: number; busy: boolean }>();
  private readonly failingOrganizationId: string;
  readonly figures: CustomerEventFigures = {
    published: 0,
    othersDelivered: 0,
    othersPending: 0,
    quietDelaysMs: [],
    busyDelaysMs: [],
    failingCalls: 0,
    failingDeadLettered: 0,
    deferred: 0,
  };

  constructor(
    private readonly time: VirtualScheduler,
    private readonly queue: SqsModel<CustomerEventDelivery>,
    private readonly load: CustomerEventsLoad,
    organizations: number,
    /** Organizations `org_0` up to this one (excluded) drain broadcasts or campaigns. */
    private readonly busyOrganizations: number,
    private readonly random: Random,
  ) {
    this.failingOrganizationId = `org_${load.failingOrganization}`;
    for (let index = 0; index < organizations; index += 1) {
      const organizationId = `org_${index}`;
      const failing = index === load.failingOrganization;
      if (!failing && index % load.subscriberEvery !== 0) continue;
      const count = failing ? load.failingEndpoints : 1;
      const ids = Array.from({ length: count }, (_, endpoint) => `whk_${index}_${endpoint}`);
      ids.forEach((id) =>
        this.registry.add(organizationId, id, `https://${failing ? 'failing' : 'ok'}.example.com/${id}`, `whsec_${index}`, ['message.status']),
      );
      this.endpoints.set(organizationId, ids);
    }
  }

  /**
   * The publisher, modelled: each event the real delivery-events use case publishes (`message.status`
   * of an applied status), one delivery per subscribed endpoint, queued at once.
   */
  readonly publisher: BatchEventPublisher = {
    publish: async (organizationId, event) => {
      const endpoints = this.endpoints.get(organizationId);
      if (!endpoints) return;
      const now = this.time.now();
      this.figures.published += 1;
      if (organizationId !== this.failingOrganizationId)
        this.publishedAt.set(event.id, { at: now.getTime(), busy: Number(organizationId.slice(4)) < this.busyOrganizations });
      const deliveries = endpoints.map(
        (endpointId): CustomerEventDelivery => ({ version: 1, organizationId, endpointId, event, firstAttemptAt: now.toISOString(), attempts: 0 }),
      );
      this.queue.send(deliveries, organizationId);
    },
  };

  /** The customer-events function: the batch through the real dispatcher; a fault of our stores hands its record back. */
  handler(dynamo: DynamoModel): BatchHandler<CustomerEventDelivery> {
    const dependencies = this.dependencies(dynamo);
    return async (messages) => {
      const results = await dispatchCustomerEvents(
        dependencies,
        messages.map((message) => message.body),
      );
      const failedIds: number[] = [];
      results.forEach((result, index) => {
        if ('error' in result) failedIds.push(messages[index]!.id);
        else if (result.outcome.kind === 'deferred' || result.outcome.kind === 'retry-scheduled') this.figures.deferred += 1;
      });
      return { failedIds };
    };
  }

  /** Deliveries of the other organizations never delivered by the end (still queued, or given up). */
  finish(): CustomerEventFigures {
    this.figures.othersPending = this.publishedAt.size;
    return this.figures;
  }

  private dependencies(dynamo: DynamoModel): DispatchDependencies {
    const queue: CustomerEventQueue = {
      enqueue: async (deliveries, options = {}) => {
        for (const delivery of deliveries) this.queue.send([delivery], delivery.organizationId, options.delaySeconds ?? 0);
      },
      deadLetter: async (delivery) => {
        if (delivery.organizationId === this.failingOrganizationId) this.figures.failingDeadLettered += 1;
      },
    };
    return {
      registry: this.registry,
      health: meteredStore(new InMemoryEndpointHealthStore(), dynamo),
      transport: this.transport(),
      queue,
      clock: this.time,
      random: this.random,
      sleep: this.time.sleep,
      settings: DELIVERY_SETTINGS,
      fairness: testFairness,
    };
  }

  /** The endpoints: the failing organization's hang until the call's timeout; the others answer 200. */
  private transport(): WebhookTransport {
    return {
      post: async (request: WebhookRequest) => {
        if (request.url.startsWith('https://failing.')) {
          this.figures.failingCalls += 1;
          await this.time.sleep(request.timeoutMs);
          throw new WebhookDeliveryError('TIMEOUT', 'no answer in time (modelled)');
        }
        const id = request.headers[EVENT_ID_HEADER]!;
        const published = this.publishedAt.get(id);
        if (published !== undefined) {
          this.publishedAt.delete(id);
          this.figures.othersDelivered += 1;
          (published.busy ? this.figures.busyDelaysMs : this.figures.quietDelaysMs).push(this.time.nowMs() - published.at);
        }
        await this.time.sleep(logNormal(this.random, this.load.endpointMedianMs, 0.4));
        return { status: 200 };
      },
    };
  }
}
