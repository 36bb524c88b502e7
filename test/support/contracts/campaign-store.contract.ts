/**
 * What every CampaignStore does, as observed through the port (fake InMemoryCampaignStore in
 * test/support/in-memory-campaign-store.ts, adapter DynamoDbCampaignStore): campaigns under their
 * organization, newest first with a cursor, a launch recorded once, checkpoints written only over
 * the version they expect. Each test uses its own organization.
 */
import type { Campaign, ExpansionProgress } from '../../../shared/campaigns/campaign';
import { emptyExpansionCounts } from '../../../shared/campaigns/campaign';
import type { CampaignStore } from '../../../shared/campaigns/ports';

let sequence = 0;
const freshOrganization = () => `org_campaign_contract_${process.pid}_${Date.now().toString(36)}_${(sequence += 1)}`;

/** A draft campaign with references in every kind of value. */
export function draftCampaign(organizationId: string, campaignId: string, createdAt = '2026-12-01T10:00:00.000Z'): Campaign {
  return {
    campaignId,
    organizationId,
    name: `Spring sale ${campaignId}`,
    fromPhoneNumber: '15550001111',
    template: { name: 'spring_sale', language: 'en_US', category: 'MARKETING' },
    audience: {
      audienceIds: ['aud_01', 'contacts'],
      filter: { tags: { any: ['vip'] }, attributes: { city: { in: ['Pune', 'Mumbai'] } } },
      excludeAudienceIds: ['aud_02'],
    },
    values: {
      templateParams: [{ attribute: 'first_name', fallback: 'there' }, 'SPRING25'],
      header: { type: 'image', link: 'https://example.com/a.png' },
      buttons: [{ index: 0, type: 'url', text: { attribute: 'coupon' } }],
    },
    createdAt,
    updatedAt: createdAt,
    createdByCredentialId: 'cred_contract',
  };
}

export const firstExpansion = (startedAt: string): ExpansionProgress => ({
  status: 'running',
  audienceIndex: 0,
  nextIndex: 0,
  counts: emptyExpansionCounts(),
  startedAt,
  version: 0,
});

