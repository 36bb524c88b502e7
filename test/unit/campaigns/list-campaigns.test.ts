/** GET /campaigns' use case on fakes: newest first, every campaign once over the pages, the state filter, the key's scope and the cursor's rules. */
import { listCampaigns, MAX_EXAMINED } from '../../../shared/campaigns/list-campaigns';
import { getCampaign } from '../../../shared/campaigns/get-campaign';
import { InMemoryBroadcastRepository, ORG, OTHER_ORG, SECOND_SENDER } from '../../support/broadcast-fakes';
import { InMemoryCampaignStore } from '../../support/in-memory-campaign-store';
import { draftCampaign, firstExpansion } from '../../support/contracts/campaign-store.contract';

const reading = { now: new Date('2026-12-01T12:00:00.000Z'), unconfirmedAfterMs: 86_400_000 };
const at = (second: number) => new Date(Date.UTC(2026, 11, 1, 10, 0, second)).toISOString();

async function setup(count: number) {
  const campaigns = new InMemoryCampaignStore();
  for (let index = 0; index < count; index += 1) await campaigns.createCampaign(draftCampaign(ORG, `cmp_${String(index).padStart(3, '0')}`, at(index)));
  await campaigns.createCampaign(draftCampaign(OTHER_ORG, 'cmp_theirs', at(59)));
  return { campaigns, broadcasts: new InMemoryBroadcastRepository() };
}

const idsOf = (page: { campaigns: Array<{ campaignId: string }> }) => page.campaigns.map((campaign) => campaign.campaignId);

describe('listCampaigns', () => {
  it('pages through the organization’s campaigns newest first, each once', async () => {
    const ports = await setup(5);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listCampaigns(ports, { organizationId: ORG }, { limit: 2, ...(cursor ? { cursor } : {}) }, reading);
      seen.push(...idsOf(page));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(['cmp_004', 'cmp_003', 'cmp_002', 'cmp_001', 'cmp_000']);
  });

  it('filters by state, reading on until the page is full', async () => {
    const ports = await setup(6);
    for (const id of ['cmp_001', 'cmp_004'])
      await ports.campaigns.markLaunched(ORG, id, { launchedAt: at(30), jobId: `pub_${id}`, expansion: firstExpansion(at(30)) });
    const launching = await listCampaigns(ports, { organizationId: ORG }, { state: 'LAUNCHING', limit: 1 }, reading);
    expect(idsOf(launching)).toEqual(['cmp_004']);
    const next = await listCampaigns(ports, { organizationId: ORG }, { state: 'LAUNCHING', limit: 1, cursor: launching.nextCursor! }, reading);
    expect(idsOf(next)).toEqual(['cmp_001']);
    expect(idsOf(await listCampaigns(ports, { organizationId: ORG }, { state: 'DRAFT', limit: 10 }, reading))).toEqual([
      'cmp_005',
      'cmp_003',
      'cmp_002',
      'cmp_000',
    ]);
    await expect(listCampaigns(ports, { organizationId: ORG }, { state: 'DRAFT', limit: 1, cursor: launching.nextCursor! }, reading)).rejects.toMatchObject({
      code: 'CAMPAIGN_INVALID_CURSOR',
    });
    await expect(listCampaigns(ports, { organizationId: ORG }, { limit: 1, cursor: 'junk' }, reading)).rejects.toMatchObject({
      code: 'CAMPAIGN_INVALID_CURSOR',
    });
  });

  it('stops after MAX_EXAMINED campaigns with a cursor to go on', async () => {
    const ports = await setup(0);
    for (let index = 0; index < MAX_EXAMINED + 3; index += 1)
      await ports.campaigns.createCampaign(draftCampaign(ORG, `cmp_m${String(index).padStart(4, '0')}`, at(0)));
    const page = await listCampaigns(ports, { organizationId: ORG }, { state: 'SENDING', limit: 10 }, reading);
    expect(page.campaigns).toEqual([]);
    expect(page.nextCursor).not.toBeNull();
    expect(await listCampaigns(ports, { organizationId: ORG }, { state: 'SENDING', limit: 10, cursor: page.nextCursor! }, reading)).toEqual({
      campaigns: [],
      nextCursor: null,
    });
  });

  it('shows a key bound to another sender none, and reads as absent what it may not see', async () => {
    const ports = await setup(2);
    const bound = { organizationId: ORG, scope: { kind: 'sender' as const, phoneNumber: SECOND_SENDER.phoneNumber } };
    expect(await listCampaigns(ports, bound, { limit: 10 }, reading)).toEqual({ campaigns: [], nextCursor: null });
    await expect(getCampaign(ports, bound, 'cmp_000', reading)).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_FOUND' });
    await expect(getCampaign(ports, { organizationId: OTHER_ORG }, 'cmp_000', reading)).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_FOUND' });
    await expect(getCampaign(ports, { organizationId: ORG }, '../etc', reading)).rejects.toMatchObject({ code: 'CAMPAIGN_NOT_FOUND' });
    await expect(getCampaign(ports, { organizationId: ORG }, 'cmp_000', reading)).resolves.toMatchObject({ campaignId: 'cmp_000', state: 'DRAFT' });
  });
});
