/**
 * Issue 35 item 5: fairness by time held (docs/CUSTOMER-WEBHOOKS.md "Fairness"). The rules of
 * time-held-share.ts, then the dispatcher on in-memory ports with the review's case: one
 * organization's 10 endpoints answer 200 after 4.9 s (healthy by success alone), the dispatcher's
 * 40 invocations each take one of their deliveries, and another organization's event comes next.
 * Calls are held on a controlled clock: a slow endpoint's answer comes only when the test moves
 * time 4.9 s on.
 */
import type { CustomerEventDelivery } from '../../../shared/customer-events/delivery-message';
import type { CustomerEventQueue, EndpointHealth, WebhookRequest, WebhookTransport } from '../../../shared/customer-events/delivery-ports';
import { dispatchCustomerEvents, type DispatchDependencies, type DispatchResult } from '../../../shared/customer-events/dispatch-customer-event';
import { admissionOf, busyDelaySeconds, waitsForSlot } from '../../../shared/customer-events/endpoint-fairness';
import type { EndpointFairnessSettings } from '../../../shared/customer-events/retry-schedule';
import { expectedHoldMs, slotsByTimeHeld } from '../../../shared/customer-events/time-held-share';
import { fixedClock } from '../../../shared/ports/clock';
import { InMemoryEndpointHealthStore, testFairness } from '../../support/customer-event-fairness-fakes';
import { FakeWebhookRegistry } from '../../support/fake-webhook-registry';

const start = '2026-12-01T10:00:00.000Z';
const t0 = Date.parse(start);
const SLOW_MS = 4_900;
const INVOCATIONS = 40;
const SLOW_ENDPOINTS = 10;
const answered = (heldMs: number): EndpointHealth => ({
  consecutiveFailures: 0,
  lastFailureTimedOut: false,
  opens: 0,
  lastSuccessAtMs: t0 - 1_000,
  leases: [],
  holds: [{ slot: 0, heldMs, endedAtMs: t0 - 1_000 }],
});

describe('slots by time held', () => {
  it('the expected hold: the mean of the slots’ recent times in calls; unknown without one (a call in flight does not count)', () => {
    expect(expectedHoldMs({}, t0)).toBeUndefined();
    const holds = [
      { slot: 0, heldMs: 4_000, endedAtMs: t0 - 1_000 },
      { slot: 1, heldMs: 6_000, endedAtMs: t0 - 60_000 },
      { slot: 2, heldMs: 60_000, endedAtMs: t0 - 60_001 },
    ];
    expect(expectedHoldMs({ holds }, t0)).toBe(5_000);
    expect(expectedHoldMs({ holds: holds.slice(2) }, t0)).toBeUndefined();
  });

  it('8 s of slot time: all 8 slots up to 1 s held, 4 at 2 s, 2 at 4 s, 1 at 4.9 s and beyond; never fewer than one', () => {
    const slotsAt = (heldMs: number) => slotsByTimeHeld(answered(heldMs), t0, testFairness, 8);
    expect([150, 1_000, 2_000, 4_000, 4_900, 30_000].map(slotsAt)).toEqual([8, 8, 4, 2, 1, 1]);
    expect(slotsByTimeHeld({}, t0, testFairness, 8)).toBe(8);
  });

  it('an endpoint answering 200 after 4.9 s is healthy but gets one slot, not 8; a fast one keeps its 8; failing ones keep their single probe slot', () => {
    expect(admissionOf(answered(SLOW_MS), t0, testFairness, 10_000)).toMatchObject({ kind: 'admit', slots: 1, probeFirst: false, timeoutMs: 10_000 });
    expect(admissionOf(answered(120), t0, testFairness, 10_000)).toMatchObject({ slots: 8 });
    // Not answered lately: the base slots, fewer when its calls were slow.
    expect(admissionOf({ ...answered(SLOW_MS), lastSuccessAtMs: undefined }, t0, testFairness, 10_000)).toMatchObject({ slots: 1 });
    expect(admissionOf({ ...answered(120), lastSuccessAtMs: undefined }, t0, testFairness, 10_000)).toMatchObject({ slots: 2 });
    // A group of ours that was slow in our own store calls while the endpoint answered at once does not count against it.
    expect(
      admissionOf({ ...answered(120), leases: [{ slot: 0, acquiredAtMs: t0 - 3_000, expiresAtMs: t0 + 12_000 }] }, t0, testFairness, 10_000),
    ).toMatchObject({ slots: 8 });
    expect(admissionOf({ ...answered(120), consecutiveFailures: 1 }, t0, testFairness, 10_000)).toMatchObject({ slots: 1, probeFirst: true });
  });

  it('a group that finds a slow endpoint busy does not wait in its invocation for a slot; a fast one’s does', () => {
    const admission = { kind: 'admit', slots: 1, timeoutMs: 10_000, probeFirst: false, leaseMs: 15_000 } as const;
    expect(waitsForSlot(answered(SLOW_MS), admission, t0)).toBe(false);
    expect(waitsForSlot(answered(120), admission, t0)).toBe(true);
  });

  it("a delivery that keeps finding a slow endpoint busy waits twice as long each time, up to 12 times its time held (59 s at 4.9 s); a fast one's up to 4 s", () => {
    const max = (health: EndpointHealth, deferrals: number) => busyDelaySeconds(health, t0, () => 0.999, deferrals);
    expect([0, 1, 2, 3, 4, 5, 9].map((deferrals) => max(answered(SLOW_MS), deferrals))).toEqual([2, 4, 8, 16, 32, 59, 59]);
    expect([0, 1, 2, 3, 9].map((deferrals) => max(answered(120), deferrals))).toEqual([2, 4, 4, 4, 4]);
  });
});

