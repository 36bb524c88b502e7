/** Launching a campaign: one open-ended job, one expansion message, idempotent under the same key, refused otherwise. */
import { CampaignAlreadyLaunchedError, CampaignAudienceNotFoundError, CampaignNotFoundError } from '../../../shared/campaigns/errors';
import { OrganizationSuspendedError } from '../../../shared/tenancy/errors';
import { ORG } from '../../support/broadcast-fakes';
import { campaignKit, createCampaign, launch, member, seedAudience } from '../../support/campaign-expander-kit';

function launchedKit() {
  const kit = campaignKit();
  seedAudience(kit, 'aud_a', [member(1), member(2)]);
  return kit;
}

describe('launchCampaign', () => {
  it('creates the open-ended job, records the launch and queues one expansion, reading no member', async () => {
    const kit = launchedKit();
    await createCampaign(kit);
    const answer = await launch(kit, 'cmp_spring', 'key-1');
    expect(answer).toEqual({ campaignId: 'cmp_spring', state: 'LAUNCHING', jobId: expect.stringMatching(/^pub_/) });
    expect(kit.members.pagesRead).toBe(0);
    expect(await kit.broadcasts.getJob(answer.jobId)).toMatchObject({
      kind: 'template',
      campaignId: 'cmp_spring',
      expansion: 'open',
      totalRecipients: 0,
      totalChunks: 0,
      broadcastName: 'Spring',
    });
    expect((await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!).toMatchObject({
      jobId: answer.jobId,
      launchedAt: '2026-05-04T10:00:00.000Z',
      expansion: { status: 'running', version: 0 },
    });
    expect(kit.expansions.queued).toEqual([{ message: { version: 1, organizationId: ORG, campaignId: 'cmp_spring' }, delaySeconds: 0 }]);
  });

  it('answers a relaunch under the same key as the first (queueing again), refuses any other launch', async () => {
    const kit = launchedKit();
    await createCampaign(kit);
    const first = await launch(kit, 'cmp_spring', 'key-1');
    expect(await launch(kit, 'cmp_spring', 'key-1')).toEqual({ ...first, replayed: true });
    expect(kit.expansions.queued).toHaveLength(2);
    await expect(launch(kit, 'cmp_spring', 'key-2')).rejects.toBeInstanceOf(CampaignAlreadyLaunchedError);
    await expect(launch(kit, 'cmp_spring')).rejects.toBeInstanceOf(CampaignAlreadyLaunchedError);
  });

  it('lands on the same job when a launch failed after creating it', async () => {
    const kit = launchedKit();
    await createCampaign(kit);
    const markLaunched = kit.campaigns.markLaunched.bind(kit.campaigns);
    kit.launcher.campaigns = { getCampaign: kit.campaigns.getCampaign.bind(kit.campaigns), markLaunched: async () => Promise.reject(new Error('store down')) };
    await expect(launch(kit, 'cmp_spring', 'key-1')).rejects.toThrow('store down');
    kit.launcher.campaigns = { getCampaign: kit.campaigns.getCampaign.bind(kit.campaigns), markLaunched };
    const retried = await launch(kit, 'cmp_spring', 'key-1');
    expect(kit.broadcasts.jobs.size).toBe(1);
    expect(kit.broadcasts.jobs.has(retried.jobId)).toBe(true);
  });

  it('refuses an unknown campaign, a deleted audience and a suspended organization, launching nothing', async () => {
    const kit = launchedKit();
    await expect(launch(kit, 'cmp_none')).rejects.toBeInstanceOf(CampaignNotFoundError);
    await createCampaign(kit, { audience: { audienceIds: ['aud_a'], excludeAudienceIds: ['aud_gone'] } });
    await expect(launch(kit)).rejects.toMatchObject({
      constructor: CampaignAudienceNotFoundError,
      message: 'audience.excludeAudienceIds[0]: audience aud_gone does not exist',
    });
    const suspended = launchedKit();
    await createCampaign(suspended);
    suspended.launcher.standing = { isSuspended: async () => true };
    await expect(launch(suspended)).rejects.toBeInstanceOf(OrganizationSuspendedError);
    expect(kit.broadcasts.jobs.size + suspended.broadcasts.jobs.size).toBe(0);
    expect(kit.expansions.queued.length + suspended.expansions.queued.length).toBe(0);
  });

  it('a scheduled campaign waits for its time: SCHEDULED, its message delayed (re-queued until due), then it starts', async () => {
    const kit = launchedKit();
    await createCampaign(kit, { scheduledAt: '2026-05-04T11:00:00.000Z' });
    expect((await launch(kit)).state).toBe('SCHEDULED');
    expect((await kit.campaigns.getCampaign(ORG, 'cmp_spring'))!.expansion).toMatchObject({
      status: 'running',
      waitingUntil: '2026-05-04T11:00:00.000Z',
      version: 0,
    });
    expect(kit.expansions.queued[0]!.delaySeconds).toBe(900);
    const { drainExpansions } = await import('../../support/campaign-expander-kit');
    expect(await drainExpansions(kit)).toEqual([]);
    kit.clock.advanceBy(15 * 60_000);
    expect(await drainExpansions(kit)).toEqual(['waiting']);
    expect(kit.expansions.queued[0]!.delaySeconds).toBe(900);
    expect(kit.queue.messages).toHaveLength(0);
    kit.clock.advanceBy(45 * 60_000);
    expect(await drainExpansions(kit)).toEqual(['done']);
    expect(kit.queue.messages.flatMap((message) => message.recipients)).toHaveLength(2);
    expect(kit.published[0]).toMatchObject({ type: 'campaign.started', data: { startedAt: '2026-05-04T11:00:00.000Z' } });
  });
});
