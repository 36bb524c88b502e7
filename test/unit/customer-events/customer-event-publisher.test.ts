import type { CustomerEventDelivery } from '../../../shared/customer-events/delivery-message';
import type { CustomerEventLogWriter, CustomerEventQueue } from '../../../shared/customer-events/delivery-ports';
import { QueueingCustomerEventPublisher } from '../../../shared/customer-events/customer-event-publisher';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { fixedClock } from '../../../shared/ports/clock';
import { FakeWebhookRegistry } from '../../support/fake-webhook-registry';

class MemoryLog implements CustomerEventLogWriter {
  readonly events = new Map<string, CustomerEvent>();
  writes = 0;
  async record(organizationId: string, event: CustomerEvent): Promise<CustomerEvent> {
    const key = `${organizationId}/${event.id}`;
    if (!this.events.has(key)) {
      this.writes += 1;
      this.events.set(key, event);
    }
    return this.events.get(key)!;
  }
  async find(organizationId: string, eventId: string) {
    return this.events.get(`${organizationId}/${eventId}`);
  }
  async between() {
    return [...this.events.values()];
  }
}

class MemoryQueue implements CustomerEventQueue {
  readonly queued: CustomerEventDelivery[] = [];
  readonly calls: Array<{ size: number; delaySeconds?: number }> = [];
  async enqueue(deliveries: readonly CustomerEventDelivery[], options?: { delaySeconds?: number }) {
    this.queued.push(...deliveries);
    this.calls.push({ size: deliveries.length, delaySeconds: options?.delaySeconds });
  }
  async deadLetter() {
    throw new Error('publishers never dead-letter');
  }
}

const now = '2025-05-01T12:00:00.000Z';
const event = (overrides: Partial<CustomerEvent> = {}): CustomerEvent => ({
  id: 'evt_1',
  type: 'message.status',
  createdAt: now,
  data: { n: 1 },
  ...overrides,
});

function setup() {
  const registry = new FakeWebhookRegistry();
  registry.add('org_a', 'whk_1', 'https://a.example.com/1', 's1');
  registry.add('org_a', 'whk_2', 'https://a.example.com/2', 's2', ['job.completed']);
  registry.add('org_a', 'whk_3', 'https://a.example.com/3', 's3', ['message.status']);
  registry.add('org_b', 'whk_9', 'https://b.example.com/9', 's9');
  const log = new MemoryLog();
  const queue = new MemoryQueue();
  const publisher = new QueueingCustomerEventPublisher({ log, queue, registry, clock: fixedClock(now) });
  return { registry, log, queue, publisher };
}

describe('publishing customer events', () => {
  it('records the event and queues one delivery per subscribed endpoint of the organization', async () => {
    const { log, queue, publisher } = setup();
    await publisher.publish('org_a', event());
    expect(log.writes).toBe(1);
    expect(queue.queued.map((delivery) => delivery.endpointId).sort()).toEqual(['whk_1', 'whk_3']);
    expect(queue.queued[0]).toEqual({ version: 1, organizationId: 'org_a', endpointId: expect.any(String), event: event(), firstAttemptAt: now, attempts: 0 });
  });

  it('republishing an id records nothing new and delivers the first recorded body again', async () => {
    const { log, queue, publisher } = setup();
    await publisher.publish('org_a', event());
    await publisher.publish('org_a', event({ createdAt: '2025-05-01T12:00:09.000Z', data: { n: 2 } }));
    expect(log.writes).toBe(1);
    expect(queue.queued).toHaveLength(4);
    expect(new Set(queue.queued.map((delivery) => JSON.stringify(delivery.event)))).toEqual(new Set([JSON.stringify(event())]));
  });

  it('neither logs nor queues an event nobody subscribed to, and never queues a test event by subscription', async () => {
    const { queue, publisher, log } = setup();
    await publisher.publish('org_c', event());
    expect(log.writes).toBe(0);
    await publisher.publish('org_a', event({ id: 'evt_t', type: 'webhook.test' }));
    expect(queue.queued).toHaveLength(0);
    expect(log.writes).toBe(1);
  });

  it('deliverTo queues exactly one delivery to that endpoint', async () => {
    const { registry, queue, publisher } = setup();
    const endpoint = (await registry.get('org_a', 'whk_2'))!;
    await publisher.deliverTo(endpoint, event({ id: 'evt_t', type: 'webhook.test' }));
    expect(queue.queued).toEqual([expect.objectContaining({ organizationId: 'org_a', endpointId: 'whk_2', event: expect.objectContaining({ id: 'evt_t' }) })]);
  });

  it('redeliver paces the events: ten per second of delay, in order, to that endpoint only', async () => {
    const { registry, queue, publisher } = setup();
    const endpoint = (await registry.get('org_a', 'whk_3'))!;
    const events = Array.from({ length: 25 }, (_, index) => event({ id: `evt_${index}` }));
    await publisher.redeliver(endpoint, events);
    expect(queue.calls).toEqual([{ size: 10 }, { size: 10, delaySeconds: 1 }, { size: 5, delaySeconds: 2 }]);
    expect(queue.queued.map((delivery) => delivery.event.id)).toEqual(events.map((entry) => entry.id));
    expect(new Set(queue.queued.map((delivery) => delivery.endpointId))).toEqual(new Set(['whk_3']));
  });
});

describe('a publisher for one webhook batch', () => {
  const counting = (registry: FakeWebhookRegistry) => {
    const reads: string[] = [];
    let failNext = false;
    const counted = {
      subscribersOf: async (organizationId: string, type: CustomerEvent['type']) => {
        reads.push(`${organizationId}/${type}`);
        if (failNext) {
          failNext = false;
          throw new Error('store unavailable');
        }
        return registry.subscribersOf(organizationId, type as never);
      },
    };
    return { reads, counted, failNextRead: () => (failNext = true) };
  };

  it("reads each organization's subscribers once per type for all of the batch's events", async () => {
    const { registry, log, queue } = setup();
    const { reads, counted } = counting(registry);
    const publisher = new QueueingCustomerEventPublisher({ log, queue, registry: counted, clock: fixedClock(now) }).forBatch();
    for (let n = 1; n <= 5; n += 1) await publisher.publish('org_a', event({ id: `evt_${n}` }));
    await publisher.publish('org_b', event({ id: 'evt_b' }));
    await publisher.publish('org_a', event({ id: 'evt_done', type: 'job.completed' }));
    expect(reads).toEqual(['org_a/message.status', 'org_b/message.status', 'org_a/job.completed']);
    // Every event still reaches every subscriber.
    expect(queue.queued.filter((delivery) => delivery.organizationId === 'org_a' && delivery.event.type === 'message.status')).toHaveLength(10);
  });

  it('reads again after a failed read, and a new batch sees endpoints registered since', async () => {
    const { registry, log, queue } = setup();
    const { reads, counted, failNextRead } = counting(registry);
    const base = new QueueingCustomerEventPublisher({ log, queue, registry: counted, clock: fixedClock(now) });
    const first = base.forBatch();
    failNextRead();
    await expect(first.publish('org_b', event())).rejects.toThrow('store unavailable');
    await first.publish('org_b', event());
    expect(reads).toEqual(['org_b/message.status', 'org_b/message.status']);
    registry.add('org_b', 'whk_10', 'https://b.example.com/10', 's10');
    await base.forBatch().publish('org_b', event({ id: 'evt_2' }));
    expect(
      queue.queued
        .filter((delivery) => delivery.event.id === 'evt_2')
        .map((delivery) => delivery.endpointId)
        .sort(),
    ).toEqual(['whk_10', 'whk_9']);
  });
});
