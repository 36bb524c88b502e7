/**
 * Issue 39 item 3 through the local runtime, the sandbox and a person's sign-in: a broadcast job (not
 * a campaign) paused mid-drain by a person of the console (their OpenID token through the gateway's
 * request authorizer, as the console sends it) sends nothing more, shows who paused it
 * (`by: "person:<personId>"`), and after the person's resume each remaining recipient is sent exactly
 * once. The same by an API key: test/integration/campaigns/campaign-controls.test.ts; a pause past the
 * 30-day hold limit: shifted-clock.test.ts. docs/BROADCAST.md "Pausing a job", docs/CAMPAIGNS.md
 * "Pause and resume".
 */
import { personIdOf } from '../../../shared/people/person';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { startTestIssuer, type TestIssuer } from '../../support/people/test-issuer';
import { BASE, kitEnvironment, orderUpdate, readJob, recipients, sleep, waitForTerminal } from '../broadcast/broadcast-test-kit';

// Tens of seconds on an idle machine; minutes when several suites share two cores.
jest.setTimeout(300_000);

const SIZE = 1_500;
const EMAIL = 'pia@demo-retail.example';

describe("a person's pause and resume of a broadcast job", () => {
  let runtime: TestRuntime;
  let issuer: TestIssuer;
  const asKey = (method: string, path: string, body?: unknown) =>
    runtime.call(method, `${BASE}${path}`, { headers: { 'x-api-key': runtime.demo.apiKey }, body });
  /** Through the gateway with the person's token, as the console calls the API once they signed in. */
  const asPerson = async (method: string, path: string) =>
    runtime.call(method, `${BASE}${path}`, { headers: { authorization: `Bearer ${await issuer.token(EMAIL)}` } });
  const sendsTo = (numbers: ReadonlySet<string>) =>
    runtime
      .sandbox!.acceptedMessages()
      .map((message) => String((message.body as { to?: unknown }).to))
      .filter((to) => numbers.has(to));

  beforeAll(async () => {
    issuer = await startTestIssuer();
    runtime = await startTestRuntime({
      environment: {
        ...kitEnvironment,
        DEFAULT_MESSAGES_PER_SECOND: '200',
        PAUSE_RECHECK_SECONDS: '1',
        PEOPLE_OIDC_ISSUERS: JSON.stringify([{ issuer: issuer.issuer, audience: issuer.audience }]),
      },
    });
    await fetch(`${runtime.sandboxUrl}/_sandbox/control`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ latencyMs: 0, throughputPerSecond: 2_000 }),
    });
    const invited = await asKey('POST', '/people', { email: EMAIL, role: 'campaign-manager' });
    expect(invited.status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
    await issuer?.close();
  });

  /** Sends to `numbers` stop growing (the sends under way finished): the count then. */
  async function settled(numbers: ReadonlySet<string>): Promise<number> {
    for (let last = -1; ; await sleep(1_500)) {
      const now = sendsTo(numbers).length;
      if (now === last) return now;
      last = now;
    }
  }

  it('paused mid-drain it sends nothing more and names the person; resumed, each remaining recipient is sent exactly once', async () => {
    const data = recipients(SIZE, { first: 9_540_000_000 });
    const numbers = new Set(data.map((recipient) => `${recipient.countryCode}${recipient.toPhoneNumber}`));
    const accepted = await asKey('POST', '/send-template-broadcast', orderUpdate(data));
    expect(accepted.status).toBe(202);
    const jobId = accepted.body.data.jobId as string;
    await eventually(
      async () => sendsTo(numbers).length,
      (count) => count >= 100,
      120_000,
      20,
    );

    const paused = await asPerson('POST', `/broadcasts/${jobId}/pause`);
    expect(paused.status).toBe(200);
    const by = `person:${personIdOf(runtime.demo.organizationId, EMAIL)}`;
    expect(paused.body.data).toMatchObject({ jobId, status: 'PAUSED', pause: { reason: 'PAUSED_BY_USER', pausedBy: 'user', failsAt: null, by } });

    const held = await settled(numbers);
    await sleep(3_000);
    expect(sendsTo(numbers)).toHaveLength(held);
    expect(held).toBeLessThan(SIZE);
    const status = await asKey('GET', `/status/${jobId}`);
    expect(status.body.data).toMatchObject({ status: 'PAUSED', pause: { pausedBy: 'user', by } });
    expect(status.body.data.summary.pending).toBe(SIZE - held);

    const resumed = await asPerson('POST', `/broadcasts/${jobId}/resume`);
    expect(resumed.status).toBe(200);
    const final = await waitForTerminal(runtime.demo.organizationId, jobId, 180_000);
    expect(final).toMatchObject({ status: 'COMPLETED', summary: { sent: SIZE, failed: 0, pending: 0 } });
    expect(final).not.toHaveProperty('pause');
    const sent = sendsTo(numbers);
    expect(sent).toHaveLength(SIZE);
    expect(new Set(sent).size).toBe(SIZE);
    expect((await readJob(runtime.demo.organizationId, jobId)).summary.sent).toBe(SIZE);
  });
});
