import type { SQSEvent } from 'aws-lambda';
import type { CustomerEventDelivery } from '../../../shared/customer-events/delivery-message';
import { decodeDelivery, encodeDelivery } from '../../../shared/customer-events/delivery-message';
import type { CustomerEventQueue, WebhookRequest, WebhookTransport } from '../../../shared/customer-events/delivery-ports';
import { dispatchCustomerEvents, type DispatchDependencies, type DispatchOutcome } from '../../../shared/customer-events/dispatch-customer-event';
import { WebhookDeliveryError } from '../../../shared/customer-events/errors';
import { verifyCustomerEvent } from '../../../shared/customer-events/signing';
import { handleCustomerEventBatch } from '../../../functions/customer-events/handle-customer-event-batch';
import { fixedClock } from '../../../shared/ports/clock';
import { InMemoryEndpointHealthStore, testFairness } from '../../support/customer-event-fairness-fakes';
import { FakeWebhookRegistry } from '../../support/fake-webhook-registry';

/** The dispatcher as the single-record handler was before batches: one delivery, its outcome, or its store fault thrown. */
async function dispatchCustomerEvent(dependencies: DispatchDependencies, delivery: CustomerEventDelivery): Promise<DispatchOutcome> {
  const [result] = await dispatchCustomerEvents(dependencies, [delivery]);
  if ('error' in result!) throw result.error;
  return result!.outcome;
}

const secret = 'whsec_unit';
const start = '2025-05-01T00:00:00.000Z';

/** Answers with the scripted statuses (or errors) in order, recording every request. */
class ScriptedTransport implements WebhookTransport {
  readonly requests: WebhookRequest[] = [];
  constructor(private readonly script: Array<number | WebhookDeliveryError>) {}
  async post(request: WebhookRequest): Promise<{ status: number }> {
    this.requests.push(request);
    const next = this.script.shift();
    if (next === undefined) throw new Error('unscripted request');
    if (next instanceof WebhookDeliveryError) throw next;
    return { status: next };
  }
}

/** A queue whose messages the test replays by hand, as SQS would after the delay. */
class RecordingQueue implements CustomerEventQueue {
  readonly queued: Array<{ delivery: CustomerEventDelivery; delaySeconds?: number }> = [];
  readonly deadLetters: CustomerEventDelivery[] = [];
  async enqueue(deliveries: readonly CustomerEventDelivery[], options: { delaySeconds?: number } = {}): Promise<void> {
    // Through the wire format, as SQS carries it.
    for (const delivery of deliveries) this.queued.push({ delivery: decodeDelivery(encodeDelivery(delivery)), delaySeconds: options.delaySeconds });
  }
  async deadLetter(delivery: CustomerEventDelivery): Promise<void> {
    this.deadLetters.push(delivery);
  }
}

function setup(script: Array<number | WebhookDeliveryError>, settings: Partial<DispatchDependencies['settings']> = {}) {
  const registry = new FakeWebhookRegistry();
  const endpoint = registry.add('org_a', 'whk_1', 'https://hooks.example.com/in?token=abc', secret);
  const transport = new ScriptedTransport(script);
  const queue = new RecordingQueue();
  const clock = fixedClock(start);
  const dependencies: DispatchDependencies = {
    registry,
    health: new InMemoryEndpointHealthStore(),
    fairness: testFairness,
    transport,
    queue,
    clock,
    random: () => 0.5,
    sleep: async (ms: number) => clock.advanceBy(ms),
    settings: { retryWindowMs: 24 * 3_600_000, backoffBaseMs: 10_000, backoffCapMs: 900_000, timeoutMs: 10_000, ...settings },
  };
  const delivery: CustomerEventDelivery = {
    version: 1,
    organizationId: 'org_a',
    endpointId: 'whk_1',
    event: { id: 'evt_1', type: 'message.status', createdAt: start, data: { status: 'delivered' } },
    firstAttemptAt: start,
    attempts: 0,
  };
  return { registry, endpoint, transport, queue, clock, dependencies, delivery };
}

