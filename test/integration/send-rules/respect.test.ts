/**
 * Issue 39's combined proof, through the local runtime, the sandbox and Meta-signed webhooks, with a
 * controllable clock (`shiftedClock` as the runtime's `overrides.clock`; every re-check at 1 s):
 *
 * 1. Send windows: a campaign to numbers in India, the UK and two US zones (New York by +1 212,
 *    Los Angeles by +1 415) with a 09:00-20:00 window sends each group only inside its own window as
 *    the clock moves through the day, shows who waits and the next opening, and finishes.
 * 2. Frequency caps: with a policy of 1 marketing message per person per 7 days, two campaigns to the
 *    same people launched together reach each person once; the one that lost each race lists them
 *    FREQUENCY_CAPPED, and a third campaign afterwards lists everyone FREQUENCY_CAPPED.
 * 3. Canary: a campaign whose slice draws 3 % STOP replies (quoting its message, by Meta's webhook)
 *    pauses itself after the observation with the measured rate beside its threshold and announces
 *    campaign.paused; the same slice within a looser threshold continues on its own and finishes.
 *
 * docs/CAMPAIGNS.md "Respecting the people on the list".
 */
import { startScriptedReceiver, type ScriptedReceiver } from '../../support/scripted-receiver';
import { TERMINAL_STATUSES } from '../../../shared/broadcast/broadcast-job';
import { eventually } from '../../support/local-runtime';
import { createCampaign, jobUntil, launch, member, replyStop, sendsOf, startRespectRuntime, stillSent, type RespectRuntime } from './respect-kit';
import { zonedInstant } from './zoned-instant';

// Tens of seconds on an idle machine; minutes when several suites share two cores.
jest.setTimeout(420_000);

const MINUTE = 60_000;
const range = (count: number) => Array.from({ length: count }, (_, index) => index);
const digits = (row: { countryCode: string; toPhoneNumber: string }) => `${row.countryCode}${row.toPhoneNumber}`;
const sum = (counts: Map<string, number>) => [...counts.values()].reduce((total, count) => total + count, 0);

