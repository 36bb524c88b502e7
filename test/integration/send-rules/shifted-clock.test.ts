/**
 * The controllable clock reaches every function (issue 39's proofs depend on it): a `shiftedClock`
 * handed to the local runtime as `overrides.clock` is what each function reads as "now". Proven
 * through answers that depend on time, each of another function: a scheduled broadcast's window
 * (broadcast-send) and its firing (the local scheduler's timers and broadcast-scheduler's sweep); a
 * scheduled campaign's window (broadcast-campaigns) and its start (campaign-expander); a person's
 * pause held past its 30-day limit, which the chunk worker ends by cancelling the job
 * (`PAUSE_EXPIRED`, docs/BROADCAST.md "Pausing a job"); the health answer's time. And, statically,
 * every function's entry hands the overrides to its composition.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getServices } from '../../../functions/composition';
import { shiftedClock } from '../../../shared/ports/clock';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, kitEnvironment, orderUpdate, readJob, recipients, sleep, waitForTerminal } from '../broadcast/broadcast-test-kit';

jest.setTimeout(240_000);

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('a shifted clock', () => {
  const clock = shiftedClock();
  let runtime: TestRuntime;
  const call = (method: string, path: string, body?: unknown) =>
    runtime.call(method, `${BASE}${path}`, { headers: { 'x-api-key': runtime.demo.apiKey }, body });
  const sendsTo = (prefix: string) => runtime.sandbox!.acceptedMessages().filter((message) => String((message.body as { to?: unknown }).to).startsWith(prefix));
  const storedJob = async (jobId: string) => (await getServices().broadcast.broadcasts.getJob(jobId))!;
  /** `ms` after what the platform reads as now. */
  const ahead = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();

  beforeAll(async () => {
    runtime = await startTestRuntime({
      overrides: { clock },
      environment: { ...kitEnvironment, PAUSE_RECHECK_SECONDS: '1', CAMPAIGN_EXPANSION_MAX_DELAY_SECONDS: '1' },
    });
    // Three days ahead of the machine: a function reading its own time instead would be found out.
    clock.shiftBy(3 * DAY);
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it('every function entry hands the runtime overrides (the clock) to its composition', () => {
    const root = join(__dirname, '..', '..', '..', 'functions');
    const entries = readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((directory) =>
        readdirSync(join(root, directory.name))
          .filter((file) => file.endsWith('.lambda.ts'))
          .map((file) => join(root, directory.name, file)),
      );
    expect(entries.length).toBeGreaterThan(15);
    const ignoring = entries.filter((file) => {
      const source = readFileSync(file, 'utf8');
      return /composeFunction\(/.test(source) && !/composeFunction\([^;]*overrides\)/.test(source);
    });
    expect(ignoring).toEqual([]);
  });

  it('health answers the shifted time', async () => {
    const answer = await call('GET', '/health');
    expect(answer.status).toBe(200);
    expect(Math.abs(Date.parse(answer.body.timestamp) - clock.now().getTime())).toBeLessThan(60_000);
  });

  it('a scheduled broadcast: its window, its firing and its sends follow the shifted clock', async () => {
    // An hour ahead of the machine is two days and 23 hours in the platform's past.
    const machineHour = new Date(Date.now() + HOUR).toISOString();
    const refused = await call('POST', '/send-template-broadcast', orderUpdate(recipients(2, { first: 9_530_000_000 }), { scheduledAt: machineHour }));
    expect(refused.status).toBe(400);

    const scheduledAt = ahead(HOUR);
    const accepted = await call('POST', '/send-template-broadcast', orderUpdate(recipients(3, { first: 9_531_000_000 }), { scheduledAt }));
    expect(accepted.status).toBe(202);
    const jobId = accepted.body.data.jobId as string;
    expect(accepted.body.data.status).toBe('SCHEDULED');
    await sleep(2_000);
    expect((await call('GET', `/status/${jobId}`)).body.data.status).toBe('SCHEDULED');
    expect(sendsTo('919531')).toHaveLength(0);

    clock.shiftBy(HOUR);
    const final = await waitForTerminal(runtime.demo.organizationId, jobId, 60_000);
    expect(final).toMatchObject({ status: 'COMPLETED', summary: { sent: 3 } });
    expect(sendsTo('919531')).toHaveLength(3);
    // Fired at the platform's time: after scheduledAt, within seconds of it (not days before or after).
    const firedAt = Date.parse((await storedJob(jobId)).firedAt!);
    expect(firedAt).toBeGreaterThanOrEqual(Date.parse(scheduledAt));
    expect(firedAt - Date.parse(scheduledAt)).toBeLessThan(60_000);
  });

  it('a scheduled campaign: its window and its start follow the shifted clock', async () => {
    const created = await call('POST', '/audiences', { name: 'Shifted' });
    const audienceId = created.body.data.audienceId as string;
    expect(
      (
        await call('POST', `/audiences/${audienceId}/members`, {
          members: [{ countryCode: '91', toPhoneNumber: '9532000000', attributes: { first_name: 'Ada' } }],
        })
      ).status,
    ).toBe(200);
    const campaign = (scheduledAt: string) =>
      call('POST', '/campaigns', {
        name: 'Shifted',
        fromPhoneNumber: DEMO.sender1,
        templateName: 'order_update',
        templateLanguage: 'en_US',
        templateType: 'UTILITY',
        audience: { audienceIds: [audienceId] },
        templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'X'],
        scheduledAt,
      });
    expect((await campaign(new Date(Date.now() + HOUR).toISOString())).status).toBe(400);
    const accepted = await campaign(ahead(HOUR));
    expect(accepted.status).toBe(201);
    const campaignId = accepted.body.data.campaignId as string;
    expect((await call('POST', `/campaigns/${campaignId}/launch`)).body.data).toEqual({ campaignId, state: 'SCHEDULED' });
    await sleep(2_500);
    expect((await call('GET', `/campaigns/${campaignId}`)).body.data.state).toBe('SCHEDULED');

    clock.shiftBy(HOUR);
    await eventually(
      async () => sendsTo('919532').length,
      (count) => count === 1,
      60_000,
      250,
    );
  });

  it("a person's pause past the 30-day limit: the chunk worker cancels the job (PAUSE_EXPIRED) and sends nobody", async () => {
    const accepted = await call('POST', '/send-template-broadcast', orderUpdate(recipients(5, { first: 9_533_000_000 }), { scheduledAt: ahead(10 * 60_000) }));
    expect(accepted.status).toBe(202);
    const jobId = accepted.body.data.jobId as string;
    const paused = await call('POST', `/broadcasts/${jobId}/pause`);
    expect(paused.body.data.pause).toMatchObject({ reason: 'PAUSED_BY_USER', pausedBy: 'user', since: expect.any(String) });
    expect(Math.abs(Date.parse(paused.body.data.pause.since) - clock.now().getTime())).toBeLessThan(60_000);

    // Its time comes: it fires and is held (the worker re-queues its chunk every second).
    clock.shiftBy(11 * 60_000);
    await eventually(
      () => storedJob(jobId),
      (job) => job.firedAt !== undefined,
      60_000,
      250,
    );
    await sleep(3_000);
    expect((await readJob(runtime.demo.organizationId, jobId)).status).toBe('PAUSED');
    expect((await storedJob(jobId)).cancelledAt).toBeUndefined();

    clock.shiftBy(30 * DAY);
    const final = await waitForTerminal(runtime.demo.organizationId, jobId, 60_000);
    expect(final).toMatchObject({ status: 'CANCELLED', summary: { sent: 0, cancelled: 5, pending: 0 } });
    expect((await storedJob(jobId)).cancelReason).toBe('PAUSE_EXPIRED');
    expect(sendsTo('919533')).toHaveLength(0);
  });
});
