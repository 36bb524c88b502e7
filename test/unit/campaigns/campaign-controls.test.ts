/**
 * A campaign's pause, resume and cancel (shared/campaigns/campaign-controls.ts), its recipients and
 * its follow-up's limits, on fakes: a launched campaign's controls are its job's; a draft's cancel
 * is the campaign's own.
 */
import { newJob } from '../../../shared/broadcast/job-fan-out';
import { buildFollowUpRequest, FOLLOW_UP_MAX_PARENT_RECIPIENTS } from '../../../shared/broadcast/follow-up';
import type { FollowUpRequest } from '../../../shared/broadcast/follow-up.schema';
import type { JobRecipient } from '../../../shared/broadcast/ports';
import { cancelCampaign, pauseCampaign, resumeCampaign, type CampaignControlPorts } from '../../../shared/campaigns/campaign-controls';
import { campaignJobForFollowUp } from '../../../shared/campaigns/campaign-access';
import { CAMPAIGN_PAGE_MAX_CHUNKS, listCampaignRecipients } from '../../../shared/campaigns/campaign-recipients';
import { readCampaignView } from '../../../shared/campaigns/campaign-view';
import type { CustomerEvent } from '../../../shared/customer-events/ports';
import { InMemoryBroadcastRepository, ORG, OTHER_ORG, SENDER } from '../../support/broadcast-fakes';
import { draftCampaign, firstExpansion } from '../../support/contracts/campaign-store.contract';
import { InMemoryCampaignStore, InMemoryExpansionQueue } from '../../support/in-memory-campaign-store';

const NOW = new Date('2026-12-01T12:00:00.000Z');
const reading = { now: NOW, unconfirmedAfterMs: 3_600_000 };
const caller = { organizationId: ORG, credentialId: 'cred_ops' };
const launchedAt = '2026-12-01T11:00:00.000Z';

function kit() {
  const broadcasts = new InMemoryBroadcastRepository();
  const campaigns = new InMemoryCampaignStore();
  const expansions = new InMemoryExpansionQueue();
  const events: CustomerEvent[] = [];
  const ports: CampaignControlPorts = { broadcasts, campaigns, expansions, events: { publish: async (_organizationId, event) => void events.push(event) } };
  return { broadcasts, campaigns, expansions, events, ports };
}

/** A launched campaign whose job holds `recipients` (chunks of 1,000), its expansion running. */
async function launched(k: ReturnType<typeof kit>, campaignId: string, recipients = 10) {
  const jobId = `pub_${campaignId}`;
  const job = {
    ...newJob(
      { kind: 'template' as const, broadcastName: campaignId, template: { name: 'spring_sale', language: 'en_US', category: 'MARKETING', id: 'tpl_1' } },
      { jobId, organizationId: ORG, sender: SENDER, totalRecipients: recipients, exposed: true, now: new Date(launchedAt) },
    ),
    campaignId,
  };
  const sizes = Array.from({ length: Math.ceil(recipients / 1000) }, (_, chunk) => Math.min(1000, recipients - chunk * 1000));
  const listed: JobRecipient[] = Array.from({ length: recipients }, (_, index) => ({
    index,
    countryCode: '91',
    toPhoneNumber: `98${String(index).padStart(8, '0')}`,
  }));
  await k.broadcasts.createJob(job, sizes, listed);
  await k.campaigns.createCampaign({ ...draftCampaign(ORG, campaignId), fromPhoneNumber: SENDER.phoneNumber });
  await k.campaigns.markLaunched(ORG, campaignId, {
    launchedAt,
    jobId,
    expansion: { ...firstExpansion(launchedAt), counts: { ...firstExpansion(launchedAt).counts, members: 1 }, version: 1 },
  });
  return { jobId, sizes, listed };
}

