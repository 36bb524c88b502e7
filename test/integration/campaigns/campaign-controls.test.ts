/**
 * Pause, resume and cancel by a person, through the local runtime and the sandbox (issue 36 "Proof",
 * issue 39 item 3): a campaign of 1,500 members paused mid-drain sends nothing more, and after the
 * resume reaches everyone exactly once; another cancelled mid-drain sends nobody more and counts the
 * rest cancelled; a broadcast job paused and resumed by its own route; the launch's dry run counts
 * the known audience. docs/CAMPAIGNS.md "Pause, resume and cancel", docs/BROADCAST.md "Pausing a job".
 */
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, kitEnvironment, orderUpdate, recipients, sleep } from '../broadcast/broadcast-test-kit';

// Tens of seconds on an idle machine; minutes when six test runs share two cores.
jest.setTimeout(600_000);

const full = (index: number) => `91${9_400_000_000 + index}`;
const row = (index: number) => ({ countryCode: '91', toPhoneNumber: String(9_400_000_000 + index), attributes: { first_name: `P${index}` } });
const range = (from: number, count: number) => Array.from({ length: count }, (_, offset) => from + offset);

describe('pause, resume and cancel by a person', () => {
  let runtime: TestRuntime;
  /** One request; a 429 of the key's status bucket (this suite polls) is waited out as its Retry-After says. */
  const call = async (method: string, path: string, body?: unknown) => {
    for (let attempt = 0; ; attempt += 1) {
      const response = await runtime.call(method, `${BASE}${path}`, { headers: { 'x-api-key': runtime.demo.apiKey }, body });
      if (response.status !== 429 || attempt >= 60) return response;
      await sleep(1_000 * Math.max(1, Number(response.headers.get('retry-after') ?? 1)));
    }
  };
  const sandbox = (path: string, body: unknown) =>
    fetch(`${runtime.sandboxUrl}/_sandbox${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const sendsTo = (numbers: ReadonlySet<string>) =>
    runtime
      .sandbox!.acceptedMessages()
      .map((message) => String((message.body as { to?: unknown }).to))
      .filter((to) => numbers.has(to));
  const finalStatus = (jobId: string) =>
    eventually(
      () => call('GET', `/status/${jobId}`),
      (response) => ['COMPLETED', 'COMPLETED_WITH_FAILURES', 'FAILED', 'CANCELLED'].includes(response.body?.data?.status),
      360_000,
      2_000,
    ).then((response) => response.body.data);

  beforeAll(async () => {
    runtime = await startTestRuntime({
      environment: { ...kitEnvironment, DEFAULT_MESSAGES_PER_SECOND: '200', PAUSE_RECHECK_SECONDS: '1' },
    });
    // No delivery webhooks (startTestRuntime's default): the controls and the worker's counts are what is asserted.
    await sandbox('/control', { latencyMs: 0, throughputPerSecond: 2_000 });
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  async function audience(name: string, members: unknown[]): Promise<string> {
    const created = await call('POST', '/audiences', { name });
    expect(created.status).toBe(201);
    const audienceId = created.body.data.audienceId as string;
    for (let start = 0; start < members.length; start += 500) {
      const page = members.slice(start, start + 500);
      let added = await call('POST', `/audiences/${audienceId}/members`, { members: page });
      for (let attempt = 1; added.status === 503 && attempt < 6; attempt += 1) {
        await sleep(500 * attempt);
        added = await call('POST', `/audiences/${audienceId}/members`, { members: page });
      }
      expect([added.status, added.body.data.invalid]).toEqual([200, []]);
    }
    return audienceId;
  }

  async function campaign(name: string, audienceId: string): Promise<string> {
    const created = await call('POST', '/campaigns', {
      name,
      fromPhoneNumber: DEMO.sender1,
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      audience: { audienceIds: [audienceId] },
      templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'SPRING25'],
    });
    expect(created.status).toBe(201);
    return created.body.data.campaignId as string;
  }

  /** Sends to `numbers` stop growing (the sends under way finished): the count then. */
  async function settled(numbers: ReadonlySet<string>): Promise<number> {
    let last = -1;
    for (;;) {
      const now = sendsTo(numbers).length;
      if (now === last) return now;
      last = now;
      await sleep(1_500);
    }
  }

  /** Members of each run: two chunks, so a pause or cancel lands mid-drain, and small enough to keep CI short. */
  const SIZE = 1_500;

  it('a campaign paused mid-drain sends nothing more; after the resume everyone is reached exactly once', async () => {
    const members = range(0, SIZE);
    const numbers = new Set(members.map(full));
    const campaignId = await campaign('Paused', await audience('Paused audience', members.map(row)));

    const dryRun = await call('POST', `/campaigns/${campaignId}/launch?dryRun=true`);
    expect(dryRun.status).toBe(200);
    expect(dryRun.body.data).toMatchObject({
      audience: { members: SIZE, duplicates: 0, optedOut: 0, excluded: 0, missingAttribute: 0, invalid: 0 },
      sendable: SIZE,
      estimated: false,
    });
    expect(dryRun.body.data.sample).toHaveLength(3);
    expect(sendsTo(numbers)).toHaveLength(0);

    expect((await call('POST', `/campaigns/${campaignId}/pause`)).status).toBe(409);
    expect((await call('POST', `/campaigns/${campaignId}/launch`)).status).toBe(202);
    await eventually(
      async () => sendsTo(numbers).length,
      (count) => count >= 100,
      120_000,
      20,
    );
    const paused = await call('POST', `/campaigns/${campaignId}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.data).toEqual({ campaignId, state: 'PAUSED' });

    const held = await settled(numbers);
    await sleep(3_000);
    expect(sendsTo(numbers)).toHaveLength(held);
    expect(held).toBeLessThan(SIZE);
    const view = await call('GET', `/campaigns/${campaignId}`);
    expect(view.body.data).toMatchObject({ state: 'PAUSED', pause: { reason: 'PAUSED_BY_USER', pausedBy: 'user', failsAt: null } });

    const resumed = await call('POST', `/campaigns/${campaignId}/resume`);
    expect(resumed.status).toBe(200);
    const jobId = view.body.data.jobId as string;
    const final = await finalStatus(jobId);
    expect(final).toMatchObject({ status: 'COMPLETED', summary: { sent: SIZE, failed: 0, pending: 0 } });
    const sent = sendsTo(numbers);
    expect(sent).toHaveLength(SIZE);
    expect(new Set(sent).size).toBe(SIZE);
  });

  it('a campaign cancelled mid-drain sends nobody more and counts the rest cancelled', async () => {
    const members = range(10_000, SIZE);
    const numbers = new Set(members.map(full));
    const campaignId = await campaign('Cancelled', await audience('Cancelled audience', members.map(row)));
    expect((await call('POST', `/campaigns/${campaignId}/launch`)).status).toBe(202);
    await eventually(
      async () => sendsTo(numbers).length,
      (count) => count >= 100,
      120_000,
      20,
    );
    const cancelled = await call('POST', `/campaigns/${campaignId}/cancel`);
    expect(cancelled.body.data).toEqual({ campaignId, state: 'CANCELLED' });
    const jobId = (await call('GET', `/campaigns/${campaignId}`)).body.data.jobId as string;
    const final = await finalStatus(jobId);
    const sent = await settled(numbers);
    expect(final.status).toBe('CANCELLED');
    expect(new Set(sendsTo(numbers)).size).toBe(sent);
    expect(final.summary.sent).toBe(sent);
    expect(final.summary.cancelled).toBeGreaterThan(0);
    expect(final.summary.sent + final.summary.failed + final.summary.unknown + final.summary.cancelled).toBe(final.totalRecipients);
    expect((await call('GET', `/campaigns/${campaignId}`)).body.data.state).toBe('CANCELLED');
  });

  it('a broadcast job paused by its own route holds; resumed, every recipient is sent exactly once', async () => {
    const data = recipients(SIZE, { first: 9_410_000_000 });
    const numbers = new Set(data.map((recipient) => `${recipient.countryCode}${recipient.toPhoneNumber}`));
    const accepted = await call('POST', '/send-template-broadcast', orderUpdate(data));
    expect(accepted.status).toBe(202);
    const jobId = accepted.body.data.jobId as string;
    await eventually(
      async () => sendsTo(numbers).length,
      (count) => count >= 100,
      120_000,
      20,
    );
    const paused = await call('POST', `/broadcasts/${jobId}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({
      jobId,
      status: 'PAUSED',
      pause: { reason: 'PAUSED_BY_USER', pausedBy: 'user', failsAt: null, by: expect.any(String) },
    });
    const held = await settled(numbers);
    await sleep(3_000);
    expect(sendsTo(numbers)).toHaveLength(held);
    expect((await call('GET', `/status/${jobId}`)).body.data.status).toBe('PAUSED');

    expect((await call('POST', `/broadcasts/${jobId}/resume`)).status).toBe(200);
    expect(await finalStatus(jobId)).toMatchObject({ status: 'COMPLETED', summary: { sent: SIZE, pending: 0 } });
    const sent = sendsTo(numbers);
    expect(sent).toHaveLength(SIZE);
    expect(new Set(sent).size).toBe(SIZE);
  });
});
