import type { TemplateChunkMessage } from '../../../shared/broadcast/chunk-message';
import {
  FollowUpAudienceError,
  FollowUpTooSoonError,
  IdempotencyKeyReusedError,
  JobOfAnotherOrganizationError,
  OperationOutsideKeyScopeError,
  SenderNotOwnedError,
} from '../../../shared/broadcast/errors';
import { buildFollowUpRequest, followUpBroadcast } from '../../../shared/broadcast/follow-up';
import type { FollowUpRequest } from '../../../shared/broadcast/follow-up.schema';
import { getJobStatus } from '../../../shared/broadcast/get-job-status';
import { sendTemplateBroadcast } from '../../../shared/broadcast/send-template-broadcast';
import { tallyCodes } from '../../../shared/delivery/recipient-status';
import { fixedClock } from '../../../shared/ports/clock';
import { ORG, OTHER_ORG, SENDER, broadcastRequest, recipientNumber } from '../../support/broadcast-fakes';
import { templateBroadcastKit } from '../../support/template-broadcast-kit';

const full = (index: number) => `91${recipientNumber(index)}`;
const UNCONFIRMED_AFTER_MS = 24 * 3_600_000;
const caller = { organizationId: ORG };

const followUpBody = (audience: FollowUpRequest['audience'], overrides: Partial<FollowUpRequest> = {}): FollowUpRequest => {
  const { data: _data, ...broadcast } = broadcastRequest(1, { broadcastName: 'retry' });
  return { ...broadcast, audience, ...overrides };
};

/**
 * A parent of 6 recipients, each with its own values: 0 delivered, 1 read, 2 failed 131049 by webhook
 * at 09:01, 3 failed 131049 on the call at 09:00, 4 failed 131026 by webhook, 5 sent only.
 */
async function setup(parentCaller: { organizationId: string; credentialId?: string } = caller) {
  const clock = fixedClock('2026-03-01T09:00:00.000Z');
  const kit = templateBroadcastKit(clock);
  const parent = await sendTemplateBroadcast(kit.dependencies, parentCaller, broadcastRequest(6), { inProgressTimeoutMs: 20_000 });
  const parentId = parent.jobId!;
  const at = clock.now().toISOString();
  for (let index = 0; index < 6; index += 1) await kit.broadcasts.claimRecipient(parentId, 0, index, full(index), clock.now());
  await kit.broadcasts.recordOutcomes(
    parentId,
    0,
    [0, 1, 2, 4, 5].map((index) => ({ index, to: full(index), status: 'SENT' as const, messageId: `wamid.${index}`, attempts: 1, updatedAt: at })),
  );
  await kit.broadcasts.recordOutcomes(parentId, 0, [{ index: 3, to: full(3), status: 'FAILED', failureReasonCode: '131049', attempts: 1, updatedAt: at }]);
  kit.broadcasts.recordDelivery(parentId, 0, 0, { sentAt: at, deliveredAt: at }, tallyCodes.delivered);
  kit.broadcasts.recordDelivery(parentId, 0, 1, { sentAt: at, deliveredAt: at, readAt: at }, tallyCodes.read);
  kit.broadcasts.recordDelivery(
    parentId,
    0,
    2,
    { sentAt: at, failedAt: '2026-03-01T09:01:00.000Z', metaErrorCode: 131049 },
    tallyCodes.failedByWebhook(131049),
  );
  kit.broadcasts.recordDelivery(parentId, 0, 4, { sentAt: at, failedAt: at, metaErrorCode: 131026 }, tallyCodes.failedByWebhook(131026));
  kit.broadcasts.recordDelivery(parentId, 0, 5, { sentAt: at }, tallyCodes.sent);
  kit.queue.batches.length = 0;
  const followUp = (body: FollowUpRequest, options: { idempotencyKey?: string; caller?: typeof caller } = {}) =>
    followUpBroadcast(
      kit.dependencies,
      options.caller ?? caller,
      { jobId: parentId, body, unconfirmedAfterMs: UNCONFIRMED_AFTER_MS },
      { idempotencyKey: options.idempotencyKey, inProgressTimeoutMs: 20_000 },
    );
  const queued = () => kit.queue.messages.flatMap((message) => (message as TemplateChunkMessage).recipients.map(({ to, parameters }) => ({ to, parameters })));
  return { ...kit, clock, parentId, followUp, queued };
}