describe('campaign controls', () => {
  it('a draft cannot be paused or resumed; its cancel records it on the campaign, which then reads CANCELLED and is never launched', async () => {
    const k = kit();
    await k.campaigns.createCampaign(draftCampaign(ORG, 'cmp_draft'));
    await expect(pauseCampaign(k.ports, caller, 'cmp_draft', reading)).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_PAUSABLE' });
    await expect(resumeCampaign(k.ports, caller, 'cmp_draft', reading)).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_PAUSED' });
    expect(await cancelCampaign(k.ports, caller, 'cmp_draft', reading)).toEqual({ campaignId: 'cmp_draft', state: 'CANCELLED' });
    expect(await cancelCampaign(k.ports, caller, 'cmp_draft', { ...reading, now: new Date(NOW.getTime() + 1_000) })).toEqual({
      campaignId: 'cmp_draft',
      state: 'CANCELLED',
    });
    const stored = (await k.campaigns.getCampaign(ORG, 'cmp_draft'))!;
    expect(stored.cancelledAt).toBe(NOW.toISOString());
    expect((await readCampaignView(k.ports, stored, reading)).state).toBe('CANCELLED');
    expect((await k.campaigns.markLaunched(ORG, 'cmp_draft', { launchedAt, jobId: 'pub_x', expansion: firstExpansion(launchedAt) })).launched).toBe(false);
    await expect(pauseCampaign(k.ports, caller, 'cmp_draft', reading)).rejects.toMatchObject({
      code: 'CAMPAIGN_NOT_PAUSABLE',
      message: expect.stringContaining('cancelled'),
    });
  });

  it("pauses the campaign's job (a person, the credential, no deadline), announces campaign.paused, resumes it and expands again at once", async () => {
    const k = kit();
    const { jobId } = await launched(k, 'cmp_run');
    await k.broadcasts.markChunkStarted(jobId, 0, NOW);
    expect(await pauseCampaign(k.ports, caller, 'cmp_run', reading)).toEqual({ campaignId: 'cmp_run', state: 'PAUSED' });
    expect(await k.broadcasts.readJobControl(jobId)).toMatchObject({ pause: { reason: 'PAUSED_BY_USER', pausedBy: 'user', by: 'cred_ops' } });
    expect((await k.broadcasts.readJobControl(jobId))!.pause!.failsAt).toBeUndefined();
    expect(k.events.map((event) => [event.type, event.data.campaignId ?? event.data.jobId])).toEqual([
      ['job.paused', jobId],
      ['campaign.paused', 'cmp_run'],
    ]);
    expect(await pauseCampaign(k.ports, caller, 'cmp_run', reading)).toEqual({ campaignId: 'cmp_run', state: 'PAUSED' });
    expect(k.events).toHaveLength(2);

    expect(await resumeCampaign(k.ports, caller, 'cmp_run', reading)).toEqual({ campaignId: 'cmp_run', state: 'SENDING' });
    expect((await k.broadcasts.readJobControl(jobId))!.pause).toBeUndefined();
    expect(k.expansions.queued).toEqual([{ message: { version: 1, organizationId: ORG, campaignId: 'cmp_run' }, delaySeconds: 0 }]);
    await expect(resumeCampaign(k.ports, caller, 'cmp_run', reading)).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_PAUSED' });
  });

  it("cancels the campaign's job: CANCELLED, nothing more sent; a finished campaign is neither paused nor cancelled", async () => {
    const k = kit();
    const { jobId } = await launched(k, 'cmp_stop');
    expect(await cancelCampaign(k.ports, caller, 'cmp_stop', reading)).toEqual({ campaignId: 'cmp_stop', state: 'CANCELLED' });
    expect((await k.broadcasts.readJobControl(jobId))!.cancelled).toBe(true);
    await expect(pauseCampaign(k.ports, caller, 'cmp_stop', reading)).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_PAUSABLE' });

    const done = await launched(k, 'cmp_done', 3);
    await k.broadcasts.claimRecipients(
      done.jobId,
      0,
      done.listed.map(({ index, toPhoneNumber }) => ({ index, to: `91${toPhoneNumber}`, as: { status: 'FAILED' as const, failureReasonCode: '131026' } })),
      NOW,
    );
    await k.broadcasts.reconcileChunk(done.jobId, 0, NOW);
    await expect(pauseCampaign(k.ports, caller, 'cmp_done', reading)).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_PAUSABLE' });
    await expect(cancelCampaign(k.ports, caller, 'cmp_done', reading)).rejects.toMatchObject({ code: 'CAMPAIGN_ALREADY_FINISHED' });
  });

  it("answers another organization's campaign, or one outside a sender key's number, as unknown", async () => {
    const k = kit();
    await launched(k, 'cmp_mine');
    await expect(pauseCampaign(k.ports, { organizationId: OTHER_ORG }, 'cmp_mine', reading)).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_FOUND' });
    const otherSender = { organizationId: ORG, credentialId: 'cred_s', scope: { kind: 'sender' as const, phoneNumber: '919800000999' } };
    await expect(cancelCampaign(k.ports, otherSender, 'cmp_mine', reading)).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_FOUND' });
    await expect(listCampaignRecipients(k, otherSender, 'cmp_mine', {}, reading)).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_FOUND' });
  });
});