describe('respecting the people on the list', () => {
  let respect: RespectRuntime;
  let receiver: ScriptedReceiver;

  beforeAll(async () => {
    respect = await startRespectRuntime();
    receiver = await startScriptedReceiver(() => 200);
    const registered = await respect.call('POST', '/webhooks', { url: receiver.url, events: ['campaign.paused'] });
    expect(registered.status).toBe(201);
  }, 60_000);
  afterAll(async () => {
    await receiver?.close();
    await respect?.close();
  });

  it('a 09:00-20:00 window sends India, the UK, New York and Los Angeles each only inside its own window, and finishes', async () => {
    const { runtime, clock, call } = respect;
    // A day at least two days ahead of the machine, so the clock only ever moves forward.
    const day = new Date(Date.now() + 2 * 24 * 60 * MINUTE).toISOString().slice(0, 10);
    const groups = {
      india: { zone: 'Asia/Kolkata', rows: range(5).map((i) => member('91', String(9_550_000_000 + i))) },
      uk: { zone: 'Europe/London', rows: range(5).map((i) => member('44', String(7_700_900_100 + i))) },
      newYork: { zone: 'America/New_York', rows: range(5).map((i) => member('1', String(2_125_550_100 + i))) },
      losAngeles: { zone: 'America/Los_Angeles', rows: range(5).map((i) => member('1', String(4_155_550_100 + i))) },
    };
    const order = ['india', 'uk', 'newYork', 'losAngeles'] as const;
    const opening = (group: (typeof order)[number]) => zonedInstant(groups[group].zone, day, '09:00');
    const numbersOf = (group: (typeof order)[number]) => groups[group].rows.map(digits);
    const all = order.flatMap(numbersOf);

    // India's window opened at 03:30 UTC; start an hour later, when Los Angeles' previous evening is over.
    clock.shiftTo(new Date(opening('india').getTime() + 60 * MINUTE));
    const campaignId = await createCampaign(call, {
      name: 'Windows',
      template: 'order_update',
      members: order.flatMap((group) => groups[group].rows),
      rules: { sendWindow: { from: '09:00', to: '20:00' } },
    });

    const dryRun = await call('POST', `/campaigns/${campaignId}/launch?dryRun=true`);
    expect(dryRun.status).toBe(200);
    expect(dryRun.body.data.sendWindow).toEqual({
      now: 5,
      later: order.slice(1).map((group) => ({ at: opening(group).toISOString(), count: 5 })),
    });

    const jobId = await launch(call, campaignId);
    for (const [phase, group] of order.entries()) {
      if (phase > 0) clock.shiftTo(new Date(opening(group).getTime() + 30 * MINUTE));
      const open = order.slice(0, phase + 1);
      const waiting = order.slice(phase + 1);
      // Everyone whose window is open is sent, once; nobody else.
      await eventually(
        async () => sendsOf(runtime, open.flatMap(numbersOf)).size,
        (count) => count === open.length * 5,
        60_000,
        250,
      );
      expect(await stillSent(runtime, all, open.length * 5)).toBe(0);
      expect(sendsOf(runtime, waiting.flatMap(numbersOf)).size).toBe(0);

      const status = await jobUntil(runtime, jobId, (view) => view.summary.sent === open.length * 5);
      if (waiting.length > 0) {
        expect(status.summary).toMatchObject({ waitingForWindow: waiting.length * 5, nextWindowAt: opening(waiting[0]!).toISOString() });
        const view = await call('GET', `/campaigns/${campaignId}`);
        expect(view.body.data.totals).toMatchObject({ waitingForWindow: waiting.length * 5, nextWindowAt: opening(waiting[0]!).toISOString() });
        const rows = await call('GET', `/campaigns/${campaignId}/recipients?status=WAITING`);
        expect(rows.status).toBe(200);
        const listed = rows.body.data.recipients as Array<{ countryCode: string; toPhoneNumber: string; status: string; waitingUntil: string }>;
        expect(listed.map(digits).sort()).toEqual(waiting.flatMap(numbersOf).sort());
        for (const group of waiting)
          for (const row of listed.filter((entry) => numbersOf(group).includes(digits(entry)))) expect(row.waitingUntil).toBe(opening(group).toISOString());
      } else {
        expect(status.summary).not.toHaveProperty('waitingForWindow');
      }
    }

    const final = await jobUntil(runtime, jobId, (view) => TERMINAL_STATUSES.has(view.status));
    expect(final).toMatchObject({ status: 'COMPLETED', summary: { sent: 20, failed: 0, pending: 0 } });
    expect([...sendsOf(runtime, all).values()]).toEqual(all.map(() => 1));
  });

  it('a cap of 1 per 7 days: two campaigns launched together reach each person once, the rest FREQUENCY_CAPPED', async () => {
    const { runtime, call } = respect;
    const people = range(30).map((i) => member('91', String(9_560_000_000 + i), `C${i}`));
    const numbers = people.map(digits);
    expect((await call('PUT', '/contact-policy', { marketingPerPerson: 1, perDays: 7 })).status).toBe(200);
    try {
      const [first, second] = await Promise.all([
        createCampaign(call, { name: 'Capped A', template: 'spring_sale', members: people }),
        createCampaign(call, { name: 'Capped B', template: 'spring_sale', members: people }),
      ]);
      const jobs = await Promise.all([launch(call, first!), launch(call, second!)]);
      const finals = await Promise.all(jobs.map((jobId) => jobUntil(runtime, jobId, (view) => TERMINAL_STATUSES.has(view.status))));

      // Each person exactly once across both; the other campaign skipped them as FREQUENCY_CAPPED.
      const sent = sendsOf(runtime, numbers);
      expect(sent.size).toBe(30);
      expect(sum(sent)).toBe(30);
      const capped = finals.map((view) => view.summary.failuresByReason?.FREQUENCY_CAPPED ?? 0);
      expect(finals.map((view) => view.summary.sent + (view.summary.failuresByReason?.FREQUENCY_CAPPED ?? 0))).toEqual([30, 30]);
      expect(capped[0]! + capped[1]!).toBe(30);
      for (const [index, campaignId] of [first!, second!].entries()) {
        if (capped[index] === 0) continue;
        const rows = await call('GET', `/campaigns/${campaignId}/recipients?status=FAILED`);
        const listed = rows.body.data.recipients as Array<{ failureReasonCode: string }>;
        expect(listed.map((row) => row.failureReasonCode)).toEqual(listed.map(() => 'FREQUENCY_CAPPED'));
        expect(listed).toHaveLength(capped[index]!);
      }

      // A third campaign to the same people within the 7 days: everyone capped, nobody sent, nothing charged.
      const third = await createCampaign(call, { name: 'Capped C', template: 'spring_sale', members: people });
      const thirdJob = await launch(call, third);
      const thirdFinal = await jobUntil(runtime, thirdJob, (view) => TERMINAL_STATUSES.has(view.status));
      expect(thirdFinal.summary).toMatchObject({ sent: 0, failuresByReason: { FREQUENCY_CAPPED: 30 } });
      expect(sum(sendsOf(runtime, numbers))).toBe(30);
      const listed = await call('GET', `/campaigns/${third}/recipients?status=FAILED`);
      expect(new Set((listed.body.data.recipients as Array<{ failureReasonCode: string }>).map((row) => row.failureReasonCode))).toEqual(
        new Set(['FREQUENCY_CAPPED']),
      );
    } finally {
      expect((await call('DELETE', '/contact-policy')).status).toBe(200);
    }
  });

  it('a canary slice drawing 3 % STOP replies pauses its campaign with the measured rate; within a looser threshold it continues on its own', async () => {
    const { runtime, clock, call } = respect;
    const run = async (name: string, first: number, optOutRate: number) => {
      const people = range(200).map((i) => member('91', String(first + i), `K${i}`));
      const campaignId = await createCampaign(call, {
        name,
        template: 'spring_sale',
        members: people,
        rules: { canary: { count: 100, observeMinutes: 30, haltIf: { optOutRate } } },
      });
      const jobId = await launch(call, campaignId);
      return { campaignId, jobId, numbers: people.map(digits) };
    };
    const strict = await run('Canary strict', 9_570_000_000, 0.01);
    const loose = await run('Canary loose', 9_571_000_000, 0.05);

    // The slices go; nothing else while they are watched.
    for (const campaign of [strict, loose]) {
      await eventually(
        async () => sendsOf(runtime, campaign.numbers).size,
        (count) => count === 100,
        120_000,
        250,
      );
      expect(await stillSent(runtime, campaign.numbers, 100)).toBe(0);
      const view = (await call('GET', `/campaigns/${campaign.campaignId}`)).body.data;
      expect(view.canary).toMatchObject({ state: 'observing', slice: 100 });
    }
    // 3 of each slice reply STOP to the campaign's message (3 %).
    for (const campaign of [strict, loose]) await replyStop(runtime, clock, [...sendsOf(runtime, campaign.numbers).keys()].slice(0, 3));
    await jobUntil(runtime, strict.jobId, (view) => view.summary.repliedByStop === 3);
    await jobUntil(runtime, loose.jobId, (view) => view.summary.repliedByStop === 3);

    // The observation ends.
    clock.shiftBy(31 * MINUTE);
    const halted = await eventually(
      () => call('GET', `/campaigns/${strict.campaignId}`),
      (answer) => answer.body?.data?.state === 'PAUSED',
      120_000,
      1_000,
    );
    const figures = {
      stage: 'canary',
      measured: { optOutRate: 0.03 },
      thresholds: { optOutRate: 0.01 },
      exceeded: ['optOutRate'],
      sent: 100,
      counts: { optOuts: 3 },
    };
    expect(halted.body.data.pause).toMatchObject({ pausedBy: 'canary', reason: 'CANARY_HALTED', halt: figures });
    expect(halted.body.data.canary).toMatchObject({ state: 'halted', slice: 100, verdict: figures });
    expect(await stillSent(runtime, strict.numbers, 100)).toBe(0);
    const announced = await eventually(
      async () =>
        receiver.requests
          .map((request) => JSON.parse(request.rawBody) as { type: string; data: Record<string, unknown> })
          .filter((event) => event.type === 'campaign.paused' && event.data.campaignId === strict.campaignId),
      (events) => events.length > 0,
      30_000,
      250,
    );
    expect(announced[0]!.data.pause).toMatchObject({ pausedBy: 'canary', reason: 'CANARY_HALTED' });

    // The looser one went on by itself: everyone once (the STOP repliers were already sent), finished.
    const finished = await jobUntil(runtime, loose.jobId, (view) => TERMINAL_STATUSES.has(view.status), 120_000);
    expect(finished.summary).toMatchObject({ sent: 200, pending: 0 });
    const looseSends = sendsOf(runtime, loose.numbers);
    expect([looseSends.size, sum(looseSends)]).toEqual([200, 200]);
    const looseView = (await call('GET', `/campaigns/${loose.campaignId}`)).body.data;
    expect(looseView.canary).toMatchObject({ state: 'passed', slice: 100, verdict: { measured: { optOutRate: 0.03 }, exceeded: [] } });

    // A person cancels the halted one: the rest is never sent.
    expect((await call('POST', `/campaigns/${strict.campaignId}/cancel`)).status).toBe(200);
    const cancelled = await jobUntil(runtime, strict.jobId, (view) => TERMINAL_STATUSES.has(view.status), 120_000);
    expect(cancelled.status).toBe('CANCELLED');
    expect(sum(sendsOf(runtime, strict.numbers))).toBe(100);
  });
});
