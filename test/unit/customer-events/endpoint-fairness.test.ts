/** Each endpoint's fair share of the dispatcher: the pure rules, then the dispatcher applying them on in-memory ports. */
import type { CustomerEventDelivery } from '../../../shared/customer-events/delivery-message';
import type { CustomerEventQueue, EndpointHealth, WebhookRequest, WebhookTransport } from '../../../shared/customer-events/delivery-ports';
import { dispatchCustomerEvents, type DispatchDependencies, type DispatchOutcome } from '../../../shared/customer-events/dispatch-customer-event';
import {
  admissionOf,
  breakerOpening,
  busyDelaySeconds,
  openDelaySeconds,
  probeFailedDelaySeconds,
  successNeedsRecording,
} from '../../../shared/customer-events/endpoint-fairness';
import { WebhookDeliveryError } from '../../../shared/customer-events/errors';
import { fixedClock } from '../../../shared/ports/clock';
import { StoreUnavailableError } from '../../../shared/ports/errors';
import { InMemoryEndpointHealthStore, testFairness } from '../../support/customer-event-fairness-fakes';
import { FakeWebhookRegistry } from '../../support/fake-webhook-registry';

const start = '2025-05-01T00:00:00.000Z';
const t0 = Date.parse(start);
const fresh: EndpointHealth = { consecutiveFailures: 0, lastFailureTimedOut: false, opens: 0, leases: [] };