describe('dispatching one customer event delivery', () => {
  it('500, 500, 500, 200: retried with growing delays, delivered exactly once, same X-Webhook-Id every time', async () => {
    const { transport, queue, clock, dependencies, delivery, registry } = setup([500, 500, 500, 200]);
    let message = delivery;
    const outcomes = [];
    for (;;) {
      const outcome = await dispatchCustomerEvent(dependencies, message);
      outcomes.push(outcome.kind);
      if (outcome.kind !== 'retry-scheduled') break;
      const next = queue.queued.shift()!;
      clock.advanceBy((next.delaySeconds ?? 0) * 1000);
      message = next.delivery;
    }
    expect(outcomes).toEqual(['retry-scheduled', 'retry-scheduled', 'retry-scheduled', 'delivered']);
    expect(transport.requests).toHaveLength(4);
    expect(new Set(transport.requests.map((request) => request.headers['X-Webhook-Id']))).toEqual(new Set(['evt_1']));
    expect(new Set(transport.requests.map((request) => request.body)).size).toBe(1);
    expect(transport.requests.every((request) => request.timeoutMs === 10_000)).toBe(true);
    // Every attempt verifies with the endpoint's secret at its own time.
    const times = [0, 5, 15, 35].map((seconds) => new Date(new Date(start).getTime() + seconds * 1000));
    transport.requests.forEach((request, index) => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
      expect(verifyCustomerEvent(secret, headers, request.body, times[index], 0)).toBe(true);
    });
    expect(queue.queued).toHaveLength(0);
    expect(queue.deadLetters).toHaveLength(0);
    expect(registry.failingMarks).toHaveLength(0);
    expect(registry.activeMarks).toHaveLength(0); // it never was failing
  });

  it('counts attempts in the re-queued message and keeps its first attempt time', async () => {
    const { queue, dependencies, delivery, clock } = setup([503]);
    clock.advanceBy(60_000);
    await dispatchCustomerEvent(dependencies, { ...delivery, attempts: 2 });
    expect(queue.queued).toEqual([{ delivery: { ...delivery, attempts: 3 }, delaySeconds: 20 }]);
  });

  it('treats a redirect, a 4xx, a timeout and a refused address as failures to retry', async () => {
    const { queue, dependencies, delivery } = setup([
      302,
      404,
      new WebhookDeliveryError('TIMEOUT', 'no answer'),
      new WebhookDeliveryError('FORBIDDEN_ADDRESS', 'private'),
    ]);
    const outcomes = [];
    for (let i = 0; i < 4; i += 1) outcomes.push(await dispatchCustomerEvent(dependencies, delivery));
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['retry-scheduled', 'retry-scheduled', 'retry-scheduled', 'retry-scheduled']);
    expect(outcomes.map((outcome) => ('reason' in outcome ? outcome.reason : undefined) ?? ('status' in outcome ? outcome.status : undefined))).toEqual([
      302,
      404,
      'TIMEOUT',
      'FORBIDDEN_ADDRESS',
    ]);
    expect(queue.queued).toHaveLength(4);
  });

  it('past the retry window: the dead-letter queue and the endpoint marked failing', async () => {
    const { queue, dependencies, delivery, registry, clock } = setup([500]);
    clock.advanceBy(24 * 3_600_000 + 1);
    const outcome = await dispatchCustomerEvent(dependencies, { ...delivery, attempts: 150 });
    expect(outcome).toEqual({ kind: 'dead-lettered', attempt: 151, status: 500, reason: undefined });
    expect(queue.queued).toHaveLength(0);
    expect(queue.deadLetters).toEqual([{ ...delivery, attempts: 151 }]);
    expect(registry.failingMarks).toEqual([{ organizationId: 'org_a', endpointId: 'whk_1', since: clock.now() }]);
    expect((await registry.get('org_a', 'whk_1'))?.state).toBe('FAILING');
  });

  it('honours a configured window', async () => {
    const { queue, dependencies, delivery, clock } = setup([500, 500], { retryWindowMs: 3_600_000 });
    clock.advanceBy(3_599_000);
    expect((await dispatchCustomerEvent(dependencies, delivery)).kind).toBe('retry-scheduled');
    clock.advanceBy(1_000);
    expect((await dispatchCustomerEvent(dependencies, delivery)).kind).toBe('dead-lettered');
    expect(queue.deadLetters).toHaveLength(1);
  });

  it('marks a failing endpoint active again on success', async () => {
    const { dependencies, delivery, registry } = setup([204]);
    await registry.markFailing('org_a', 'whk_1', new Date(start));
    expect(await dispatchCustomerEvent(dependencies, delivery)).toEqual({ kind: 'delivered', status: 204, attempt: 1 });
    expect(registry.activeMarks).toEqual([{ organizationId: 'org_a', endpointId: 'whk_1' }]);
  });

  it('drops the delivery of a deleted endpoint without calling anything', async () => {
    const { transport, queue, dependencies, delivery, registry } = setup([]);
    await registry.delete('org_a', 'whk_1');
    expect(await dispatchCustomerEvent(dependencies, delivery)).toEqual({ kind: 'endpoint-gone' });
    expect(transport.requests).toHaveLength(0);
    expect(queue.queued).toHaveLength(0);
  });

  it("never looks up another organization's endpoint by id", async () => {
    const { transport, dependencies, delivery } = setup([200]);
    expect(await dispatchCustomerEvent(dependencies, { ...delivery, organizationId: 'org_b' })).toEqual({ kind: 'endpoint-gone' });
    expect(transport.requests).toHaveLength(0);
  });

  it('fails the record (SQS retries it) when re-queueing fails', async () => {
    const { dependencies, delivery } = setup([500]);
    dependencies.queue.enqueue = async () => {
      throw new Error('SQS unavailable');
    };
    await expect(dispatchCustomerEvent(dependencies, delivery)).rejects.toThrow('SQS unavailable');
  });
});

describe('the customer-events batch handler', () => {
  it('decodes the records, dispatches them and refuses a malformed message', async () => {
    const { transport, dependencies, delivery } = setup([200]);
    const record = (messageId: string, body: string) => ({ messageId, body }) as SQSEvent['Records'][number];
    const response = await handleCustomerEventBatch(dependencies, [
      record('m1', encodeDelivery(delivery)),
      record('m2', '{"version":2}'),
      record('m3', 'not json'),
    ]);
    expect(transport.requests).toHaveLength(1);
    // The malformed ones go back to SQS (and to its dead-letter queue after five receives); the good one is done.
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: 'm2' }, { itemIdentifier: 'm3' }]);
    expect(() => decodeDelivery('{"version":2}')).toThrow(/schema/);
    expect(() => decodeDelivery('not json')).toThrow(/JSON/);
  });
});
