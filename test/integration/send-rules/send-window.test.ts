/**
 * Send windows in the recipient's own time (issue 39 "Proof"), through the local runtime and the
 * sandbox: a broadcast to numbers in India, the UK and two US zones with a 09:00–20:00 window sends
 * each group only inside its window and finishes. The platform's clock is a shifted clock (the
 * local runtime's `overrides`) moved from one opening to the next; the waiting recipients come back
 * every second (SEND_WINDOW_RECHECK_SECONDS=1), so each step takes about a second of real time.
 */
import { shiftedClock } from '../../../shared/ports/clock';
import { eventually, startTestRuntime, type TestRuntime } from '../../support/local-runtime';
import { BASE, DEMO, issueKey, keyHeader, kitEnvironment, orderUpdate, readJob, sleep } from '../broadcast/broadcast-test-kit';

jest.setTimeout(120_000);

// Monday 2026-12-07 04:00 UTC: 09:30 in India (open); 04:00 in London (opens 09:00Z); 23:00 in New York (opens 14:00Z); 20:00 in Los Angeles (opens 17:00Z).
const START = '2026-12-07T04:00:00.000Z';
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
    GROUPS[group].numbers.map((toPhoneNumber, index) => ({ countryCode: GROUPS[group].countryCode, toPhoneNumber, templateParams: [`${group}${index}`, `ORD-${index}`] })),
  );
  const request = orderUpdate(data, { sendWindow: { from: '09:00', to: '20:00' } });

  it('the dry run says how many go now and when the rest go', async () => {
    const answer = await runtime.call('POST', `${BASE}/send-template-broadcast?dryRun=true`, { headers: keyHeader(key), body: request });
    expect(answer.status).toBe(200);
    expect(answer.body.data.sendWindow).toEqual({
      now: 3,
      later: [
        { at: '2026-12-07T09:00:00.000Z', count: 3 },
        { at: '2026-12-07T14:00:00.000Z', count: 2 },
        { at: '2026-12-07T17:00:00.000Z', count: 2 },
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
    await waitingSummary(7, '2026-12-07T09:00:00.000Z');
    await eventually(async () => sentTo('india'), (count) => count === 3, 20_000, 100);
    const waitingRows = await runtime.call('GET', `${BASE}/broadcasts/${jobId}/recipients?status=WAITING`, { headers: keyHeader(key) });
    expect(waitingRows.status).toBe(200);
    expect(waitingRows.body.data.recipients).toHaveLength(7);
    expect(waitingRows.body.data.recipients[0]).toMatchObject({ status: 'WAITING', waitingUntil: '2026-12-07T09:00:00.000Z' });
    // Two re-checks later nothing else went.
    await sleep(2_200);
    expect(sentByGroup()).toEqual({ india: 3, uk: 0, newYork: 0, losAngeles: 0 });

    // 09:00 in London.
    clock.shiftTo('2026-12-07T09:00:05.000Z');
    await eventually(async () => sentTo('uk'), (count) => count === 3, 20_000, 100);
    await waitingSummary(4, '2026-12-07T14:00:00.000Z');
    expect(sentByGroup()).toEqual({ india: 3, uk: 3, newYork: 0, losAngeles: 0 });

    // 09:00 in New York.
    clock.shiftTo('2026-12-07T14:00:05.000Z');
    await eventually(async () => sentTo('newYork'), (count) => count === 2, 20_000, 100);
    await waitingSummary(2, '2026-12-07T17:00:00.000Z');
    expect(sentByGroup()).toEqual({ india: 3, uk: 3, newYork: 2, losAngeles: 0 });

    // 09:00 in Los Angeles: the last group, and the job finishes.
    clock.shiftTo('2026-12-07T17:00:05.000Z');
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
