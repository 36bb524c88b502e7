/**
 * Meta's messaging limit planned, not refused (issue 36 "Proof"), through the local runtime and the
 * sandbox: the sandbox answers TIER_250 for sender 1; a 300-person campaign sends 250, reads
 * WAITING_FOR_LIMIT with the time the moving 24-hour window frees them, and completes when the
 * expander's clock (a test clock handed to it: the local runtime's `overrides`) reaches that time.
 * The expander's waits are re-queued every second here (CAMPAIGN_EXPANSION_MAX_DELAY_SECONDS=1).
 */
import { fixedClock } from '../../../shared/ports/clock';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment } from '../broadcast/broadcast-test-kit';
import { audienceOf } from './campaign-test-kit';

// Seconds on an idle machine; longer when several test runs share two cores.
jest.setTimeout(240_000);

const HOUR_MS = 3_600_000;

describe('a campaign over the messaging limit', () => {
  let runtime: TestRuntime;
  let key: string;
  const clock = fixedClock(new Date());
  const call = (method: string, path: string, body?: unknown) => runtime.call(method, `${BASE}${path}`, { headers: keyHeader(key), body });
  const sent = () =>
    runtime.sandbox!.acceptedMessages().filter((message) => message.phoneNumberId === DEMO.phoneNumberId1 && message.recipient.startsWith('91940'));

  beforeAll(async () => {
    runtime = await startTestRuntime({ environment: { ...kitEnvironment, CAMPAIGN_EXPANSION_MAX_DELAY_SECONDS: '1' }, overrides: { clock } });
    // Set before the platform first reads the tier (it caches it for a few minutes).
    runtime.sandbox!.configure({ messagingLimitByPhoneNumberId: { [DEMO.phoneNumberId1]: 'TIER_250' } });
    key = (await issueKey(runtime.demo!.organizationId)).secret;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  it('sends what fits, waits for the window (WAITING_FOR_LIMIT, waitingUntil) and completes when it frees', async () => {
    const members = Array.from({ length: 300 }, (_, index) => ({
      countryCode: '91',
      toPhoneNumber: String(9_400_000_000 + index),
      attributes: { first_name: `L${index}` },
    }));
    const audienceId = await audienceOf(call, 'Over the tier', members);
    const created = await call('POST', '/campaigns', {
      name: 'Over the tier',
      fromPhoneNumber: DEMO.sender1,
      templateName: 'order_update',
      templateLanguage: 'en_US',
      templateType: 'UTILITY',
      audience: { audienceIds: [audienceId] },
      templateParams: [{ attribute: 'first_name' }, 'LIMIT'],
    });
    const campaignId = created.body.data.campaignId as string;
    expect((await call('POST', `/campaigns/${campaignId}/launch`)).status).toBe(202);

    const waiting = await eventually(
      () => call('GET', `/campaigns/${campaignId}`),
      (response) => response.body?.data?.state === 'WAITING_FOR_LIMIT',
      120_000,
      500,
    );
    // The hour of the first sends leaves the window 25 h after it starts.
    const hourStart = Math.floor(clock.now().getTime() / HOUR_MS) * HOUR_MS;
    expect(waiting.body.data.waitingUntil).toBe(new Date(hourStart + 25 * HOUR_MS).toISOString());
    await eventually(
      async () => sent().length,
      (count) => count === 250,
      120_000,
      250,
    );
    // The wait holds (the expander looks again every second) until the clock reaches it.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    expect(sent()).toHaveLength(250);
    expect((await call('GET', `/campaigns/${campaignId}`)).body.data.state).toBe('WAITING_FOR_LIMIT');

    clock.set(waiting.body.data.waitingUntil);
    const done = await eventually(
      () => call('GET', `/campaigns/${campaignId}`),
      (response) => response.body?.data?.state === 'COMPLETED',
      120_000,
      500,
    );
    expect(done.body.data.totals).toMatchObject({ audience: 300, sendable: 300, sent: 300 });
    expect(new Set(sent().map((message) => message.recipient)).size).toBe(300);
    expect(sent()).toHaveLength(300);
  });
});