describe('follow-ups', () => {
  it('reaches exactly the FAILED + 131049 recipients, each with the values it was sent, and records followUpOf', async () => {
    const kit = await setup();
    kit.clock.set('2026-03-02T09:30:00.000Z');
    const result = await kit.followUp(followUpBody({ statuses: ['FAILED'], failureCodes: [131049] }));

    expect(result).toMatchObject({ kind: 'job', status: 'PROCESSING', totalRecipients: 2, followUpOf: kit.parentId, audience: { matched: 2, optedOut: 0 } });
    expect(kit.queued()).toEqual([
      { to: full(2), parameters: ['Name2', 'Order2'] },
      { to: full(3), parameters: ['Name3', 'Order3'] },
    ]);
    const status = await getJobStatus(kit.broadcasts, caller, result.jobId!);
    expect(status.followUpOf).toBe(kit.parentId);
    expect((await getJobStatus(kit.broadcasts, caller, kit.parentId)).followUpOf).toBeUndefined();
  });

  it('refuses 131049 failures younger than 24 hours (by the failure time) unless force', async () => {
    const kit = await setup();
    kit.clock.set('2026-03-02T09:00:30.000Z'); // index 3 failed 24 h 30 s ago, index 2 only 23 h 59 min 30 s ago
    const body = followUpBody({ failureCodes: [131049] });
    await expect(kit.followUp(body)).rejects.toThrow(FollowUpTooSoonError);
    await expect(kit.followUp(body)).rejects.toThrow(/1 recipient that failed with 131049 .*from 2026-03-02T09:01:00.000Z, or set force: true/);
    expect(kit.queue.batches).toHaveLength(0);

    const forced = await kit.followUp({ ...body, force: true });
    expect(forced.audience).toEqual({ matched: 2, optedOut: 0 });
    // Other codes are not held back: 131026 right away.
    await expect(kit.followUp(followUpBody({ failureCodes: [131026] }))).resolves.toMatchObject({ totalRecipients: 1 });
  });

  it('leaves opted-out recipients out and counts them; nobody left is a 422', async () => {
    const kit = await setup();
    kit.optOuts.seed(ORG, { phoneNumber: full(4), source: 'api', createdAt: '2026-03-01T10:00:00.000Z' });
    const result = await kit.followUp(followUpBody({ statuses: ['FAILED'] }, { force: true }));
    expect(result.audience).toEqual({ matched: 3, optedOut: 1 });
    expect(kit.queued().map(({ to }) => to)).toEqual([full(2), full(3)]);
    await expect(kit.followUp(followUpBody({ failureCodes: [131026] }))).rejects.toThrow(FollowUpAudienceError);
    await expect(kit.followUp(followUpBody({ statuses: ['UNCONFIRMED'] }))).rejects.toThrow(/no recipient of the job matches audience/);
  });

  it('notReadAfterHours: sent or delivered, not read, at least that long ago; new values from the body win', async () => {
    const kit = await setup();
    kit.clock.set('2026-03-01T20:00:00.000Z');
    const body = followUpBody({ notReadAfterHours: 12 }, { globalTemplateParams: ['Again', 'Soon'] });
    await expect(kit.followUp(body)).rejects.toThrow(FollowUpAudienceError);
    kit.clock.set('2026-03-01T21:00:00.000Z');
    const result = await kit.followUp(body);
    expect(result.audience).toEqual({ matched: 2, optedOut: 0 });
    expect(kit.queued()).toEqual([
      { to: full(0), parameters: ['Again', 'Soon'] },
      { to: full(5), parameters: ['Again', 'Soon'] },
    ]);
  });

  it('replays the first answer for the same Idempotency-Key and refuses the key with another body', async () => {
    const kit = await setup();
    kit.clock.set('2026-03-03T09:00:00.000Z');
    const body = followUpBody({ statuses: ['FAILED'], failureCodes: [131049] });
    const first = await kit.followUp(body, { idempotencyKey: 'fu-1' });
    const again = await kit.followUp(body, { idempotencyKey: 'fu-1' });
    expect(again).toEqual(first);
    expect(kit.queued()).toHaveLength(2);
    await expect(kit.followUp({ ...body, force: true }, { idempotencyKey: 'fu-1' })).rejects.toThrow(IdempotencyKeyReusedError);
  });

  it("is isolated by organization: another organization's job is answered as by the status endpoint", async () => {
    const kit = await setup();
    await expect(
      buildFollowUpRequest(kit.dependencies, {
        caller: { organizationId: OTHER_ORG },
        jobId: kit.parentId,
        body: followUpBody({ statuses: ['FAILED'] }),
        unconfirmedAfterMs: UNCONFIRMED_AFTER_MS,
      }),
    ).rejects.toThrow(JobOfAnotherOrganizationError);
  });

  it("checks the key's scope before reading any audience: a minted key gets the same 403 whoever is opted out", async () => {
    // A key minted by generate-key reads the jobs it created; the parent here is one of them.
    const kit = await setup({ organizationId: ORG, credentialId: 'cred_minted' });
    kit.clock.set('2026-03-03T09:00:00.000Z');
    const minted = { organizationId: ORG, credentialId: 'cred_minted', scope: { kind: 'earlier-sender' as const, phoneNumber: SENDER.phoneNumber } };
    const build = (failureCodes: number[]) =>
      buildFollowUpRequest(kit.dependencies, {
        caller: minted,
        jobId: kit.parentId,
        body: followUpBody({ statuses: ['FAILED'], failureCodes }, { force: true }),
        unconfirmedAfterMs: UNCONFIRMED_AFTER_MS,
      });
    // 131026 reaches one recipient (index 4): opted out, the audience is empty (the 422 that told it apart); not opted out, 403 either way.
    await expect(build([131026])).rejects.toThrow(OperationOutsideKeyScopeError);
    kit.optOuts.seed(ORG, { phoneNumber: full(4), source: 'api', createdAt: '2026-03-01T10:00:00.000Z' });
    await expect(build([131026])).rejects.toThrow(OperationOutsideKeyScopeError);
    // A key bound to one sender naming another: refused before the audience too.
    const bound = { organizationId: ORG, credentialId: 'cred_minted', scope: { kind: 'sender' as const, phoneNumber: '15550009999' } };
    await expect(
      buildFollowUpRequest(kit.dependencies, {
        caller: bound,
        jobId: kit.parentId,
        body: followUpBody({ statuses: ['FAILED'], failureCodes: [131026] }),
        unconfirmedAfterMs: UNCONFIRMED_AFTER_MS,
      }),
    ).rejects.toThrow(SenderNotOwnedError);
  });

  it('builds the broadcast request for the dry run without recording anything', async () => {
    const kit = await setup();
    kit.clock.set('2026-03-03T09:00:00.000Z');
    const jobsBefore = kit.broadcasts.jobs.size;
    const { request, audience } = await buildFollowUpRequest(kit.dependencies, {
      caller,
      jobId: kit.parentId,
      body: followUpBody({ statuses: ['READ', 'DELIVERED'] }),
      unconfirmedAfterMs: UNCONFIRMED_AFTER_MS,
    });
    expect(audience).toEqual({ matched: 2, optedOut: 0 });
    expect(request).toMatchObject({
      broadcastName: 'retry',
      fromPhoneNumber: SENDER.phoneNumber,
      data: [{ countryCode: '91', toPhoneNumber: recipientNumber(0), templateParams: ['Name0', 'Order0'] }, { toPhoneNumber: recipientNumber(1) }],
    });
    expect(request).not.toHaveProperty('audience');
    expect(kit.broadcasts.jobs.size).toBe(jobsBefore);
  });
});