/** Slow endpoints answer 200 once the test has moved the clock 4.9 s on; the others at once. */
class HeldTransport implements WebhookTransport {
  readonly requests: Array<{ url: string; atMs: number }> = [];
  private pending: Array<{ dueMs: number; answer: () => void }> = [];
  constructor(private readonly clock: ReturnType<typeof fixedClock>) {}

  post(request: WebhookRequest): Promise<{ status: number }> {
    const atMs = this.clock.now().getTime();
    this.requests.push({ url: request.url, atMs });
    if (!request.url.includes('slow')) return Promise.resolve({ status: 200 });
    return new Promise((resolve) => this.pending.push({ dueMs: atMs + SLOW_MS, answer: () => resolve({ status: 200 }) }));
  }

  get inFlight(): number {
    return this.pending.length;
  }

  async advance(ms: number): Promise<void> {
    this.clock.advanceBy(ms);
    const due = this.pending.filter((call) => call.dueMs <= this.clock.now().getTime());
    this.pending = this.pending.filter((call) => !due.includes(call));
    for (const call of due) call.answer();
    await settle();
  }
}

/** Lets every store call and re-queue of the in-memory ports run (they resolve in microtasks). */
const settle = async () => {
  for (let round = 0; round < 20; round += 1) await new Promise((resolve) => setImmediate(resolve));
};

class CountingQueue implements CustomerEventQueue {
  readonly queued: CustomerEventDelivery[] = [];
  async enqueue(deliveries: readonly CustomerEventDelivery[]): Promise<void> {
    this.queued.push(...deliveries);
  }
  async deadLetter(): Promise<void> {}
}

function world(fairness: EndpointFairnessSettings = testFairness) {
  const registry = new FakeWebhookRegistry();
  for (let index = 0; index < SLOW_ENDPOINTS; index += 1) registry.add('org_slow', `whk_${index}`, `https://slow.example.com/in/${index}`, 'whsec_slow');
  registry.add('org_b', 'whk_b', 'https://b.example.com/in', 'whsec_b');
  const clock = fixedClock(start);
  const transport = new HeldTransport(clock);
  const health = new InMemoryEndpointHealthStore();
  let randomCalls = 0;
  const dependencies: DispatchDependencies = {
    registry,
    health,
    transport,
    queue: new CountingQueue(),
    clock,
    // Spread over [0, 1) so groups try different free slots, as Math.random would.
    random: () => ((randomCalls += 1) * 0.618) % 1,
    sleep: async () => undefined,
    settings: { retryWindowMs: 24 * 3_600_000, backoffBaseMs: 10_000, backoffCapMs: 900_000, timeoutMs: 10_000 },
    fairness,
  };
  let sequence = 0;
  const delivery = (organizationId: string, endpointId: string): CustomerEventDelivery => ({
    version: 1,
    organizationId,
    endpointId,
    event: { id: `evt_${(sequence += 1)}`, type: 'message.status', createdAt: start, data: {} },
    firstAttemptAt: start,
    attempts: 0,
  });
  /** One dispatcher invocation per batch, all at once; `held` counts those not finished yet. */
  const invoke = (batches: CustomerEventDelivery[][]) => {
    let finished = 0;
    const done = batches.map((batch) => dispatchCustomerEvents(dependencies, batch).finally(() => (finished += 1)));
    return { held: () => batches.length - finished, results: () => Promise.all(done) };
  };
  /** Each slow endpoint answers one group in 4.9 s: it has answered lately and its time held is known. */
  const warmUp = async () => {
    const warming = invoke([Array.from({ length: SLOW_ENDPOINTS }, (_, index) => delivery('org_slow', `whk_${index}`))]);
    await settle();
    await transport.advance(SLOW_MS);
    const outcomes = (await warming.results()).flat();
    expect(outcomes.every((result) => 'outcome' in result && result.outcome.kind === 'delivered')).toBe(true);
    transport.requests.length = 0;
  };
  /** The dispatcher's 40 invocations, each given one of the slow organization's deliveries (its endpoints in turn). */
  const flood = async () => {
    const running = invoke(Array.from({ length: INVOCATIONS }, (_, index) => [delivery('org_slow', `whk_${index % SLOW_ENDPOINTS}`)]));
    await settle();
    return running;
  };
  return { clock, transport, health, delivery, invoke, warmUp, flood };
}

