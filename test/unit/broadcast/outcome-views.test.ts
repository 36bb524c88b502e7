/**
 * Where a job's outcomes show (docs/OUTCOMES.md "Where it shows"), on the in-memory stores: the
 * status summary and its cost per reply and click, the campaign view's totals, the recipients list
 * and CSV, and the follow-up audience's filters. The outcome facts are written as the attribution
 * and the click redirect write them (an OutcomeStore over the same tally items: `outcomeFacts`).
 */
import { getJobStatus } from '../../../shared/broadcast/get-job-status';
import { newJob, recordAndFanOut } from '../../../shared/broadcast/job-fan-out';
import { listRecipients, recipientsCsv } from '../../../shared/broadcast/list-recipients';
import { matchingRecipients } from '../../../shared/broadcast/follow-up-audience';
import { followUpAudienceSchema, type FollowUpAudience } from '../../../shared/broadcast/follow-up.schema';
import { readCampaignView } from '../../../shared/campaigns/campaign-view';
import { emptyExpansionCounts } from '../../../shared/campaigns/campaign';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { parseRequest } from '../../../shared/http/validation';
import { RequestValidationError } from '../../../shared/http/errors';
import type { OutcomeEvent } from '../../../shared/outcomes/outcome-facts';
import { parseRateCard } from '../../../shared/pricing/rate-card';
import { fixedClock } from '../../../shared/ports/clock';
import { InMemoryBroadcastRepository, ORG, RecordingOutboundQueue, SENDER } from '../../support/broadcast-fakes';
import { draftCampaign } from '../../support/contracts/campaign-store.contract';

const clock = fixedClock('2026-12-01T09:00:00.000Z');
const reading = { now: new Date('2026-12-01T12:00:00.000Z'), unconfirmedAfterMs: 24 * 3_600_000 };
const JOB = 'pub_outcomes1';
const caller = { organizationId: ORG };
const at = (minute: number) => new Date(`2026-12-01T10:${String(minute).padStart(2, '0')}:00.000Z`);
const rateCards = { rateCardOf: async () => parseRateCard({ currency: 'USD', rates: { '*': { marketing: '0.10' } } }) };
const billedDelivered = '3D~3marketing~1~91';
const billedRead = '4R~4marketing~1~91';

/**
 * A job of 6 recipients, all sent and billed (marketing at 0.10): 0–2 read, 3–5 delivered.
 * Outcomes: 0 replied tapping YES, 1 replied tapping NO then YES and clicked twice, 3 clicked once,
 * 4 replied STOP (an attributed opt-out). 2 and 5 did nothing.
 */
async function jobWithOutcomes() {
  const broadcasts = new InMemoryBroadcastRepository();
  const job = newJob(
    { kind: 'template', broadcastName: 'sale', template: { name: 'sale', language: 'en_US', category: 'MARKETING', id: 'tpl_1' } },
    { jobId: JOB, organizationId: ORG, sender: SENDER, totalRecipients: 6, exposed: false, now: clock.now(), createdByCredentialId: 'cred_1' },
  );
  const listed = Array.from({ length: 6 }, (_, index) => ({ index, countryCode: '91', toPhoneNumber: `98${String(index).padStart(8, '0')}` }));
  await recordAndFanOut(
    { broadcasts, queue: new RecordingOutboundQueue(), clock },
    { job, listed, recipients: listed.map(({ index, countryCode, toPhoneNumber }) => ({ index, to: countryCode + toPhoneNumber, parameters: [] })) },
  );
  const sentAt = clock.now().toISOString();
  await broadcasts.recordOutcomes(
    JOB,
    0,
    listed.map(({ index, toPhoneNumber }) => ({
      index,
      to: `91${toPhoneNumber}`,
      status: 'SENT' as const,
      messageId: `wamid.${index}`,
      attempts: 1,
      updatedAt: sentAt,
    })),
  );
  for (const index of listed.map(({ index }) => index)) {
    const read = index < 3;
    broadcasts.recordDelivery(JOB, 0, index, { sentAt, deliveredAt: sentAt, ...(read ? { readAt: sentAt } : {}) }, read ? billedRead : billedDelivered);
  }
  const events: Array<[number, OutcomeEvent]> = [
    [0, { kind: 'reply', at: at(1), via: 'context' }],
    [0, { kind: 'button', at: at(1), index: 0, payload: 'YES' }],
    [1, { kind: 'reply', at: at(2), via: 'context' }],
    [1, { kind: 'button', at: at(2), index: 1, payload: 'NO' }],
    [1, { kind: 'button', at: at(3), index: 0, payload: 'YES' }],
    [1, { kind: 'click', at: at(4) }],
    [1, { kind: 'click', at: at(5) }],
    [3, { kind: 'click', at: at(6) }],
    [4, { kind: 'reply', at: at(7), via: 'last-touch' }],
    [4, { kind: 'opt-out', at: at(7) }],
  ];
  await broadcasts.outcomeFacts.recordOutcomes(
    JOB,
    events.map(([index, event]) => ({ location: { jobId: JOB, chunkIndex: 0, index }, event })),
  );
  return { broadcasts, job: (await broadcasts.getJob(JOB))! };
}

