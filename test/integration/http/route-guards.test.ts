/**
 * The method throttles of the routes no usage plan meters (runtime-contract/route-guards.ts),
 * through the local runtime over real HTTP: the local gateway enforces them from the same data the
 * CDK app puts on the stages, for every caller together, answering the surface's THROTTLED gateway
 * response. The buckets refill in real time here, so each bound allows for the time the burst took.
 */
import { routeGuards } from '../../../runtime-contract/route-guards';
import { startTestRuntime, type TestResponse, type TestRuntime } from '../../support/local-runtime';

jest.setTimeout(120_000);

let runtime: TestRuntime;

beforeAll(async () => {
  runtime = await startTestRuntime({ seedDemo: false, startWorkers: false });
});
afterAll(async () => runtime?.close());

/** `count` requests at once; the admitted ones and the refused ones, and how long it took (s). */
async function burst(count: number, send: () => Promise<TestResponse>): Promise<{ admitted: TestResponse[]; throttled: TestResponse[]; seconds: number }> {
  const started = Date.now();
  const answers = await Promise.all(Array.from({ length: count }, send));
  return {
    admitted: answers.filter((answer) => answer.status !== 429),
    throttled: answers.filter((answer) => answer.status === 429),
    seconds: (Date.now() - started) / 1000,
  };
}

it("Meta's handshake (GET /hooks/meta/whatsapp) is throttled for all callers together, in the HTTP API's own 429", async () => {
  const { methodThrottle } = routeGuards['meta-verification'];
  const { admitted, throttled, seconds } = await burst(40, () =>
    runtime.call('GET', '/hooks/meta/whatsapp?hub.mode=subscribe&hub.verify_token=x&hub.challenge=1'),
  );
  expect(throttled.length).toBeGreaterThan(0);
  expect(admitted.length).toBeLessThanOrEqual(methodThrottle.burstLimit + Math.ceil(methodThrottle.rateLimit * seconds) + 1);
  // Unconfigured Meta app: the function refuses the handshake; only the gateway answers 429.
  for (const answer of admitted) expect(answer.status).toBe(403);
  // The webhooks surface is an HTTP API: its route throttle answers HTTP API's fixed 429 (no Retry-After, no error code).
  expect(throttled[0]!.headers.get('retry-after')).toBeNull();
  expect(throttled[0]!.body).toEqual({ message: 'Too Many Requests' });
});

it('health is throttled at its own rate, not at the stage default', async () => {
  const { methodThrottle } = routeGuards.health;
  const { admitted, seconds } = await burst(150, () => runtime.call('GET', '/prod/api/v2/broadcast/public/health'));
  expect(admitted.length).toBeLessThanOrEqual(methodThrottle.burstLimit + Math.ceil(methodThrottle.rateLimit * seconds) + 1);
  for (const answer of admitted) expect(answer.status).toBe(200);
});