describe('campaign recipients and follow-ups', () => {
  it("lists the job's recipients; a draft has none yet", async () => {
    const k = kit();
    await k.campaigns.createCampaign(draftCampaign(ORG, 'cmp_d'));
    expect(await listCampaignRecipients(k, caller, 'cmp_d', {}, reading)).toEqual({ recipients: [], nextCursor: null });
    await launched(k, 'cmp_l', 5);
    const page = await listCampaignRecipients(k, caller, 'cmp_l', { limit: 2 }, reading);
    expect(page.recipients.map((row) => [row.toPhoneNumber, row.status])).toEqual([
      ['9800000000', 'PENDING'],
      ['9800000001', 'PENDING'],
    ]);
    expect(page.nextCursor).not.toBeNull();
  });

  it(`a page reads at most ${CAMPAIGN_PAGE_MAX_CHUNKS} chunks: a filter matching nobody answers an empty page and where to go on`, async () => {
    const k = kit();
    await launched(k, 'cmp_big', 25_000);
    const first = await listCampaignRecipients(k, caller, 'cmp_big', { status: 'READ' }, reading);
    expect(first.recipients).toEqual([]);
    expect(first.nextCursor).not.toBeNull();
    const second = await listCampaignRecipients(k, caller, 'cmp_big', { status: 'READ', cursor: first.nextCursor! }, reading);
    expect(second).toEqual({ recipients: [], nextCursor: null });
    const csv = await listCampaignRecipients(k, caller, 'cmp_big', { format: 'csv' }, reading);
    expect(csv.recipients).toHaveLength(10_000);
  });

  it('a follow-up follows up the campaign job; refused (422) for a draft, a parent over the limit or an audience over 10,000', async () => {
    const k = kit();
    await k.campaigns.createCampaign(draftCampaign(ORG, 'cmp_d'));
    await expect(campaignJobForFollowUp(k.campaigns, caller, 'cmp_d')).rejects.toMatchObject({ code: 'FOLLOW_UP_AUDIENCE' });
    const { jobId, sizes, listed } = await launched(k, 'cmp_f', 10_001);
    expect(await campaignJobForFollowUp(k.campaigns, caller, 'cmp_f')).toBe(jobId);
    for (const [chunk] of sizes.entries()) {
      const claims = listed
        .slice(chunk * 1000, chunk * 1000 + 1000)
        .map(({ index, toPhoneNumber }) => ({ index, to: `91${toPhoneNumber}`, as: { status: 'FAILED' as const, failureReasonCode: '131049' } }));
      await k.broadcasts.claimRecipients(jobId, chunk, claims, NOW);
    }
    const body = {
      broadcastName: 'again',
      fromPhoneNumber: SENDER.phoneNumber,
      templateName: 'spring_sale',
      templateLanguage: 'en_US',
      templateType: 'MARKETING',
      audience: { statuses: ['FAILED'] },
    } as unknown as FollowUpRequest;
    const ports = { broadcasts: k.broadcasts, optOuts: { suppressedAmong: async () => new Set<string>() }, clock: { now: () => NOW } };
    await expect(buildFollowUpRequest(ports, { caller, jobId, body, unconfirmedAfterMs: 3_600_000 })).rejects.toMatchObject({
      code: 'FOLLOW_UP_AUDIENCE',
      message: expect.stringContaining('more than 10000'),
    });

    const huge = await launched(k, 'cmp_huge', 1);
    await k.broadcasts.createJob(
      { ...(await k.broadcasts.getJob(huge.jobId))!, jobId: 'pub_huge2', totalRecipients: FOLLOW_UP_MAX_PARENT_RECIPIENTS + 1 },
      [1],
    );
    await expect(buildFollowUpRequest(ports, { caller, jobId: 'pub_huge2', body, unconfirmedAfterMs: 3_600_000 })).rejects.toMatchObject({
      code: 'FOLLOW_UP_AUDIENCE',
      message: expect.stringContaining('at most 100000'),
    });
  });
});