describe('the rules', () => {
  it('admits a healthy endpoint on any of its slots at the full timeout, all calls at once', () => {
    expect(admissionOf(fresh, t0, testFairness, 10_000)).toEqual({ kind: 'admit', slots: 2, timeoutMs: 10_000, probeFirst: false, leaseMs: 15_000 });
  });

  it('an endpoint that answered within a minute and has no slow call in flight gets its burst slots too', () => {
    const proven = { ...fresh, lastSuccessAtMs: t0 - 30_000 };
    expect(admissionOf(proven, t0, testFairness, 10_000)).toMatchObject({ slots: 8 });
    expect(admissionOf({ ...proven, leases: [{ slot: 3, acquiredAtMs: t0 - 500, expiresAtMs: t0 + 14_500 }] }, t0, testFairness, 10_000)).toMatchObject({
      slots: 8,
    });
    // A call held for five seconds: slow (or dying); back to the base slots.
    expect(admissionOf({ ...proven, leases: [{ slot: 3, acquiredAtMs: t0 - 5_000, expiresAtMs: t0 + 10_000 }] }, t0, testFairness, 10_000)).toMatchObject({
      slots: 2,
    });
    expect(admissionOf({ ...proven, lastSuccessAtMs: t0 - 60_001 }, t0, testFairness, 10_000)).toMatchObject({ slots: 2 });
    expect(admissionOf({ ...proven, consecutiveFailures: 1 }, t0, testFairness, 10_000)).toMatchObject({ slots: 1 });
  });

  it('writes a success when it ends a failure run or refreshes a last success older than 10 s, not per group', () => {
    expect(successNeedsRecording(fresh, t0)).toBe(true);
    expect(successNeedsRecording({ ...fresh, lastSuccessAtMs: t0 - 9_999 }, t0)).toBe(false);
    expect(successNeedsRecording({ ...fresh, lastSuccessAtMs: t0 - 10_000 }, t0)).toBe(true);
    expect(successNeedsRecording({ ...fresh, lastSuccessAtMs: t0 - 1, consecutiveFailures: 1 }, t0)).toBe(true);
  });

  it('a failing endpoint: one slot, the probe first; the short timeout only when its last failure was a timeout', () => {
    const failing = { ...fresh, consecutiveFailures: 2 };
    expect(admissionOf(failing, t0, testFairness, 10_000)).toEqual({ kind: 'admit', slots: 1, timeoutMs: 10_000, probeFirst: true, leaseMs: 25_000 });
    expect(admissionOf({ ...failing, lastFailureTimedOut: true }, t0, testFairness, 10_000)).toEqual({
      kind: 'admit',
      slots: 1,
      timeoutMs: 2_500,
      probeFirst: true,
      leaseMs: 17_500,
    });
  });

  it('an open breaker admits nothing until its time; then the probe (half-open)', () => {
    const open = { ...fresh, consecutiveFailures: 5, openUntilMs: t0 + 30_000, opens: 1 };
    expect(admissionOf(open, t0 + 29_999, testFairness, 10_000)).toEqual({ kind: 'open', reopensAtMs: t0 + 30_000 });
    expect(admissionOf(open, t0 + 30_000, testFairness, 10_000)).toMatchObject({ kind: 'admit', slots: 1, probeFirst: true });
  });

  it('opens at the threshold, twice as long at each reopening, never longer than the cap', () => {
    expect(breakerOpening(4, 0, t0, testFairness)).toBeUndefined();
    expect(breakerOpening(5, 0, t0, testFairness)).toEqual({ untilMs: t0 + 30_000, opens: 1 });
    expect(breakerOpening(6, 1, t0, testFairness)).toEqual({ untilMs: t0 + 60_000, opens: 2 });
    expect(breakerOpening(40, 30, t0, testFairness)).toEqual({ untilMs: t0 + 900_000, opens: 31 });
  });

  it('spreads the deliveries waiting on an open breaker over half the remaining time after it', () => {
    expect(openDelaySeconds(t0 + 30_000, t0, () => 0)).toBe(30);
    expect(openDelaySeconds(t0 + 30_000, t0, () => 0.999)).toBe(44);
    expect(openDelaySeconds(t0 + 900_000, t0, () => 0.999)).toBe(900);
  });

  it('a busy endpoint: a second or two while its calls are young or it answers lately; until the first lease ends when it never answered and a call is slow', () => {
    const young = { ...fresh, leases: [{ slot: 0, acquiredAtMs: t0 - 200, expiresAtMs: t0 + 14_800 }] };
    expect([busyDelaySeconds(young, t0, () => 0), busyDelaySeconds(young, t0, () => 0.999)]).toEqual([1, 2]);
    // A delivery that found the endpoint busy before may wait longer, up to 4 s.
    expect([1, 2, 9].map((deferrals) => busyDelaySeconds(young, t0, () => 0.999, deferrals))).toEqual([4, 4, 4]);
    const old = {
      ...fresh,
      leases: [
        { slot: 0, acquiredAtMs: t0 - 6_000, expiresAtMs: t0 + 9_000 },
        { slot: 1, acquiredAtMs: t0 - 2_000, expiresAtMs: t0 + 13_000 },
      ],
    };
    expect(busyDelaySeconds(old, t0, () => 0)).toBe(9);
    // The same slow calls of an endpoint that answered a minute ago: busy, not dead.
    expect(busyDelaySeconds({ ...old, lastSuccessAtMs: t0 - 60_000 }, t0, () => 0)).toBe(1);
  });

  it("behind a failed probe (breaker still shut), the endpoint's own backoff, at least a second", () => {
    expect(probeFailedDelaySeconds(1, { backoffBaseMs: 10_000, backoffCapMs: 900_000 }, () => 0)).toBe(1);
    expect(probeFailedDelaySeconds(3, { backoffBaseMs: 10_000, backoffCapMs: 900_000 }, () => 0.5)).toBe(20);
  });
});

/** Answers by URL: a status, a timeout, or a call left pending until the test resolves it. */
class ScriptedTransport implements WebhookTransport {
  readonly requests: WebhookRequest[] = [];
  constructor(private readonly answer: (request: WebhookRequest) => number | 'timeout') {}
  async post(request: WebhookRequest): Promise<{ status: number }> {
    this.requests.push(request);
    const answer = this.answer(request);
    if (answer === 'timeout') throw new WebhookDeliveryError('TIMEOUT', 'no answer in time');
    return { status: answer };
  }
}