export function describeCampaignStoreContract(name: string, makeStore: () => CampaignStore | Promise<CampaignStore>): void {
  describe(`CampaignStore contract: ${name}`, () => {
    let store: CampaignStore;
    beforeAll(async () => {
      store = await makeStore();
    });

    it('gives back a created campaign as written, values and references included; another organization reads none', async () => {
      const organizationId = freshOrganization();
      const campaign = draftCampaign(organizationId, 'cmp_read');
      await store.createCampaign(campaign);
      expect(await store.getCampaign(organizationId, 'cmp_read')).toEqual(campaign);
      expect(await store.getCampaign(freshOrganization(), 'cmp_read')).toBeUndefined();
      expect(await store.getCampaign(organizationId, 'cmp_absent')).toBeUndefined();
    });

    it('writes a campaign id once', async () => {
      const organizationId = freshOrganization();
      await store.createCampaign(draftCampaign(organizationId, 'cmp_once'));
      await expect(store.createCampaign({ ...draftCampaign(organizationId, 'cmp_once'), name: 'Other' })).rejects.toThrow();
      expect((await store.getCampaign(organizationId, 'cmp_once'))?.name).toBe('Spring sale cmp_once');
    });

    it('lists an organization\u2019s campaigns newest first, page by page with the cursor, and no other organization\u2019s', async () => {
      const organizationId = freshOrganization();
      const other = freshOrganization();
      const times = [
        '2026-12-01T10:00:00.000Z',
        '2026-12-01T10:00:01.000Z',
        '2026-12-01T10:00:02.000Z',
        '2026-12-01T10:00:03.000Z',
        '2026-12-01T10:00:04.000Z',
      ];
      for (const [index, createdAt] of times.entries()) await store.createCampaign(draftCampaign(organizationId, `cmp_list${index}`, createdAt));
      await store.createCampaign(draftCampaign(other, 'cmp_elsewhere', '2026-12-01T10:00:09.000Z'));
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await store.listCampaigns(organizationId, { limit: 2, ...(cursor === undefined ? {} : { cursor }) });
        expect(page.campaigns.length).toBeLessThanOrEqual(2);
        seen.push(...page.campaigns.map((campaign) => campaign.campaignId));
        cursor = page.nextCursor;
        pages += 1;
      } while (cursor !== undefined && pages < 10);
      expect(seen).toEqual(['cmp_list4', 'cmp_list3', 'cmp_list2', 'cmp_list1', 'cmp_list0']);
      const whole = await store.listCampaigns(organizationId, { limit: 10 });
      expect(whole.nextCursor).toBeUndefined();
      expect(whole.campaigns[0]).toEqual(draftCampaign(organizationId, 'cmp_list4', times[4]));
    });

    it('records a launch once: a second launch gives the campaign as the first left it', async () => {
      const organizationId = freshOrganization();
      await store.createCampaign(draftCampaign(organizationId, 'cmp_launch'));
      const launchedAt = '2026-12-01T11:00:00.000Z';
      const first = await store.markLaunched(organizationId, 'cmp_launch', {
        launchedAt,
        jobId: 'pub_first',
        expansion: firstExpansion(launchedAt),
        launchRequestHash: 'hash-1',
      });
      expect(first).toEqual({ launched: true });
      const second = await store.markLaunched(organizationId, 'cmp_launch', {
        launchedAt: '2026-12-01T11:00:05.000Z',
        jobId: 'pub_second',
        expansion: firstExpansion(launchedAt),
      });
      expect(second.launched).toBe(false);
      const earlier = second.launched ? undefined : second.campaign;
      expect(earlier).toMatchObject({
        launchedAt,
        jobId: 'pub_first',
        launchRequestHash: 'hash-1',
        expansion: firstExpansion(launchedAt),
        updatedAt: launchedAt,
      });
      expect(await store.getCampaign(organizationId, 'cmp_launch')).toEqual(earlier);
    });

    it('does not launch a campaign that does not exist, nor another organization\u2019s', async () => {
      const organizationId = freshOrganization();
      await store.createCampaign(draftCampaign(organizationId, 'cmp_theirs'));
      const launchedAt = '2026-12-01T11:00:00.000Z';
      const launch = { launchedAt, jobId: 'pub_x', expansion: firstExpansion(launchedAt) };
      expect(await store.markLaunched(freshOrganization(), 'cmp_theirs', launch)).toEqual({ launched: false, campaign: undefined });
      expect((await store.getCampaign(organizationId, 'cmp_theirs'))?.launchedAt).toBeUndefined();
    });

    it('writes a checkpoint only over the version it expects', async () => {
      const organizationId = freshOrganization();
      await store.createCampaign(draftCampaign(organizationId, 'cmp_expand'));
      const startedAt = '2026-12-01T11:00:00.000Z';
      expect(await store.saveExpansion(organizationId, 'cmp_expand', { ...firstExpansion(startedAt), version: 1 }, 0)).toBe(false);
      await store.markLaunched(organizationId, 'cmp_expand', { launchedAt: startedAt, jobId: 'pub_e', expansion: firstExpansion(startedAt) });
      const next: ExpansionProgress = {
        ...firstExpansion(startedAt),
        cursor: 'page-2',
        nextIndex: 1000,
        counts: { ...emptyExpansionCounts(), members: 1000, sendable: 990, duplicates: 10 },
        version: 1,
      };
      expect(await store.saveExpansion(organizationId, 'cmp_expand', next, 0)).toBe(true);
      expect(await store.saveExpansion(organizationId, 'cmp_expand', { ...next, nextIndex: 5, version: 1 }, 0)).toBe(false);
      const waiting: ExpansionProgress = { ...next, status: 'waiting', waitingUntil: '2026-12-02T11:00:00.000Z', version: 2 };
      expect(await store.saveExpansion(organizationId, 'cmp_expand', waiting, 1)).toBe(true);
      expect((await store.getCampaign(organizationId, 'cmp_expand'))?.expansion).toEqual(waiting);
      expect(await store.saveExpansion(freshOrganization(), 'cmp_expand', { ...waiting, version: 3 }, 2)).toBe(false);
    });

    it('lets one of two concurrent checkpoints over the same version win', async () => {
      const organizationId = freshOrganization();
      const startedAt = '2026-12-01T11:00:00.000Z';
      await store.createCampaign(draftCampaign(organizationId, 'cmp_race'));
      await store.markLaunched(organizationId, 'cmp_race', { launchedAt: startedAt, jobId: 'pub_r', expansion: firstExpansion(startedAt) });
      const writes = await Promise.all(
        [1, 2, 3].map((nextIndex) => store.saveExpansion(organizationId, 'cmp_race', { ...firstExpansion(startedAt), nextIndex, version: 1 }, 0)),
      );
      expect(writes.filter(Boolean)).toHaveLength(1);
    });

    it('cancels a campaign never launched once (the first time stays) and then refuses its launch; a launched one is not cancelled here', async () => {
      const organizationId = freshOrganization();
      await store.createCampaign(draftCampaign(organizationId, 'cmp_cancel'));
      const at = new Date('2026-12-01T10:30:00.000Z');
      expect(await store.cancelUnlaunched(organizationId, 'cmp_cancel', at)).toEqual({ cancelled: true, cancelledAt: at.toISOString() });
      expect(await store.cancelUnlaunched(organizationId, 'cmp_cancel', new Date('2026-12-01T10:31:00.000Z'))).toEqual({
        cancelled: true,
        cancelledAt: at.toISOString(),
      });
      expect(await store.getCampaign(organizationId, 'cmp_cancel')).toMatchObject({ cancelledAt: at.toISOString() });
      const launchedAt = '2026-12-01T11:00:00.000Z';
      const launch = await store.markLaunched(organizationId, 'cmp_cancel', { launchedAt, jobId: 'pub_c', expansion: firstExpansion(launchedAt) });
      expect(launch.launched).toBe(false);
      expect((await store.getCampaign(organizationId, 'cmp_cancel'))?.jobId).toBeUndefined();

      await store.createCampaign(draftCampaign(organizationId, 'cmp_launched'));
      await store.markLaunched(organizationId, 'cmp_launched', { launchedAt, jobId: 'pub_l', expansion: firstExpansion(launchedAt) });
      const refused = await store.cancelUnlaunched(organizationId, 'cmp_launched', at);
      expect(refused).toMatchObject({ cancelled: false, campaign: { jobId: 'pub_l' } });
      expect((await store.getCampaign(organizationId, 'cmp_launched'))?.cancelledAt).toBeUndefined();
      expect(await store.cancelUnlaunched(freshOrganization(), 'cmp_cancel', at)).toEqual({ cancelled: false, campaign: undefined });
    });
  });
}
