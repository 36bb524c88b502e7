import { decodeRecipients, recipientsItem } from '../../../shared/adapters/dynamodb/messaging-job-items';
import { MalformedMessagingItemError } from '../../../shared/adapters/dynamodb/messaging-table';
import type { TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import { FollowUpAudienceError, FollowUpTooSoonError } from '../../../shared/broadcast/errors';
import { followUpBroadcast } from '../../../shared/broadcast/follow-up';
import type { MatchedRecipient } from '../../../shared/broadcast/follow-up-audience';
import type { FollowUpRequest } from '../../../shared/broadcast/follow-up.schema';
import { judgeResends, perUserLimitWaitHours, PER_USER_LIMIT_RESEND_CAP, resendsAfter } from '../../../shared/broadcast/per-user-limit-resends';
import { sendTemplateBroadcast } from '../../../shared/broadcast/send-template-broadcast';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { fixedClock } from '../../../shared/ports/clock';
import { ORG, broadcastRequest, recipientNumber } from '../../support/broadcast-fakes';
import { templateBroadcastKit } from '../../support/template-broadcast-kit';

const HOUR = 3_600_000;
const failedAt = '2026-03-01T00:00:00.000Z';
const matched = (index: number, previous: number | undefined, code = '131049'): MatchedRecipient => ({
  listed: { index, countryCode: '44', toPhoneNumber: `77009000${index}`, ...(previous === undefined ? {} : { perUserLimitResends: previous }) },
  to: `4477009000${index}`,
  failedAt,
  failureReasonCode: code,
});
const after = (hours: number) => new Date(Date.parse(failedAt) + hours * HOUR);

describe('131049 re-sends: widening interval and cap (per-user-limit-resends.ts)', () => {
  it('waits 24, 48, then 96 hours, and stops after 3 re-sends', () => {
    expect([0, 1, 2].map(perUserLimitWaitHours)).toEqual([24, 48, 96]);
    expect(PER_USER_LIMIT_RESEND_CAP).toBe(3);
    const recipients = [matched(0, undefined), matched(1, 1), matched(2, 2), matched(3, 3)];
    const at30h = judgeResends(recipients, after(30), false);
    expect(at30h.sendable.map(({ listed }) => listed.index)).toEqual([0]);
    expect(at30h.tooSoon.map(({ recipient, waitHours }) => [recipient.listed.index, waitHours])).toEqual([
      [1, 48],
      [2, 96],
    ]);
    expect(at30h.tooSoon[1]!.from).toEqual(after(96));
    expect(at30h.capped.map(({ listed }) => listed.index)).toEqual([3]);
    expect(judgeResends(recipients, after(96), false).sendable.map(({ listed }) => listed.index)).toEqual([0, 1, 2]);
  });

  it('force lifts only the first 24 hours; the widened interval and the cap hold under force', () => {
    const forced = judgeResends([matched(0, undefined), matched(1, 1), matched(3, 3)], after(1), true);
    expect(forced.sendable.map(({ listed }) => listed.index)).toEqual([0]);
    expect(forced.tooSoon.map(({ recipient }) => recipient.listed.index)).toEqual([1]);
    expect(forced.capped.map(({ listed }) => listed.index)).toEqual([3]);
  });

  it('counts one more for a 131049 failure, carries the count for other recipients, and never holds them back', () => {
    expect(resendsAfter(matched(0, undefined))).toBe(1);
    expect(resendsAfter(matched(0, 2))).toBe(3);
    expect(resendsAfter(matched(0, 2, '131026'))).toBe(2);
    expect(judgeResends([matched(0, 3, '131026')], after(0), false).sendable).toHaveLength(1);
  });

  it("is kept in the chunk's recipients item only when some recipient has one", () => {
    const recipients = [
      { index: 0, countryCode: '44', toPhoneNumber: '7700900000' },
      { index: 1, countryCode: '44', toPhoneNumber: '7700900001', perUserLimitResends: 2 },
    ];
    const item = recipientsItem('pub_1', 0, recipients, 1);
    expect(item.perUserLimitResends).toEqual({ '1': 2 });
    expect(decodeRecipients(item)).toEqual(recipients);
    expect(recipientsItem('pub_2', 0, [recipients[0]!], 1)).not.toHaveProperty('perUserLimitResends');
    expect(() => decodeRecipients({ ...item, perUserLimitResends: { '1': 'two' } })).toThrow(MalformedMessagingItemError);
  });
});

describe('131049 re-sends across follow-ups of follow-ups', () => {
  const caller = { organizationId: ORG };
  const full = (index: number) => `91${recipientNumber(index)}`;
  const body = (overrides: Partial<FollowUpRequest> = {}): FollowUpRequest => {
    const { data: _data, ...broadcast } = broadcastRequest(1, { broadcastName: 'retry' });
    return { ...broadcast, audience: { failureCodes: [131049] }, ...overrides };
  };

  it('counts each re-send down the chain: 24 h, 48 h, 96 h, then the recipient is left out, even with force', async () => {
    const clock = fixedClock('2026-03-01T00:00:00.000Z');
    const kit = templateBroadcastKit(clock);
    const parent = kit.broadcasts;
    const first = await sendTemplateBroadcast(kit.dependencies, caller, broadcastRequest(2), { inProgressTimeoutMs: 20_000 });
    /** Both recipients of `jobId` fail with 131049 by webhook at the clock's time. */
    const failBoth = async (jobId: string) => {
      for (const index of [0, 1]) {
        await parent.claimRecipient(jobId, 0, index, full(index), clock.now());
        await parent.recordOutcomes(jobId, 0, [
          { index, to: full(index), status: 'SENT', messageId: `wamid.${jobId}.${index}`, attempts: 1, updatedAt: clock.now().toISOString() },
        ]);
        parent.recordDelivery(
          jobId,
          0,
          index,
          { sentAt: clock.now().toISOString(), failedAt: clock.now().toISOString(), metaErrorCode: 131049 },
          tallyCodes.failedByWebhook(131049),
        );
      }
    };
    const followUp = (jobId: string, overrides: Partial<FollowUpRequest> = {}) =>
      followUpBroadcast(kit.dependencies, caller, { jobId, body: body(overrides), unconfirmedAfterMs: 24 * HOUR }, { inProgressTimeoutMs: 20_000 });
    const advance = (hours: number) => clock.set(new Date(clock.now().getTime() + hours * HOUR).toISOString());

    let jobId = first.jobId!;
    for (const [resend, wait] of [
      [1, 24],
      [2, 48],
      [3, 96],
    ] as const) {
      await failBoth(jobId);
      advance(wait - 1);
      if (resend > 1) await expect(followUp(jobId, { force: true })).rejects.toThrow(FollowUpTooSoonError);
      else await expect(followUp(jobId)).rejects.toThrow(/less than 24 hours ago/);
      advance(1);
      kit.queue.batches.length = 0;
      const result = await followUp(jobId);
      expect(result.audience).toEqual({ matched: 2, optedOut: 0 });
      expect(kit.queue.messages.flatMap((message) => (message as TemplateChunkMessage).recipients.map(({ to }) => to))).toEqual([full(0), full(1)]);
      const listed = (await parent.readChunkRecipients(result.jobId!, 0)).listed!;
      expect(listed.map(({ perUserLimitResends }) => perUserLimitResends)).toEqual([resend, resend]);
      jobId = result.jobId!;
    }
    await failBoth(jobId);
    advance(24 * 30);
    await expect(followUp(jobId, { force: true })).rejects.toThrow(FollowUpAudienceError);
    await expect(followUp(jobId, { force: true })).rejects.toThrow(/re-sent after 131049 failures as often as allowed/);
  });

  it('leaves out what another follow-up of the same parent re-sent already: the count cannot restart from the parent', async () => {
    const clock = fixedClock('2026-03-01T00:00:00.000Z');
    const kit = templateBroadcastKit(clock);
    const parent = await sendTemplateBroadcast(kit.dependencies, caller, broadcastRequest(2), { inProgressTimeoutMs: 20_000 });
    const parentId = parent.jobId!;
    for (const index of [0, 1]) {
      await kit.broadcasts.claimRecipient(parentId, 0, index, full(index), clock.now());
      await kit.broadcasts.recordOutcomes(parentId, 0, [
        { index, to: full(index), status: 'FAILED', failureReasonCode: '131049', attempts: 1, updatedAt: clock.now().toISOString() },
      ]);
    }
    clock.set('2026-03-02T01:00:00.000Z');
    const followUp = (audience: FollowUpRequest['audience']) =>
      followUpBroadcast(
        kit.dependencies,
        caller,
        { jobId: parentId, body: body({ audience }), unconfirmedAfterMs: 24 * HOUR },
        { inProgressTimeoutMs: 20_000 },
      );
    expect((await followUp({ failureCodes: [131049] })).audience).toEqual({ matched: 2, optedOut: 0 });

    clock.set('2026-03-09T01:00:00.000Z');
    await expect(followUp({ failureCodes: [131049] })).rejects.toThrow(/by another follow-up of this job/);
    // Whatever the audience names them by.
    const second = await followUp({ statuses: ['FAILED'] }).catch((error: Error) => error);
    expect(second).toBeInstanceOf(FollowUpAudienceError);
  });
});
