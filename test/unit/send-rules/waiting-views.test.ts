/**
 * What the reads say of recipients held for their send window (0A) or a frequency cap (0B): the job
 * summary's waitingForWindow/nextWindowAt (deferredByCap/nextCapAt), the recipients list's WAITING
 * with waitingUntil, and the dry runs' plan.
 */
import { summarizeJob, type BroadcastJob, type ChunkProgress } from '../../../shared/broadcast/broadcast-job';
import { newJob, recordAndFanOut } from '../../../shared/broadcast/job-fan-out';
import { listRecipients, recipientsCsv } from '../../../shared/broadcast/list-recipients';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { waitingTotalsOf } from '../../../shared/delivery/waiting-codes';
import { fixedClock } from '../../../shared/ports/clock';
import { sendWindowPlanOf, SendWindowPlanner } from '../../../shared/send-rules/send-window-plan';
import { InMemoryBroadcastRepository, ORG, RecordingOutboundQueue, SENDER } from '../../support/broadcast-fakes';
import { campaignTotalsOf } from '../../../shared/campaigns/campaign-view';
import { campaignKit, createCampaign } from '../../support/campaign-expander-kit';

const at = (iso: string) => new Date(iso);
const clock = fixedClock('2026-03-01T09:00:00.000Z');
const reading = { now: clock.now(), unconfirmedAfterMs: 86_400_000 };

describe('the job summary of waiting recipients', () => {
  const job = { jobId: 'pub_1', kind: 'template', totalRecipients: 5, totalChunks: 1, chunkSize: 1000, createdAt: '2026-03-01T08:00:00.000Z' } as BroadcastJob;
  const chunk: ChunkProgress = { chunkIndex: 0, recipientCount: 5, sent: 1, failed: 0, unknown: 0, failuresByReason: {}, started: true, done: false };
  const codes = (list: Array<[number, string]>) => ({ codes: list, now: reading.now, unconfirmedAfterMs: reading.unconfirmedAfterMs });

  it('counts 0A as waitingForWindow with the earliest opening, 0B as deferredByCap, both within pending', () => {
    const { summary, status } = summarizeJob(
      job,
      [chunk],
      codes([
        [0, tallyCodes.sent],
        [1, tallyCodes.waitingForWindow(at('2026-03-01T14:00:00Z'))],
        [2, tallyCodes.waitingForWindow(at('2026-03-01T12:30:00Z'))],
        [3, tallyCodes.waitingForCap(at('2026-03-05T00:00:00Z'))],
      ]),
    );
    expect(status).toBe('PROCESSING');
    expect(summary).toMatchObject({
      sent: 1,
      pending: 4,
      waitingForWindow: 2,
      nextWindowAt: '2026-03-01T12:30:00.000Z',
      deferredByCap: 1,
      nextCapAt: '2026-03-05T00:00:00.000Z',
    });
  });

  it('says nothing when nobody waits (no answer changes)', () => {
    const { summary } = summarizeJob(job, [chunk], codes([[0, tallyCodes.sent]]));
    for (const field of ['waitingForWindow', 'nextWindowAt', 'deferredByCap', 'nextCapAt']) expect(summary).not.toHaveProperty(field);
    expect(waitingTotalsOf(summary)).toEqual({});
    expect(waitingTotalsOf({ waitingForWindow: 2, nextWindowAt: 'x' })).toEqual({ waitingForWindow: 2, nextWindowAt: 'x' });
  });
});

