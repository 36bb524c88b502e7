/**
 * Send windows in the recipient's own time (issue 39 "Proof"), through the local runtime and the
 * sandbox: a broadcast to numbers in India, the UK and two US zones with a 09:00–20:00 window sends
 * each group only inside its window and finishes. The platform's clock is a shifted clock (the
 * local runtime's `overrides`) moved from one opening to the next; the waiting recipients come back
 * every second (SEND_WINDOW_RECHECK_SECONDS=1), so each step takes about a second of real time.
 */
import { shiftedClock } from '../../../shared/ports/clock';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { zonedInstant } from './zoned-instant';
import { BASE, issueKey, keyHeader, kitEnvironment, orderUpdate, readJob, sleep } from '../broadcast/broadcast-test-kit';

jest.setTimeout(120_000);

// A week ahead (the platform's clock never goes back), 04:00 UTC: 09:30 in India (open); before 09:00 in
// London, New York and Los Angeles, which open in that order (in winter at 09:00Z, 14:00Z and 17:00Z,
// an hour earlier in summer: the openings come from Intl's zone data, so the test holds in any season).
const DAY = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
const START = `${DAY}T04:00:00.000Z`;
const OPENS = {
  london: zonedInstant('Europe/London', DAY, '09:00').toISOString(),
  newYork: zonedInstant('America/New_York', DAY, '09:00').toISOString(),
  losAngeles: zonedInstant('America/Los_Angeles', DAY, '09:00').toISOString(),
};
const justAfter = (instant: string) => new Date(Date.parse(instant) + 5_000).toISOString();
const GROUPS = {
  india: { countryCode: '91', numbers: ['9810000001', '9810000002', '9810000003'] },
  uk: { countryCode: '44', numbers: ['7911100001', '7911100002', '7911100003'] },
  newYork: { countryCode: '1', numbers: ['2125550101', '2125550102'] },
  losAngeles: { countryCode: '1', numbers: ['4155550101', '4155550102'] },
} as const;
type Group = keyof typeof GROUPS;

describe('a broadcast with a send window in each recipient’s own time', () => {
  let runtime: TestRuntime;
  let key: string;
  const clock = shiftedClock();

  beforeAll(async () => {
    clock.shiftTo(START);
    runtime = await startTestRuntime({ environment: { ...kitEnvironment, SEND_WINDOW_RECHECK_SECONDS: '1' }, overrides: { clock } });
    key = (await issueKey(runtime.demo!.organizationId)).secret;
  }, 60_000);
  afterAll(async () => {
    await runtime?.close();
  });

  const numbersOf = (group: Group) => GROUPS[group].numbers.map((number) => `${GROUPS[group].countryCode}${number}`);
  const sentTo = (group: Group) => {
    const wanted = new Set(numbersOf(group));
    return runtime.sandbox!.acceptedMessages().filter((message) => wanted.has(message.recipient)).length;
  };
  const sentByGroup = () => Object.fromEntries((Object.keys(GROUPS) as Group[]).map((group) => [group, sentTo(group)]));
  const data = (Object.keys(GROUPS) as Group[]).flatMap((group) =>
    GROUPS[group].numbers.map((toPhoneNumber, index) => ({
      countryCode: GROUPS[group].countryCode,
      toPhoneNumber,
      templateParams: [`${group}${index}`, `ORD-${index}`],
    })),
  );
  const request = orderUpdate(data, { sendWindow: { from: '09:00', to: '20:00' } });

  it('the dry run says how many go now and when the rest go', async () => {
    const answer = await runtime.call('POST', `${BASE}/send-template-broadcast?dryRun=true`, { headers: keyHeader(key), body: request });
    expect(answer.status).toBe(200);
    expect(answer.body.data.sendWindow).toEqual({
      now: 3,
      later: [
        { at: OPENS.london, count: 3 },
        { at: OPENS.newYork, count: 2 },
        { at: OPENS.losAngeles, count: 2 },
      ],
    });
  });

  it('sends each group only inside its window, shows who waits and until when, and finishes', async () => {
    const accepted = await runtime.call('POST', `${BASE}/send-template-broadcast`, { headers: keyHeader(key), body: request });
    // A small broadcast answers 200 (docs/BROADCAST.md), every accept names its job in the header.
    expect([200, 202]).toContain(accepted.status);
    const jobId = accepted.headers.get('x-broadcast-job-id')!;
    const organizationId = runtime.demo!.organizationId;
    const waitingSummary = (waiting: number, next: string) =>
      eventually(
        () => readJob(organizationId, jobId),
        (view) => view.summary.waitingForWindow === waiting && view.summary.nextWindowAt === next,
        20_000,
        100,
      );

    // 04:00Z: India only.
    await waitingSummary(7, OPENS.london);
    await eventually(
      async () => sentTo('india'),
      (count) => count === 3,
      20_000,
      100,
    );
    const waitingRows = await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients?status=WAITING`, { headers: keyHeader(key) });
    expect(waitingRows.status).toBe(200);
    expect(waitingRows.body.data.recipients).toHaveLength(7);
    expect(waitingRows.body.data.recipients[0]).toMatchObject({ status: 'WAITING', waitingUntil: OPENS.london });
    // Two re-checks later nothing else went.
    await sleep(2_200);
    expect(sentByGroup()).toEqual({ india: 3, uk: 0, newYork: 0, losAngeles: 0 });

    // 09:00 in London.
    clock.shiftTo(justAfter(OPENS.london));
    await eventually(
      async () => sentTo('uk'),
      (count) => count === 3,
      20_000,
      100,
    );
    await waitingSummary(4, OPENS.newYork);
    expect(sentByGroup()).toEqual({ india: 3, uk: 3, newYork: 0, losAngeles: 0 });

    // 09:00 in New York.
    clock.shiftTo(justAfter(OPENS.newYork));
    await eventually(
      async () => sentTo('newYork'),
      (count) => count === 2,
      20_000,
      100,
    );
    await waitingSummary(2, OPENS.losAngeles);
    expect(sentByGroup()).toEqual({ india: 3, uk: 3, newYork: 2, losAngeles: 0 });

    // 09:00 in Los Angeles: the last group, and the job finishes.
    clock.shiftTo(justAfter(OPENS.losAngeles));
    const final = await eventually(
      () => readJob(organizationId, jobId),
      (view) => view.status === 'COMPLETED',
      20_000,
      100,
    );
    expect(sentByGroup()).toEqual({ india: 3, uk: 3, newYork: 2, losAngeles: 2 });
    expect(final.summary).toMatchObject({ sent: 10, pending: 0 });
    expect(final.summary).not.toHaveProperty('waitingForWindow');
    expect(final.summary).not.toHaveProperty('nextWindowAt');
  });
});