describe('the status summary', () => {
  it('counts replied, clicked, taps per button and STOP replies, and the cost per reply and per click', async () => {
    const { broadcasts } = await jobWithOutcomes();
    const { summary } = await getJobStatus(broadcasts, caller, JOB, reading, rateCards);
    expect(summary).toMatchObject({
      sent: 6,
      delivered: 6,
      read: 3,
      replied: 3,
      clicked: 2,
      repliedByStop: 1,
      buttons: [
        { index: 0, payload: 'YES', taps: 2 },
        { index: 1, payload: 'NO', taps: 1 },
      ],
    });
    expect(summary.heldOut).toBeUndefined();
    // 6 billed at 0.10 = 0.60: per reply 0.60 / 3, per click 0.60 / 2.
    expect(summary.cost).toEqual({
      currency: 'USD',
      billed: 6,
      amount: '0.60',
      byCategory: { marketing: { billed: 6, amount: '0.60' } },
      perReply: '0.20',
      perClick: '0.30',
    });
  });

  it('shows nothing new on a job without outcomes, and counts held-out recipients apart', async () => {
    const { broadcasts } = await jobWithOutcomes();
    broadcasts.outcomeFacts.items.clear();
    const plain = await getJobStatus(broadcasts, caller, JOB, reading, rateCards);
    for (const field of ['replied', 'clicked', 'buttons', 'repliedByStop', 'heldOut'] as const) expect(plain.summary).not.toHaveProperty(field);
    expect(plain.summary.cost).not.toHaveProperty('perReply');
    expect(plain.summary.cost).not.toHaveProperty('perClick');

    broadcasts.recordDelivery(JOB, 0, 5, {}, tallyCodes.heldOut);
    await broadcasts.outcomeFacts.recordOutcomes(JOB, [
      { location: { jobId: JOB, chunkIndex: 0, index: 5 }, event: { kind: 'reply', at: at(9), via: 'last-touch' } },
    ]);
    const held = await getJobStatus(broadcasts, caller, JOB, reading);
    expect(held.summary).toMatchObject({ replied: 0, clicked: 0, buttons: [], heldOut: 1 });
  });
});

describe('the campaign view', () => {
  it('totals the outcomes as its job’s summary does, and its cost per reply and per click', async () => {
    const { broadcasts } = await jobWithOutcomes();
    const campaign = {
      ...draftCampaign(ORG, 'cmp_o1'),
      launchedAt: '2026-12-01T09:00:00.000Z',
      jobId: JOB,
      expansion: {
        status: 'done' as const,
        audienceIndex: 1,
        nextIndex: 6,
        counts: { ...emptyExpansionCounts(), members: 6, sendable: 6 },
        startedAt: '2026-12-01T09:00:00.000Z',
        version: 2,
      },
    };
    const view = await readCampaignView({ broadcasts, rateCards }, campaign, reading);
    expect(view.totals).toMatchObject({
      sent: 6,
      read: 3,
      replied: 3,
      clicked: 2,
      repliedByStop: 1,
      buttons: [
        { index: 0, payload: 'YES', taps: 2 },
        { index: 1, payload: 'NO', taps: 1 },
      ],
    });
    expect(view.cost).toMatchObject({ amount: '0.60', perReply: '0.20', perClick: '0.30' });
  });
});

