/**
 * Issue 23 item 5: one organization's dead receiver does not stall customer events for everyone.
 * Organization A: 10 endpoints that accept connections and never answer, and redeliveries at the
 * routes' highest rate (1,000 events every 2 s). Organization B: one healthy endpoint, 50 events
 * over 20 s. B's events reach its receiver within 5 s at p99; A's redeliveries stop at the daily
 * quota, and its dead endpoints see a handful of calls, not thousands (test/support/customer-webhook-fairness-scenario.ts).
 */
import { percentile } from '../../../bench/lib/stats';
import { runFairnessScenario, type FairnessScenarioResult } from '../../support/customer-webhook-fairness-scenario';
import { startTestRuntime, type TestRuntime } from '../../support/local-runtime';

jest.setTimeout(90_000);

let runtime: TestRuntime;
let result: FairnessScenarioResult;

beforeAll(async () => {
  runtime = await startTestRuntime();
  result = await runFairnessScenario({ runtime, call: (method, path, options) => runtime.call(method, path, options) });
}, 90_000);

afterAll(async () => {
  await runtime?.close();
});

describe('one organization with 10 dead endpoints redelivering at the highest rate', () => {
  it("does not hold back another organization's events: every one arrives, within 5 s at p99", () => {
    expect(result.delivered).toBe(result.published);
    expect(percentile(result.delaysMs, 99)).toBeLessThanOrEqual(5_000);
  });

  it('is held to the daily redelivery quota: 5,000 events, then 429 naming the quota', () => {
    const granted = result.redeliveries.filter((answer) => answer.status === 202);
    expect(granted.reduce((sum, answer) => sum + (answer.queued ?? 0), 0)).toBe(5_000);
    expect(granted.map((answer) => answer.queued)).toEqual([1_000, 1_000, 1_000, 1_000, 1_000]);
    const refused = result.redeliveries.slice(granted.length);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((answer) => answer.status === 429 && answer.code === 'REDELIVERY_QUOTA_EXCEEDED')).toBe(true);
  });

  it('calls its dead endpoints a few times, then leaves them alone (breaker open), not once per queued delivery', () => {
    expect(result.deadEndpointCalls).toBeGreaterThan(0);
    expect(result.deadEndpointCalls).toBeLessThan(500);
  });
});