const outcomeKinds = (results: DispatchResult[]) =>
  results.map((result) => ('outcome' in result ? `${result.outcome.kind}${'cause' in result.outcome ? ` ${result.outcome.cause}` : ''}` : 'error'));

describe('the dispatcher with one organization whose 10 endpoints answer 200 after 4.9 s', () => {
  it("holds 10 of the 40 invocations (one slot per endpoint, the organization's 10), and another organization's event is delivered at once", async () => {
    const w = world();
    await w.warmUp();
    const running = await w.flood();

    expect(w.transport.inFlight).toBe(10);
    const callsPerEndpoint = new Map<string, number>();
    for (const request of w.transport.requests) callsPerEndpoint.set(request.url, (callsPerEndpoint.get(request.url) ?? 0) + 1);
    expect([...callsPerEndpoint.values()]).toEqual(Array.from({ length: SLOW_ENDPOINTS }, () => 1));
    expect(running.held()).toBe(10);

    // A free invocation takes B's event: delivered without the clock moving.
    const [b] = await w.invoke([[w.delivery('org_b', 'whk_b')]]).results();
    expect(b).toEqual([{ outcome: { kind: 'delivered', status: 200, attempt: 1 } }]);
    expect(w.transport.requests.filter((request) => request.url.includes('b.example.com'))).toEqual([{ url: 'https://b.example.com/in', atMs: t0 + SLOW_MS }]);

    await w.transport.advance(SLOW_MS);
    const kinds = outcomeKinds((await running.results()).flat());
    expect(kinds.filter((kind) => kind === 'delivered')).toHaveLength(10);
    expect(kinds.filter((kind) => kind === 'deferred endpoint-busy')).toHaveLength(30);
  });

  it('in a batch shared with the slow organization, B is called at once (its invocation ends with the slow calls)', async () => {
    const w = world();
    await w.warmUp();
    const shared = w.invoke([[w.delivery('org_slow', 'whk_0'), w.delivery('org_b', 'whk_b'), w.delivery('org_slow', 'whk_1')]]);
    await settle();
    expect(w.transport.requests.find((request) => request.url.includes('b.example.com'))).toEqual({ url: 'https://b.example.com/in', atMs: t0 + SLOW_MS });
    await w.transport.advance(SLOW_MS);
    expect(outcomeKinds((await shared.results()).flat())).toEqual(['delivered', 'delivered', 'delivered']);
  });

  it('each bound holds alone: time held without the organization cap (one slot per endpoint), the organization cap without time held (10 of 80 burst slots)', async () => {
    const timeOnly = world({ ...testFairness, organizationConcurrency: 1_000 });
    await timeOnly.warmUp();
    const byTime = await timeOnly.flood();
    expect([timeOnly.transport.inFlight, byTime.held()]).toEqual([10, 10]);
    await timeOnly.transport.advance(SLOW_MS);
    await byTime.results();

    const shareOnly = world({ ...testFairness, slotBudgetMs: 1_000_000_000 });
    await shareOnly.warmUp();
    const byShare = await shareOnly.flood();
    expect([shareOnly.transport.inFlight, byShare.held()]).toEqual([10, 10]);
    await shareOnly.transport.advance(SLOW_MS);
    expect(outcomeKinds((await byShare.results()).flat()).filter((kind) => kind === 'deferred organization-busy')).toHaveLength(30);
  });

  it('without either bound (the rule before issue 35) the slow organization holds all 40 invocations and B has none', async () => {
    const before = world({ ...testFairness, slotBudgetMs: 1_000_000_000, organizationConcurrency: 1_000 });
    await before.warmUp();
    const running = await before.flood();
    expect([before.transport.inFlight, running.held()]).toEqual([40, 40]);
    await before.transport.advance(SLOW_MS);
    await running.results();
  });

  it("gives back the organization's slot with the endpoint's, and records the time held", async () => {
    const w = world();
    await w.warmUp();
    expect(await w.health.readShare('org_slow', w.clock.now())).toEqual({ leases: [] });
    const health = await w.health.read({ organizationId: 'org_slow', endpointId: 'whk_3' }, w.clock.now());
    expect(health.leases).toEqual([]);
    expect(health.holds).toEqual([{ slot: expect.any(Number), heldMs: SLOW_MS, endedAtMs: t0 + SLOW_MS }]);
  });
});