describe('the recipients list and CSV', () => {
  it('give each row its first reply, first tapped payload, first click and clicks; other rows unchanged', async () => {
    const { broadcasts } = await jobWithOutcomes();
    const { recipients } = await listRecipients(broadcasts, caller, JOB, {}, reading);
    expect(recipients[1]).toMatchObject({ status: 'READ', repliedAt: at(2).toISOString(), buttonPayload: 'NO', firstClickAt: at(4).toISOString(), clicks: 2 });
    expect(recipients[3]).toMatchObject({ firstClickAt: at(6).toISOString(), clicks: 1 });
    expect(recipients[4]).toMatchObject({ repliedAt: at(7).toISOString() });
    for (const field of ['repliedAt', 'buttonPayload', 'firstClickAt', 'clicks']) expect(recipients[2]).not.toHaveProperty(field);
    for (const field of ['buttonPayload', 'firstClickAt', 'clicks']) expect(recipients[4]).not.toHaveProperty(field);
    const [header, ...lines] = recipientsCsv(recipients).trim().split('\r\n');
    // Appended after every earlier column, never reordered.
    expect(header!.endsWith(',pricingSubtype,repliedAt,buttonPayload,firstClickAt,clicks,waitingUntil')).toBe(true);
    expect(lines[1]!.endsWith(`,${at(2).toISOString()},NO,${at(4).toISOString()},2,`)).toBe(true);
    expect(lines[2]!.endsWith(',,,,,')).toBe(true);
  });
});

describe('follow-up audiences by outcome', () => {
  const matched = async (audience: FollowUpAudience) => {
    const { broadcasts, job } = await jobWithOutcomes();
    return (await matchingRecipients(broadcasts, job, audience, reading)).map(({ listed }) => listed.index);
  };

  it('narrow the status selection: read but did not reply, replied, clicked, not clicked, by payload', async () => {
    expect(await matched({ statuses: ['READ'], replied: false })).toEqual([2]);
    expect(await matched({ replied: true })).toEqual([0, 1, 4]);
    expect(await matched({ clicked: true })).toEqual([1, 3]);
    expect(await matched({ statuses: ['DELIVERED'], clicked: false })).toEqual([4, 5]);
    // Any button tapped counts, not only the first.
    expect(await matched({ buttonPayloads: ['YES'] })).toEqual([0, 1]);
    expect(await matched({ buttonPayloads: ['NO', 'MAYBE'], clicked: true })).toEqual([1]);
    expect(await matched({ statuses: ['READ'], replied: true, clicked: false })).toEqual([0]);
  });

  it('are validated with messages naming the field', () => {
    const failure = (audience: unknown) => {
      try {
        parseRequest(followUpAudienceSchema, audience, 'audience');
      } catch (error) {
        expect(error).toBeInstanceOf(RequestValidationError);
        return (error as Error).message;
      }
      throw new Error('accepted');
    };
    expect(parseRequest(followUpAudienceSchema, { replied: false }, 'audience')).toEqual({ replied: false });
    expect(failure({ replied: 'no' })).toBe('replied must be true or false');
    expect(failure({ clicked: 1 })).toBe('clicked must be true or false');
    expect(failure({ buttonPayloads: [] })).toBe('buttonPayloads must hold at least 1 payload');
    expect(failure({ buttonPayloads: Array.from({ length: 11 }, (_, index) => `P${index}`) })).toBe('buttonPayloads must hold at most 10 payloads');
    expect(failure({ buttonPayloads: ['YES', ''] })).toBe('buttonPayloads[1] values must be button payloads of 1 to 256 characters');
    expect(failure({ buttonPayloads: ['YES', 7] })).toBe('buttonPayloads[1] values must be button payloads of 1 to 256 characters');
    expect(failure({})).toBe('audience must give at least one of statuses, failureCodes, notReadAfterHours, replied, clicked, buttonPayloads');
  });
});