class RecordingQueue implements CustomerEventQueue {
  readonly queued: Array<{ delivery: CustomerEventDelivery; delaySeconds?: number }> = [];
  readonly deadLetters: CustomerEventDelivery[] = [];
  async enqueue(deliveries: readonly CustomerEventDelivery[], options: { delaySeconds?: number } = {}): Promise<void> {
    for (const delivery of deliveries) this.queued.push({ delivery, delaySeconds: options.delaySeconds });
  }
  async deadLetter(delivery: CustomerEventDelivery): Promise<void> {
    this.deadLetters.push(delivery);
  }
}

function setup(answer: (request: WebhookRequest) => number | 'timeout') {
  const registry = new FakeWebhookRegistry();
  registry.add('org_dead', 'whk_dead', 'https://dead.example.com/in', 'whsec_dead');
  registry.add('org_ok', 'whk_ok', 'https://ok.example.com/in', 'whsec_ok');
  const transport = new ScriptedTransport(answer);
  const queue = new RecordingQueue();
  const health = new InMemoryEndpointHealthStore();
  const clock = fixedClock(start);
  const dependencies: DispatchDependencies = {
    registry,
    health,
    transport,
    queue,
    clock,
    random: () => 0,
    sleep: async (ms: number) => clock.advanceBy(ms),
    settings: { retryWindowMs: 24 * 3_600_000, backoffBaseMs: 10_000, backoffCapMs: 900_000, timeoutMs: 10_000 },
    fairness: testFairness,
  };
  let sequence = 0;
  const delivery = (organizationId: string, endpointId: string, overrides: Partial<CustomerEventDelivery> = {}): CustomerEventDelivery => ({
    version: 1,
    organizationId,
    endpointId,
    event: { id: `evt_${(sequence += 1)}`, type: 'message.status', createdAt: start, data: {} },
    firstAttemptAt: start,
    attempts: 0,
    ...overrides,
  });
  const dispatch = async (deliveries: CustomerEventDelivery[]): Promise<DispatchOutcome[]> =>
    (await dispatchCustomerEvents(dependencies, deliveries)).map((result) => {
      if ('error' in result) throw result.error;
      return result.outcome;
    });
  return { registry, transport, queue, health, clock, dependencies, delivery, dispatch };
}

const deadOrOk = (request: WebhookRequest) => (request.url.includes('dead') ? 'timeout' : 200);
const dead = (kit: ReturnType<typeof setup>, count: number) => Array.from({ length: count }, () => kit.delivery('org_dead', 'whk_dead'));