describe('the recipients list of waiting recipients', () => {
  it('lists an unclaimed recipient with a waiting code WAITING with waitingUntil; filter and CSV', async () => {
    const broadcasts = new InMemoryBroadcastRepository();
    const job = newJob(
      { kind: 'template', broadcastName: 'b', template: { name: 't', language: 'en_US', category: 'UTILITY', id: 'tpl_1' } },
      { jobId: 'pub_w1', organizationId: ORG, sender: SENDER, totalRecipients: 3, exposed: false, now: clock.now() },
    );
    const listed = [0, 1, 2].map((index) => ({ index, countryCode: '1', toPhoneNumber: `21255500${index}0` }));
    await recordAndFanOut(
      { broadcasts, queue: new RecordingOutboundQueue(), clock },
      { job, listed, recipients: listed.map(({ index, countryCode, toPhoneNumber }) => ({ index, to: countryCode + toPhoneNumber, parameters: [] })) },
    );
    await broadcasts.recordWaiting('pub_w1', [
      { index: 1, code: tallyCodes.waitingForWindow(at('2026-03-01T14:00:00Z')) },
      { index: 2, code: tallyCodes.waitingForCap(at('2026-03-03T00:00:00Z')) },
    ]);
    const rows = (await listRecipients(broadcasts, { organizationId: ORG }, 'pub_w1', {}, reading)).recipients;
    expect(rows.map((row) => [row.status, row.waitingUntil])).toEqual([
      ['PENDING', undefined],
      ['WAITING', '2026-03-01T14:00:00.000Z'],
      ['WAITING', '2026-03-03T00:00:00.000Z'],
    ]);
    const waiting = await listRecipients(broadcasts, { organizationId: ORG }, 'pub_w1', { status: 'WAITING' }, reading);
    expect(waiting.recipients).toHaveLength(2);
    expect(recipientsCsv(waiting.recipients).split('\r\n')[1]).toMatch(/,WAITING,.*,2026-03-01T14:00:00\.000Z$/);
    // Claimed since: no longer waiting, whatever the code says.
    await broadcasts.claimRecipient('pub_w1', 0, 1, '12125550010', clock.now());
    expect((await listRecipients(broadcasts, { organizationId: ORG }, 'pub_w1', {}, reading)).recipients[1]!.status).toBe('PENDING');
  });
});

describe('the dry run plan of a send window', () => {
  const recipients = [
    { to: '919800000001' },
    { to: '919800000002' },
    { to: '12125550123' },
    { to: '14155550123' },
    { to: '447700900123', timeZone: 'Asia/Tokyo' },
  ];

  it('counts who goes now and when the rest go, earliest first', () => {
    // 09:00Z: 14:30 in India, 04:00 in New York, 01:00 in Los Angeles, 18:00 in Tokyo.
    expect(sendWindowPlanOf({ from: '09:00', to: '20:00' }, recipients, at('2026-03-01T09:00:00Z'))).toEqual({
      sendWindow: {
        now: 3,
        later: [
          { at: '2026-03-01T14:00:00.000Z', count: 1 },
          { at: '2026-03-01T17:00:00.000Z', count: 1 },
        ],
      },
    });
    expect(sendWindowPlanOf(undefined, recipients, at('2026-03-01T09:00:00Z'))).toEqual({});
  });

  it('scales a plan read from part of an audience', () => {
    const planner = new SendWindowPlanner({ from: '09:00', to: '20:00', timeZone: 'UTC' }, at('2026-03-01T08:00:00Z'));
    planner.add(recipients);
    expect(planner.plan(2)).toEqual({ now: 0, later: [{ at: '2026-03-01T09:00:00.000Z', count: 10 }] });
  });
});

describe('the campaign view totals of waiting recipients', () => {
  it('carry the job summary’s waiting fields, only when present', async () => {
    const kit = campaignKit();
    const campaign = await createCampaign(kit);
    const summary = summarizeJob(
      { jobId: 'pub_c', kind: 'template', totalRecipients: 2, totalChunks: 1, chunkSize: 1000, createdAt: '2026-05-04T09:00:00.000Z' } as BroadcastJob,
      [{ chunkIndex: 0, recipientCount: 2, sent: 0, failed: 0, unknown: 0, failuresByReason: {}, started: true, done: false }],
      { codes: [[0, tallyCodes.waitingForWindow(at('2026-05-04T13:00:00Z'))]], now: reading.now, unconfirmedAfterMs: reading.unconfirmedAfterMs },
    ).summary;
    expect(campaignTotalsOf(campaign, summary).totals).toMatchObject({ queued: 2, waitingForWindow: 1, nextWindowAt: '2026-05-04T13:00:00.000Z' });
    expect(campaignTotalsOf(campaign, undefined).totals).not.toHaveProperty('waitingForWindow');
  });
});