describe('the dispatcher', () => {
  it("groups a batch by endpoint: the dead endpoint's calls fail, the other's are delivered, one lease of the endpoint and one of its organization, and one health write each", async () => {
    const kit = setup(deadOrOk);
    const outcomes = await kit.dispatch([...dead(kit, 3), kit.delivery('org_ok', 'whk_ok'), kit.delivery('org_dead', 'whk_dead')]);
    expect(outcomes.map((outcome) => outcome.kind)).toEqual(['retry-scheduled', 'retry-scheduled', 'retry-scheduled', 'delivered', 'retry-scheduled']);
    expect(kit.health.writes.sort()).toEqual([
      'failures +4',
      'lease 0',
      'lease 0',
      'release 0',
      'release 0',
      'release share 0',
      'release share 0',
      'share 0',
      'share 0',
      'success',
    ]);
    expect(kit.transport.requests.every((request) => request.timeoutMs === 10_000)).toBe(true);
  });

  it('after a timeout: the short timeout, the probe alone, the others wait behind it without using an attempt', async () => {
    const kit = setup(deadOrOk);
    await kit.dispatch(dead(kit, 1));
    kit.transport.requests.length = 0;
    kit.queue.queued.length = 0;
    const outcomes = await kit.dispatch(dead(kit, 3));
    expect(kit.transport.requests.map((request) => request.timeoutMs)).toEqual([2_500]);
    expect(outcomes).toEqual([
      { kind: 'retry-scheduled', attempt: 1, reason: 'TIMEOUT', status: undefined, delaySeconds: 0 },
      { kind: 'deferred', cause: 'probe-failed', delaySeconds: 1 },
      { kind: 'deferred', cause: 'probe-failed', delaySeconds: 1 },
    ]);
    expect(kit.queue.queued.filter((entry) => entry.delaySeconds === 1).map((entry) => entry.delivery.attempts)).toEqual([0, 0]);
  });

  it('opens the breaker at five failures in a row: nothing is called until its time, the deliveries wait in the queue with their attempts', async () => {
    const kit = setup(deadOrOk);
    await kit.dispatch(dead(kit, 5));
    expect(await kit.health.read({ organizationId: 'org_dead', endpointId: 'whk_dead' }, kit.clock.now())).toMatchObject({
      consecutiveFailures: 5,
      openUntilMs: t0 + 30_000,
      opens: 1,
    });
    kit.transport.requests.length = 0;
    kit.queue.queued.length = 0;
    kit.clock.advanceBy(10_000);
    const waiting = dead(kit, 4).map((delivery, index) => ({ ...delivery, attempts: index }));
    expect(await kit.dispatch(waiting)).toEqual(waiting.map(() => ({ kind: 'deferred', cause: 'breaker-open', delaySeconds: 20 })));
    expect(kit.transport.requests).toEqual([]);
    expect(kit.queue.queued).toEqual(waiting.map((delivery) => ({ delivery, delaySeconds: 20 })));
  });

  it('half-open: one probe; its failure reopens the breaker twice as long and the others wait it out; its success closes it', async () => {
    let up = false;
    const kit = setup((request) => (up ? 200 : deadOrOk(request)));
    await kit.dispatch(dead(kit, 5));
    kit.clock.advanceBy(30_000);
    kit.transport.requests.length = 0;
    const failed = await kit.dispatch(dead(kit, 3));
    expect(kit.transport.requests).toHaveLength(1);
    expect(failed.slice(1)).toEqual([
      { kind: 'deferred', cause: 'breaker-open', delaySeconds: 60 },
      { kind: 'deferred', cause: 'breaker-open', delaySeconds: 60 },
    ]);
    kit.clock.advanceBy(60_000);
    up = true;
    expect((await kit.dispatch(dead(kit, 3))).map((outcome) => outcome.kind)).toEqual(['delivered', 'delivered', 'delivered']);
    expect(await kit.health.read({ organizationId: 'org_dead', endpointId: 'whk_dead' }, kit.clock.now())).toEqual({
      ...fresh,
      lastSuccessAtMs: kit.clock.now().getTime(),
      holds: [{ slot: 0, heldMs: 0, endedAtMs: kit.clock.now().getTime() }],
    });
  });

  it('caps an endpoint at two leases: a third group is deferred without a call, and only that endpoint is', async () => {
    const kit = setup(deadOrOk);
    const key = { organizationId: 'org_ok', endpointId: 'whk_ok' };
    const until = new Date(t0 + 15_000);
    await kit.health.tryLease(key, 0, kit.clock.now(), until);
    await kit.health.tryLease(key, 1, kit.clock.now(), until);
    const outcomes = await kit.dispatch([kit.delivery('org_ok', 'whk_ok'), kit.delivery('org_ok', 'whk_ok')]);
    expect(outcomes).toEqual([
      { kind: 'deferred', cause: 'endpoint-busy', delaySeconds: 1 },
      { kind: 'deferred', cause: 'endpoint-busy', delaySeconds: 1 },
    ]);
    expect(kit.transport.requests).toEqual([]);
    expect(kit.queue.queued.map((entry) => entry.delivery.deferrals)).toEqual([1, 1]);
    // Another organization's endpoint is not affected by it.
    expect(await kit.dispatch([kit.delivery('org_dead', 'whk_dead')])).toEqual([expect.objectContaining({ kind: 'retry-scheduled' })]);
    // A lease past its expiry is free again.
    kit.clock.advanceBy(15_000);
    expect((await kit.dispatch([kit.delivery('org_ok', 'whk_ok')]))[0]).toEqual({ kind: 'delivered', status: 200, attempt: 1 });
    // Now it has answered: with its two base slots taken by young leases, a burst slot serves the next group.
    await kit.health.tryLease(key, 0, kit.clock.now(), new Date(kit.clock.now().getTime() + 15_000));
    await kit.health.tryLease(key, 1, kit.clock.now(), new Date(kit.clock.now().getTime() + 15_000));
    expect((await kit.dispatch([kit.delivery('org_ok', 'whk_ok')]))[0]).toEqual({ kind: 'delivered', status: 200, attempt: 1 });
    expect(kit.health.writes).toContain('lease 2');
  });

  it("a group that finds a fast endpoint busy waits a moment for a slot before it is re-queued; a slow endpoint's group does not wait", async () => {
    const kit = setup(deadOrOk);
    const key = { organizationId: 'org_ok', endpointId: 'whk_ok' };
    const until = new Date(t0 + 15_000);
    const held = [await kit.health.tryLease(key, 0, kit.clock.now(), until), await kit.health.tryLease(key, 1, kit.clock.now(), until)];
    const waits: number[] = [];
    kit.dependencies.sleep = async (ms) => {
      waits.push(ms);
      kit.clock.advanceBy(ms);
      await kit.health.release(key, held[0]!);
    };
    expect(await kit.dispatch([kit.delivery('org_ok', 'whk_ok')])).toEqual([{ kind: 'delivered', status: 200, attempt: 1 }]);
    expect(waits).toEqual([100]);
    // An endpoint that never answered, with a call in flight for five seconds: likely dead, so no
    // wait, and re-queued until that call's lease ends.
    const other = setup(deadOrOk);
    const otherWaits: number[] = [];
    other.dependencies.sleep = async (ms) => {
      otherWaits.push(ms);
    };
    await other.health.tryLease(key, 0, other.clock.now(), until);
    await other.health.tryLease(key, 1, other.clock.now(), until);
    other.clock.advanceBy(5_000);
    expect(await other.dispatch([other.delivery('org_ok', 'whk_ok')])).toEqual([{ kind: 'deferred', cause: 'endpoint-busy', delaySeconds: 10 }]);
    expect(otherWaits).toEqual([]);
  });

  it('a delivery that waited past its retry window gives up uncalled: dead-letter queue, endpoint failing, attempts as they were', async () => {
    const kit = setup(deadOrOk);
    await kit.dispatch(dead(kit, 5));
    kit.clock.advanceBy(10_000);
    const late = kit.delivery('org_dead', 'whk_dead', { firstAttemptAt: new Date(t0 - 24 * 3_600_000).toISOString(), attempts: 40 });
    const soon = kit.delivery('org_dead', 'whk_dead', { firstAttemptAt: new Date(t0 + 10_000 - 24 * 3_600_000 + 5_000).toISOString(), attempts: 3 });
    expect(await kit.dispatch([late, soon])).toEqual([
      { kind: 'dead-lettered', attempt: 40 },
      { kind: 'deferred', cause: 'breaker-open', delaySeconds: 5 },
    ]);
    expect(kit.queue.deadLetters).toEqual([late]);
    expect(kit.registry.failingMarks).toEqual([{ organizationId: 'org_dead', endpointId: 'whk_dead', since: kit.clock.now() }]);
  });

  it("a fault of the health store defers only that endpoint's group a few seconds, nothing called; any other error fails its records back to SQS", async () => {
    const kit = setup(deadOrOk);
    const read = kit.health.read.bind(kit.health);
    let fault: Error = new StoreUnavailableError('Store unavailable: TimeoutError');
    kit.health.read = async (key, now) => {
      if (key.endpointId === 'whk_dead') throw fault;
      return read(key, now);
    };
    const deferred = await dispatchCustomerEvents(kit.dependencies, [kit.delivery('org_dead', 'whk_dead'), kit.delivery('org_ok', 'whk_ok')]);
    expect(deferred).toEqual([
      { outcome: { kind: 'deferred', cause: 'health-unavailable', delaySeconds: 2 } },
      { outcome: { kind: 'delivered', status: 200, attempt: 1 } },
    ]);
    expect(kit.transport.requests.map((request) => request.url)).toEqual(['https://ok.example.com/in']);
    fault = new Error('a bug');
    expect(await dispatchCustomerEvents(kit.dependencies, [kit.delivery('org_dead', 'whk_dead')])).toEqual([{ error: fault }]);
  });
});
